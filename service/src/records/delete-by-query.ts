import { isSearchParameter } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { KeyInfo } from '../keys/types.js';
import { applyKeyParams, RECORD_CONSTRAINTS, type RawParams } from '../search/key-params.js';

/**
 * The parameters of a delete by query (document 1: "only filters (numeric, facet, tag) and geo queries are
 * honoured; an empty filter or empty query is refused"), with the key's forced filters and area: the call
 * deletes exactly what a search with them would match. `query` and any other search parameter are 400s
 * naming them; a call that would match every record (no filter, no area) is a 400.
 *
 * @example
 * deleteByQueryParams({ filters: 'kind:y', aroundLatLng: '48.85, 2.35', aroundRadius: 1000 }, key)
 */
export function deleteByQueryParams(raw: RawParams, key: KeyInfo): RawParams {
  const allowed: readonly string[] = RECORD_CONSTRAINTS;
  for (const name of Object.keys(raw)) {
    if (name === 'query')
      throw new ServiceError(400, 'deleteByQuery does not take a query: only filters and geo parameters are honoured');
    if (!isSearchParameter(name)) throw new ServiceError(400, `Unknown parameter: ${name}`);
    if (!allowed.includes(name))
      throw new ServiceError(400, `${name} is not a parameter of deleteByQuery (it takes ${allowed.join(', ')})`);
  }
  const present = (value: unknown) =>
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
  if (present(raw.aroundRadius) && !present(raw.aroundLatLng))
    throw new ServiceError(400, 'aroundRadius needs aroundLatLng (the centre of the area to delete in)');
  const filtered = ['filters', 'facetFilters', 'numericFilters', 'tagFilters'].some((name) => present(raw[name]));
  const area =
    (present(raw.aroundLatLng) && present(raw.aroundRadius) && raw.aroundRadius !== 'all') ||
    present(raw.insideBoundingBox) ||
    present(raw.insidePolygon);
  if (!filtered && !area) {
    throw new ServiceError(
      400,
      'deleteByQuery needs a non-empty filter (filters, facetFilters, numericFilters or tagFilters) or a geo area (aroundLatLng with aroundRadius, insideBoundingBox, insidePolygon): without one it would delete every record',
    );
  }
  const withKey = applyKeyParams(raw, key);
  return Object.fromEntries(
    RECORD_CONSTRAINTS.filter((name) => withKey[name] !== undefined).map((n) => [n, withKey[n]]),
  );
}
