/**
 * Recommend answers of `svc-search/local` (`LocalEngine.recommend`) from the lists the export computed with the
 * service's Recommend API: the models' scored lists, the threshold and cap, the records projected as the service
 * projects them, and `fallbackParameters` filled up with a search (score 0); and records by objectID
 * (`LocalEngine.getObjects`), projected alike. A chunk of its own: the worker loads it on the first Recommend request
 * or records request, which a page of search elements never makes.
 */
import {
  type BundleRecommendations,
  type BundleRecord,
  type ScoredItem,
  type StoredRecommendations,
  unpackRecommendations,
} from '../engine/bundle.js';
import type { RawParams } from '../engine/rules.js';
import type { IndexCore, IndexRecord } from '../engine/index-core.js';
import { LocalError, type LocalRecommendRequest, newQueryID, toSearchParams } from './shared.js';

/** As the service: a default of 30, at most 1,000 recommendations per request. */
const DEFAULT_RECOMMENDATIONS = 30;
const MAX_RECOMMENDATIONS = 1000;

/**
 * A primary's Recommend lists as the worker keeps them: read (`lists`: given in code, or read by the first Recommend
 * request), or as its file stores them (`stored`, positions in the order of the primary's `records`).
 */
export interface Recommendations {
  lists?: BundleRecommendations;
  stored?: StoredRecommendations;
  records?: readonly BundleRecord[];
}

/** The lists of `kept`, read from their stored form on first use (and kept read). */
function listsOf(kept: Recommendations | undefined): BundleRecommendations | undefined {
  if (!kept) return undefined;
  if (!kept.lists && kept.stored) {
    kept.lists = unpackRecommendations(
      kept.stored,
      (kept.records ?? []).map((record) => record.objectID),
    );
    kept.stored = undefined;
    kept.records = undefined;
  }
  return kept.lists;
}

/**
 * The answer to one Recommend request on `index`, whose primary's exported lists `kept` holds.
 * @example recommendOne({ indexName: 'products', model: 'related-products', objectID: '42' }, index, { lists }).hits
 */
export function recommendOne(
  request: LocalRecommendRequest,
  index: IndexCore,
  kept: Recommendations | undefined,
): Record<string, unknown> {
  const lists = listsOf(kept);
  const threshold = request.threshold ?? 0;
  const cap = Math.min(request.maxRecommendations || DEFAULT_RECOMMENDATIONS, MAX_RECOMMENDATIONS);
  const queryID = newQueryID();
  if (request.model === 'trending-facets') {
    if (!request.facetName) throw new LocalError(400, 'trending-facets needs a facetName');
    const hits = (lists?.trendingFacets[request.facetName] ?? [])
      .filter((item) => item.score >= threshold)
      .slice(0, cap)
      .map((item) => ({ facetName: request.facetName, facetValue: item.facetValue, _score: item.score }));
    return { hits, nbHits: hits.length, queryID };
  }
  const scored = scoredItems(request, lists, index);
  const settings = index.getSettings() as { attributesToRetrieve?: string[]; unretrievableAttributes?: string[] };
  const query = request.queryParameters ?? {};
  const retrieve = (Array.isArray(query.attributesToRetrieve) ? (query.attributesToRetrieve as string[]) : undefined) ??
    settings.attributesToRetrieve ?? ['*'];
  const hits: RawParams[] = [];
  for (const item of scored) {
    if (hits.length >= cap) break;
    if (item.score < threshold || item.score <= 0) break;
    if (item.objectID === request.objectID) continue;
    const record = index.getObject(item.objectID);
    if (!record) continue;
    hits.push({ ...project(record, retrieve, settings.unretrievableAttributes ?? []), _score: item.score });
  }
  if (request.fallbackParameters && hits.length < cap) fallback(request, index, hits, cap);
  return { hits, nbHits: hits.length, queryID };
}

function scoredItems(
  request: LocalRecommendRequest,
  lists: BundleRecommendations | undefined,
  index: IndexCore,
): ScoredItem[] {
  if (request.model === 'related-products' || request.model === 'bought-together') {
    if (!request.objectID) throw new LocalError(400, `${request.model} needs an objectID`);
    const byObject = request.model === 'related-products' ? lists?.relatedProducts : lists?.boughtTogether;
    return byObject?.[request.objectID] ?? [];
  }
  if (request.model !== 'trending-items') throw new LocalError(400, `Unknown model ${request.model}`);
  const all = lists?.trendingItems ?? [];
  const { facetName, facetValue } = request;
  if (facetName === undefined) return all;
  // Trending within a facet value: the index's trending records that hold the value.
  return all.filter((item) => {
    const value = index.getObject(item.objectID)?.[facetName];
    return Array.isArray(value) ? value.map(String).includes(String(facetValue)) : String(value) === String(facetValue);
  });
}

/** Fills up with a search on `fallbackParameters` (score 0), as the service does. */
function fallback(request: LocalRecommendRequest, index: IndexCore, hits: RawParams[], cap: number): void {
  const seen = new Set(hits.map((hit) => hit.objectID as string));
  if (request.objectID) seen.add(request.objectID);
  let response: { hits: RawParams[] };
  try {
    const params = { ...request.fallbackParameters, page: 0, hitsPerPage: Math.min(1000, cap + seen.size) };
    response = index.search(toSearchParams({ ...params, clickAnalytics: false })) as never;
  } catch (error) {
    throw new LocalError(400, `fallbackParameters: ${(error as Error).message}`);
  }
  for (const hit of response.hits) {
    if (hits.length >= cap) break;
    if (seen.has(hit.objectID as string)) continue;
    seen.add(hit.objectID as string);
    const { _highlightResult, _snippetResult, _rankingInfo, ...rest } = hit;
    hits.push({ ...rest, _score: 0 });
  }
}

/** A record with only the attributes an answer may show (as the service's `project`). */
function project(record: IndexRecord, attributes: readonly string[], unretrievable: readonly string[]): RawParams {
  let out: RawParams;
  if (attributes.includes('*')) {
    out = { ...record };
    for (const name of attributes) if (name.startsWith('-')) delete out[name.slice(1)];
  } else {
    out = {};
    for (const name of attributes) {
      const top = name.split('.')[0]!;
      if (top in record) out[top] = record[top];
    }
  }
  for (const name of unretrievable) delete out[name.split('.')[0]!];
  out.objectID = record.objectID;
  return out;
}

/** One request of `getObjects`: a record of an index by its objectID, with the attributes to retrieve. */
export interface ObjectRequest {
  indexName: string;
  objectID: string;
  attributesToRetrieve?: string[];
}

/**
 * Records by objectID, as `POST /1/indexes/*\/objects`: each projected on its `attributesToRetrieve` (all by default)
 * without the index's `unretrievableAttributes`, null for one not found. `indexOf` gives a loaded index by name (a 404
 * for an unknown one).
 *
 * @example
 * getObjects([{ indexName: 'products', objectID: '42', attributesToRetrieve: ['name'] }], (name) => indices.get(name)!)
 * // [{ name: 'Oak chair', objectID: '42' }]
 */
export function getObjects(
  requests: ObjectRequest[],
  indexOf: (indexName: string) => IndexCore,
): Array<RawParams | null> {
  return requests.map(({ indexName, objectID, attributesToRetrieve }) => {
    const index = indexOf(indexName);
    const record = index.getObject(objectID);
    if (!record) return null;
    return project(record, attributesToRetrieve ?? ['*'], index.getSetting('unretrievableAttributes') ?? []);
  });
}
