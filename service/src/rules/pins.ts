/**
 * Pinned records (`promote` consequences of rules): the organic results fill the positions the pins leave
 * free.
 */
import { type Index, parseSearchParams } from '../engine/index.js';
import type { RawParams } from '../search/key-params.js';

export type PinnedSearchResponse = Record<string, unknown> & {
  hits: Array<Record<string, unknown> & { objectID: string }>;
  nbHits: number;
};
type Response = PinnedSearchResponse;

/**
 * Runs a search with pinned records: the organic results fill the positions the pins leave free.
 * `search` runs the engine with the given (raw) parameters.
 */
export function searchWithPins(
  index: Index,
  raw: RawParams,
  pins: Array<{ objectID: string; position: number }>,
  search: (raw: RawParams) => Response,
  promoteFilters: { filterPromotes: boolean; filters?: string } = { filterPromotes: false },
): Response {
  const existing = pins
    .filter((pin) => index.getObject(pin.objectID) !== undefined)
    .sort((a, b) => a.position - b.position);
  if (existing.length === 0 || raw.offset !== undefined || raw.length !== undefined) return search(raw);
  const settings = index.getSettings() as { hitsPerPage: number; paginationLimitedTo: number };
  const hitsPerPage =
    raw.hitsPerPage !== undefined
      ? Number(parseSearchParams({ hitsPerPage: raw.hitsPerPage }).hitsPerPage)
      : settings.hitsPerPage;
  const page = raw.page !== undefined ? Number(parseSearchParams({ page: raw.page }).page) : 0;
  const start = page * hitsPerPage;
  const end = start + hitsPerPage;
  const before = existing.filter((pin) => pin.position < start).length;
  const inPage = existing.filter((pin) => pin.position >= start && pin.position < end);
  const { page: _page, hitsPerPage: _hpp, ...rest } = raw;
  const organic = search({ ...rest, offset: start - before, length: Math.max(0, hitsPerPage - inPage.length) });
  // A pinned record shows with its highlight when it matches the query, else with the empty query; it
  // ignores the query's filters unless filterPromotes (the search callback still applies the key's).
  const pinnedHit = (objectID: string) => {
    const { filters: _f, facetFilters: _ff, numericFilters: _nf, tagFilters: _tf, facets: _facets, ...base } = rest;
    const only: RawParams = { ...base, filters: `objectID:${JSON.stringify(objectID)}`, hitsPerPage: 1, page: 0 };
    if (promoteFilters.filterPromotes) {
      Object.assign(only, { facetFilters: _ff, numericFilters: _nf, tagFilters: _tf });
      if (promoteFilters.filters) only.filters = `(${promoteFilters.filters}) AND ${only.filters as string}`;
    }
    return search(only).hits[0] ?? search({ ...only, query: '' }).hits[0];
  };
  const hits: Response['hits'] = [];
  let next = 0;
  for (let position = start; position < end; position++) {
    const pin = inPage.find((item) => item.position === position);
    const hit = pin ? pinnedHit(pin.objectID) : organic.hits[next++];
    if (hit) hits.push(hit);
    else if (!pin) break;
  }
  const nbHits = organic.nbHits + existing.length;
  const response: Response = {
    ...organic,
    hits,
    nbHits,
    page,
    hitsPerPage,
    nbPages: hitsPerPage > 0 ? Math.ceil(Math.min(nbHits, settings.paginationLimitedTo) / hitsPerPage) : 0,
  };
  delete response.offset;
  delete response.length;
  return response;
}
