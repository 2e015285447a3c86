/**
 * One Recommend request (document 2, Recommend): validation with messages naming the field, then the
 * answer `{hits, nbHits, queryID}` from the models, with `queryParameters` applied to the recommended
 * records and `fallbackParameters` filling up to `maxRecommendations` (30 when 0 or absent).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { KeyInfo } from '../keys/types.js';
import type { Catalog } from '../indices/catalog.js';
import type { SearchLogEntry, SearchLogStore } from '../storage/types.js';
import type { Index } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import { applyKeyParams, RECORD_CONSTRAINTS, rawParams, toSearchParams, type RawParams } from '../search/key-params.js';
import { roundScore, type Scored } from './models.js';
import type { Recommender } from './recommender.js';

export const MODELS = ['related-products', 'bought-together', 'trending-items', 'trending-facets'] as const;
export type Model = (typeof MODELS)[number];

/** The largest `maxRecommendations` accepted. */
export const MAX_RECOMMENDATIONS = 1000;
/**
 * `maxRecommendations` 0 (the document's default, whose meaning it does not show) stands for this many: the
 * most the hosted API returns (its clients bound the parameter to 1–30). A request without it gets at most
 * 30 recommendations, and its `fallbackParameters` fill up to 30.
 */
export const DEFAULT_RECOMMENDATIONS = 30;
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
    throw new ServiceError(400, `${where} must be an object of search parameters`);
  }
  try {
    // Same parsing and type checks as a search (a `params` string inside is merged, like a search body).
    return rawParams(toSearchParams(rawParams(value as RawParams)) as RawParams);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(400, `${where}: ${(error as Error).message}`);
  }
}

/** `got …` part of a message: what the caller sent. */
const got = (input: unknown) => `, got ${JSON.stringify(input) ?? 'undefined'}`;

/** A schema field whose every failure reads "is required …" when absent and "must be … , got X" otherwise. */
function field<T extends z.ZodType>(schema: (error: z.core.$ZodErrorMap) => T, required: string, must: string) {
  return schema((issue) => (issue.input === undefined ? required : `${must}${got(issue.input)}`));
}

const indexName = field(
  (error) => z.string({ error }).min(1, { error }),
  'is required and must be a non-empty string',
  'must be a non-empty string',
);
const threshold = field(
  (error) => z.number({ error }).min(0, { error }).max(100, { error }),
  'is required (a number from 0 to 100)',
  'must be a number from 0 to 100',
);
const maxRecommendations = z
  .number({ error: (issue) => `must be an integer from 0 to ${MAX_RECOMMENDATIONS}${got(issue.input)}` })
  .int({ error: (issue) => `must be an integer from 0 to ${MAX_RECOMMENDATIONS}${got(issue.input)}` })
  .min(0, { error: (issue) => `must be an integer from 0 to ${MAX_RECOMMENDATIONS}${got(issue.input)}` })
  .max(MAX_RECOMMENDATIONS, {
    error: (issue) => `must be an integer from 0 to ${MAX_RECOMMENDATIONS}${got(issue.input)}`,
  })
  .default(0);
/** Search parameters are checked by the search parameter parser (same rules as a search), after the schema. */
const searchParameters = z.unknown().optional();
const objectIDFor = (model: Model) =>
  field(
    (error) => z.string({ error }).min(1, { error }),
    `is required by the ${model} model and must be a non-empty string`,
    'must be a non-empty string',
  );

/** The request schema of each model (the document's table): common fields plus the model's own, nothing else. */
const SCHEMAS = {
  'related-products': z.strictObject({
    indexName,
    model: z.literal('related-products'),
    threshold,
    maxRecommendations,
    objectID: objectIDFor('related-products'),
    queryParameters: searchParameters,
    fallbackParameters: searchParameters,
  }),
  'bought-together': z.strictObject({
    indexName,
    model: z.literal('bought-together'),
    threshold,
    maxRecommendations,
    objectID: objectIDFor('bought-together'),
    queryParameters: searchParameters,
    fallbackParameters: searchParameters,
  }),
  'trending-items': z
    .strictObject({
      indexName,
      model: z.literal('trending-items'),
      threshold,
      maxRecommendations,
      facetName: z
        .string({ error: (issue) => `must be a non-empty string${got(issue.input)}` })
        .min(1, { error: 'must be a non-empty string' })
        .optional(),
      facetValue: z.string({ error: (issue) => `must be a string${got(issue.input)}` }).optional(),
      queryParameters: searchParameters,
      fallbackParameters: searchParameters,
    })
    .refine((request) => (request.facetName === undefined) === (request.facetValue === undefined), {
      error: 'and facetValue go together: give both (trending within one facet value) or neither (global trending)',
      path: ['facetName'],
    }),
  'trending-facets': z.strictObject({
    indexName,
    model: z.literal('trending-facets'),
    threshold,
    maxRecommendations,
    facetName: field(
      (error) => z.string({ error }).min(1, { error }),
      'is required by the trending-facets model and must be a non-empty string',
      'must be a non-empty string',
    ),
  }),
} satisfies Record<Model, z.ZodType>;

const modelSchema = z.enum(MODELS, {
  error: (issue) =>
    issue.input === undefined
      ? `is required (one of ${MODELS.join(', ')})`
      : `must be one of ${MODELS.join(', ')}${got(issue.input)}`,
});

/** The first schema issue as a message naming the field (`requests[1].objectID is required …`). */
function messageOf(issue: z.core.$ZodIssue, where: string, model: Model): string {
  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys[0]!;
    const known = MODELS.some((m) => m !== model && Object.hasOwn(SCHEMAS[m].shape, name));
    return known
      ? `${where}.${name} is not a parameter of the ${model} model`
      : `${where}.${name} is not a Recommend parameter`;
  }
  const path = issue.path.length ? `.${issue.path.join('.')}` : '';
  return `${where}${path} ${issue.message}`;
}

/**
 * Checks one request of the `requests` list against the schema of its model (zod), then its search
 * parameters with the search parameter parser.
 * @throws ServiceError(400) naming `requests[i].field` and what is wrong with it.
 * @example validateRequest({ indexName: 'products', model: 'bought-together', threshold: 0, objectID: '1' }, 0)
 */
export function validateRequest(input: unknown, i: number): RecommendRequestInput {
  const where = `requests[${i}]`;
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ServiceError(400, `${where} must be an object`);
  const modelResult = modelSchema.safeParse((input as { model?: unknown }).model);
  if (!modelResult.success) throw new ServiceError(400, `${where}.model ${modelResult.error.issues[0]!.message}`);
  const model = modelResult.data;
  const result = SCHEMAS[model].safeParse(input);
  if (!result.success) throw new ServiceError(400, messageOf(result.error.issues[0]!, where, model));
  const request = result.data as z.infer<(typeof SCHEMAS)[Model]> & {
    objectID?: string;
    facetName?: string;
    facetValue?: string;
    queryParameters?: unknown;
    fallbackParameters?: unknown;
  };
  const out: RecommendRequestInput = {
    indexName: request.indexName,
    model,
    threshold: request.threshold,
    maxRecommendations: request.maxRecommendations,
  };
  if (request.objectID !== undefined) out.objectID = request.objectID;
  if (request.facetName !== undefined) out.facetName = request.facetName;
  if (request.facetValue !== undefined) out.facetValue = request.facetValue;
  if (request.queryParameters !== undefined)
    out.queryParameters = paramsObject(request.queryParameters, `${where}.queryParameters`);
  if (request.fallbackParameters !== undefined)
    out.fallbackParameters = paramsObject(request.fallbackParameters, `${where}.fallbackParameters`);
  return out;
}

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * The objectIDs the parameters let through (filters and geo areas — the request's and the key's — and a
 * query when there is one), or `undefined` when they filter nothing. A query keeps its first 1,000 matches,
 * the most a search can return.
 */
function allowedObjectIDs(index: Index, raw: RawParams): Set<string> | undefined {
  const filtering = RECORD_CONSTRAINTS.some((name) => name !== 'aroundRadius' && hasValue(raw[name]));
  const query = typeof raw.query === 'string' ? raw.query.trim() : '';
  if (!filtering && !query) return undefined;
  try {
    if (!query) return new Set(index.matchingObjectIDs(toSearchParams(raw)));
    const response = index.search(
      toSearchParams({
        ...raw,
        page: 0,
        hitsPerPage: 1000,
        attributesToRetrieve: ['objectID'],
        attributesToHighlight: [],
        attributesToSnippet: [],
        facets: [],
      }),
    );
    return new Set(response.hits.map((hit) => hit.objectID));
  } catch (error) {
    throw new ServiceError(400, `queryParameters: ${(error as Error).message}`);
  }
}

/** Keeps the attributes a search would return (`attributesToRetrieve`, `unretrievableAttributes`). */
function project(
  record: Record<string, unknown>,
  attributes: readonly string[],
  unretrievable: readonly string[],
): Record<string, unknown> {
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
 * @example await answerRequest(services, key, validateRequest(body.requests[0], 0))
 */
export async function answerRequest(
  { catalog, recommender, searchLog }: { catalog: Catalog; recommender: Recommender; searchLog: SearchLogStore },
  key: KeyInfo,
  request: RecommendRequestInput,
): Promise<RecommendAnswer> {
  const index = catalog.require(request.indexName);
  const records = recommender.recordsOf(request.indexName)!;
  const models = await recommender.modelsOf(request.indexName);
  const now = recommender.now();
  const settings = index.getSettings() as unknown as {
    attributesToRetrieve?: string[];
    unretrievableAttributes?: string[];
  };
  const query = applyKeyParams(request.queryParameters ?? {}, key, index);
  const seeUnretrievable = key.isAdmin || key.acl.includes('seeUnretrievableAttributes');
  const retrieve = (Array.isArray(query.attributesToRetrieve) ? (query.attributesToRetrieve as string[]) : undefined) ??
    settings.attributesToRetrieve ?? ['*'];
  const unretrievable = seeUnretrievable ? [] : (settings.unretrievableAttributes ?? []);
  const allowed = allowedObjectIDs(index, query);
  const cap = Math.min(
    request.maxRecommendations || DEFAULT_RECOMMENDATIONS,
    key.maxHitsPerQuery > 0 ? key.maxHitsPerQuery : MAX_RECOMMENDATIONS,
  );

  let hits: Array<Record<string, unknown>>;
  if (request.model === 'trending-facets') {
    // Only the records the key may see count (a secured key's filters).
    const visible = allowed
      ? { ...records, get: (id: string) => (allowed.has(id) ? records.get(id) : undefined) }
      : records;
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
      const facet =
        request.facetName !== undefined ? { facetName: request.facetName, facetValue: request.facetValue! } : undefined;
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
    // Fallback: when the model has fewer than maxRecommendations (30 when 0), a search with fallbackParameters fills up.
    if (request.fallbackParameters && hits.length < cap) {
      const seen = new Set(hits.map((h) => h.objectID as string));
      if (request.objectID) seen.add(request.objectID);
      const fallback = applyKeyParams(request.fallbackParameters, key, index);
      let response: ReturnType<typeof index.search>;
      try {
        response = index.search(
          toSearchParams({ ...fallback, page: 0, hitsPerPage: Math.min(1000, cap + seen.size), clickAnalytics: false }),
        );
      } catch (error) {
        throw new ServiceError(400, `fallbackParameters: ${(error as Error).message}`);
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
  const entry: SearchLogEntry = {
    queryID,
    indexName: request.indexName,
    query: '',
    page: 0,
    hitsPerPage: Math.max(1, hits.length),
    objectIDs: hits.filter((h) => typeof h.objectID === 'string').map((h) => h.objectID as string),
    createdAt: Date.now(),
  };
  if (typeof query.userToken === 'string' && query.userToken) entry.userToken = query.userToken;
  await searchLog.record(entry);
  return { hits, nbHits: hits.length, queryID };
}
