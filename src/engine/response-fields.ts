/**
 * `responseFields` (a search parameter of the hosted API): only the named top-level fields of a search or
 * browse answer are returned. As the hosted API does, an unknown field name is a 400, and a few fields are
 * always returned because clients cannot work without them (`cursor`, `queryID`, the A/B test fields,
 * `processed` of a skipped multi-query, `message`, `warning`); `*` (the default) keeps everything. Shared by
 * the service and the browser worker of `svc-search/local`, so both shape an answer alike.
 */
import { EngineError } from './errors.js';

/** Fields a caller may name (the hosted list, plus the fields this service answers). */
const NAMEABLE = new Set([
  'aroundLatLng',
  'automaticRadius',
  'exhaustive',
  'exhaustiveNbHits',
  'exhaustiveFacetsCount',
  'facets',
  'facets_stats',
  'hits',
  'hitsPerPage',
  'index',
  'length',
  'nbHits',
  'nbPages',
  'offset',
  'page',
  'params',
  'parsed_query',
  'processingTimeMS',
  'query',
  'queryAfterRemoval',
  'serverTimeMS',
  'userData',
  'appliedRules',
  'renderingContent',
]);

/** Fields never removed. */
const ALWAYS = new Set(['cursor', 'queryID', 'abTestID', 'abTestVariantID', 'processed', 'message', 'warning']);

/**
 * Checks a parsed `responseFields` list (400 naming an unknown field).
 *
 * @example
 * checkResponseFields(['hits', 'nbHits']); // fine
 * checkResponseFields(['hit']); // EngineError(400, 'Unknown field in responseFields: hit …')
 */
export function checkResponseFields(fields: unknown): void {
  if (fields === undefined || fields === null) return;
  for (const name of fields as string[]) {
    if (name !== '*' && !NAMEABLE.has(name) && !ALWAYS.has(name)) {
      throw new EngineError(`Unknown field in responseFields: ${name} (fields: *, ${[...NAMEABLE].join(', ')})`);
    }
  }
}

/**
 * The answer with only the fields `responseFields` names (and the ones always kept); unchanged without it
 * or with `*`.
 *
 * @example
 * withResponseFields({ hits: [], nbHits: 0, page: 0 }, ['nbHits']) // { nbHits: 0 }
 */
export function withResponseFields<T extends object>(answer: T, fields: unknown): T {
  if (fields === undefined || fields === null) return answer;
  const named = fields as string[];
  if (named.includes('*')) return answer;
  return Object.fromEntries(Object.entries(answer).filter(([name]) => named.includes(name) || ALWAYS.has(name))) as T;
}

/**
 * The answer of a multi-query request that `stopIfEnoughMatches` did not run (an earlier query had at least
 * `hitsPerPage` hits): no hits, `processed: false`, its query and parameters echoed. A facet value search after
 * that point is skipped alike. Shared by the service and the worker of `svc-search/local`.
 *
 * @example
 * skippedAnswer('products', { query: 'chair', hitsPerPage: 5 })
 * // { hits: [], page: 0, nbHits: 0, nbPages: 0, hitsPerPage: 5, processingTimeMS: 0, query: 'chair',
 * //   params: 'query=chair&hitsPerPage=5', index: 'products', processed: false }
 */
export function skippedAnswer(indexName: string, raw: Record<string, unknown>): Record<string, unknown> {
  const hitsPerPage = Number(raw.hitsPerPage ?? 20);
  return {
    hits: [],
    page: 0,
    nbHits: 0,
    nbPages: 0,
    hitsPerPage: Number.isFinite(hitsPerPage) ? hitsPerPage : 20,
    processingTimeMS: 0,
    query: typeof raw.query === 'string' ? raw.query : '',
    params: new URLSearchParams(
      Object.entries(raw).map(([name, value]): [string, string] => [
        name,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    ).toString(),
    index: indexName,
    processed: false,
  };
}
