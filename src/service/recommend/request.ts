/**
 * One Recommend request (document 2, Recommend): validation with messages naming the field, then the
 * answer `{hits, nbHits, queryID}` from the models, with `queryParameters` applied to the recommended
 * records and `fallbackParameters` filling up to `maxRecommendations`.
 */
import { randomBytes } from 'node:crypto';
import type { KeyInfo, ServiceContext } from '../context.js';
import type { Index } from '../engine/index.js';
import { HttpError } from '../http/errors.js';
import { applyKeyParams, rawParams, toSearchParams, type RawParams } from '../http/params.js';
import { roundScore, type Scored } from './models.js';
import type { Recommender } from './recommender.js';

export const MODELS = ['related-products', 'bought-together', 'trending-items', 'trending-facets'] as const;
export type Model = (typeof MODELS)[number];

/** Fields each model accepts besides the common ones (the document's table). */
const MODEL_FIELDS: Record<Model, readonly string[]> = {
  'related-products': ['objectID', 'queryParameters', 'fallbackParameters'],
  'bought-together': ['objectID', 'queryParameters', 'fallbackParameters'],
  'trending-items': ['facetName', 'facetValue', 'queryParameters', 'fallbackParameters'],
  'trending-facets': ['facetName'],
};
const COMMON_FIELDS = ['indexName', 'model', 'threshold', 'maxRecommendations'];

/** With `maxRecommendations` 0 (the default) every recommendation above the threshold is returned, up to this. */
export const MAX_RECOMMENDATIONS = 1000;
/** At most this many requests in one call (as a multi-query). */
export const MAX_REQUESTS = 50;

export interface RecommendRequestInput {
  indexName: string;
  model: Model;
  threshold: number;
  maxRecommendations: number;
  objectID?: string;
  facetName?: string;
  facetValue?: string;
  queryParameters?: RawParams;
  fallbackParameters?: RawParams;
}

function paramsObject(value: unknown, where: string): RawParams {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, `${where} must be an object of search parameters`);
  }
  try {
    // Same parsing and type checks as a search (a `params` string inside is merged, like a search body).
    return rawParams(toSearchParams(rawParams(value as RawParams)) as RawParams);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `${where}: ${(error as Error).message}`);
  }
}

/**
 * Checks one request of the `requests` list.
 * @throws HttpError(400) naming `requests[i].field` and what is wrong with it.
 * @example validateRequest({ indexName: 'products', model: 'bought-together', threshold: 0, objectID: '1' }, 0)
 */
export function validateRequest(input: unknown, i: number): RecommendRequestInput {
  const where = `requests[${i}]`;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new HttpError(400, `${where} must be an object`);
  const raw = input as Record<string, unknown>;
  if (typeof raw.indexName !== 'string' || raw.indexName === '') throw new HttpError(400, `${where}.indexName is required and must be a non-empty string`);
  if (raw.model === undefined) throw new HttpError(400, `${where}.model is required (one of ${MODELS.join(', ')})`);
  if (typeof raw.model !== 'string' || !(MODELS as readonly string[]).includes(raw.model)) {
    throw new HttpError(400, `${where}.model must be one of ${MODELS.join(', ')}, got ${JSON.stringify(raw.model)}`);
  }
  const model = raw.model as Model;
  for (const name of Object.keys(raw)) {
    if (COMMON_FIELDS.includes(name) || MODEL_FIELDS[model].includes(name) || raw[name] === undefined) continue;
    const known = MODELS.some((m) => MODEL_FIELDS[m].includes(name));
    throw new HttpError(400, known ? `${where}.${name} is not a parameter of the ${model} model` : `${where}.${name} is not a Recommend parameter`);
  }
  if (raw.threshold === undefined) throw new HttpError(400, `${where}.threshold is required (a number from 0 to 100)`);
  if (typeof raw.threshold !== 'number' || !Number.isFinite(raw.threshold) || raw.threshold < 0 || raw.threshold > 100) {
    throw new HttpError(400, `${where}.threshold must be a number from 0 to 100, got ${JSON.stringify(raw.threshold)}`);
  }
  let maxRecommendations = 0;
  if (raw.maxRecommendations !== undefined) {
    const m = raw.maxRecommendations;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 0 || m > MAX_RECOMMENDATIONS) {
      throw new HttpError(400, `${where}.maxRecommendations must be an integer from 0 to ${MAX_RECOMMENDATIONS}, got ${JSON.stringify(m)}`);
    }
    maxRecommendations = m;
  }
  const out: RecommendRequestInput = { indexName: raw.indexName, model, threshold: raw.threshold, maxRecommendations };
  if (model === 'related-products' || model === 'bought-together') {
    if (typeof raw.objectID !== 'string' || raw.objectID === '') throw new HttpError(400, `${where}.objectID is required by the ${model} model and must be a non-empty string`);
    out.objectID = raw.objectID;
  }
  if (model === 'trending-items') {
    const hasName = raw.facetName !== undefined;
    const hasValue = raw.facetValue !== undefined;
    if (hasName !== hasValue) throw new HttpError(400, `${where}.facetName and facetValue go together: give both (trending within one facet value) or neither (global trending)`);
    if (hasName) {
      if (typeof raw.facetName !== 'string' || raw.facetName === '') throw new HttpError(400, `${where}.facetName must be a non-empty string`);
      if (typeof raw.facetValue !== 'string') throw new HttpError(400, `${where}.facetValue must be a string`);
      out.facetName = raw.facetName;
      out.facetValue = raw.facetValue;
    }
  }
  if (model === 'trending-facets') {
    if (typeof raw.facetName !== 'string' || raw.facetName === '') throw new HttpError(400, `${where}.facetName is required by the trending-facets model and must be a non-empty string`);
    out.facetName = raw.facetName;
  }
  if (raw.queryParameters !== undefined) out.queryParameters = paramsObject(raw.queryParameters, `${where}.queryParameters`);
  if (raw.fallbackParameters !== undefined) out.fallbackParameters = paramsObject(raw.fallbackParameters, `${where}.fallbackParameters`);
  return out;
}

const FILTER_PARAMS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters'];

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * The objectIDs the parameters let through (filters, and a query when there is one), or `undefined` when they
 * filter nothing. A query keeps its first 1,000 matches, the most a search can return.
 */
function allowedObjectIDs(index: Index, raw: RawParams): Set<string> | undefined {
  const filtering = FILTER_PARAMS.some((name) => hasValue(raw[name]));
  const query = typeof raw.query === 'string' ? raw.query.trim() : '';
  if (!filtering && !query) return undefined;
  try {
    if (!query) return new Set(index.matchingObjectIDs(toSearchParams(raw)));
    const response = index.search(
      toSearchParams({ ...raw, page: 0, hitsPerPage: 1000, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [], facets: [] }),
    );
    return new Set(response.hits.map((hit) => hit.objectID));
  } catch (error) {
    throw new HttpError(400, `queryParameters: ${(error as Error).message}`);
  }
}

/** Keeps the attributes a search would return (`attributesToRetrieve`, `unretrievableAttributes`). */
function project(record: Record<string, unknown>, attributes: readonly string[], unretrievable: readonly string[]): Record<string, unknown> {
  let out: Record<string, unknown>;
  if (attributes.includes('*')) {
    out = { ...record };
    for (const a of attributes) if (a.startsWith('-')) delete out[a.slice(1)];
  } else {
    out = {};
    for (const a of attributes) {
      const top = a.split('.')[0]!;
      if (top in record) out[top] = record[top];
    }
  }
  for (const a of unretrievable) delete out[a.split('.')[0]!];
  out.objectID = record.objectID;
  return out;
}

export interface RecommendAnswer {
  hits: Array<Record<string, unknown>>;
  nbHits: number;
  queryID: string;
}

/**
 * Answers one validated request.
 * @example answerRequest(ctx, recommender, key, validateRequest(body.requests[0], 0))
 */
export function answerRequest(ctx: ServiceContext, recommender: Recommender, key: KeyInfo, request: RecommendRequestInput): RecommendAnswer {
  const index = ctx.indices.require(request.indexName);
  const records = recommender.recordsOf(request.indexName)!;
  const models = recommender.modelsOf(request.indexName);
  const now = recommender.now();
  const settings = index.getSettings() as unknown as { attributesToRetrieve?: string[]; unretrievableAttributes?: string[] };
  const query = applyKeyParams(request.queryParameters ?? {}, key, index);
  const seeUnretrievable = key.isAdmin || key.acl.includes('seeUnretrievableAttributes');
  const retrieve = (Array.isArray(query.attributesToRetrieve) ? (query.attributesToRetrieve as string[]) : undefined) ?? settings.attributesToRetrieve ?? ['*'];
  const unretrievable = seeUnretrievable ? [] : (settings.unretrievableAttributes ?? []);
  const allowed = allowedObjectIDs(index, query);
  const cap = Math.min(request.maxRecommendations || MAX_RECOMMENDATIONS, key.maxHitsPerQuery > 0 ? key.maxHitsPerQuery : MAX_RECOMMENDATIONS);

  let hits: Array<Record<string, unknown>>;
  if (request.model === 'trending-facets') {
    // Only the records the key may see count (a secured key's filters).
    const visible = allowed ? { ...records, get: (id: string) => (allowed.has(id) ? records.get(id) : undefined) } : records;
    const facets = models.trendingFacets(now, visible, request.facetName!);
    hits = facets
      .map((f) => ({ facetName: request.facetName!, facetValue: f.facetValue, _score: roundScore(f.score) }))
      .filter((h) => h._score >= request.threshold)
      .slice(0, cap);
  } else {
    let scored: Scored[];
    if (request.model === 'bought-together') scored = models.boughtTogether(request.objectID!);
    else if (request.model === 'related-products') scored = models.relatedProducts(request.objectID!, records);
    else {
      const facet = request.facetName !== undefined ? { facetName: request.facetName, facetValue: request.facetValue! } : undefined;
      scored = models.trendingItems(now, records, facet);
    }
    hits = [];
    for (const s of scored) {
      if (hits.length >= cap) break;
      const score = roundScore(s.score);
      if (score < request.threshold || score <= 0) break; // sorted by score: nothing further qualifies
      if (s.objectID === request.objectID) continue;
      if (allowed && !allowed.has(s.objectID)) continue;
      const record = records.get(s.objectID);
      if (!record) continue;
      hits.push({ ...project(record, retrieve, unretrievable), _score: score });
    }
    // Fallback: when the model has fewer than maxRecommendations, a search with fallbackParameters fills up.
    if (request.fallbackParameters && request.maxRecommendations > 0 && hits.length < cap) {
      const seen = new Set(hits.map((h) => h.objectID as string));
      if (request.objectID) seen.add(request.objectID);
      const fallback = applyKeyParams(request.fallbackParameters, key, index);
      let response;
      try {
        response = index.search(toSearchParams({ ...fallback, page: 0, hitsPerPage: Math.min(1000, cap + seen.size), clickAnalytics: false }));
      } catch (error) {
        throw new HttpError(400, `fallbackParameters: ${(error as Error).message}`);
      }
      for (const hit of response.hits) {
        if (hits.length >= cap) break;
        if (seen.has(hit.objectID)) continue;
        seen.add(hit.objectID);
        const { _highlightResult, _snippetResult, _rankingInfo, ...rest } = hit as Record<string, unknown>;
        // Not a model recommendation: a score of 0 says so (the threshold does not apply to fallback hits).
        hits.push({ ...rest, _score: 0 });
      }
    }
  }

  // Every answer gets a queryID, recorded like a search with clickAnalytics so that clicks, views and
  // conversions on the recommendations (positions 1..n) are attributable.
  const queryID = randomBytes(16).toString('hex');
  const entry: Parameters<ServiceContext['searchLog']['record']>[0] = {
    queryID,
    indexName: request.indexName,
    query: '',
    page: 0,
    hitsPerPage: Math.max(1, hits.length),
    objectIDs: hits.filter((h) => typeof h.objectID === 'string').map((h) => h.objectID as string),
    createdAt: Date.now(),
  };
  if (typeof query.userToken === 'string' && query.userToken) entry.userToken = query.userToken;
  ctx.searchLog.record(entry);
  return { hits, nbHits: hits.length, queryID };
}
