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
