/**
 * Browsing an index (`POST /1/indexes/{indexName}/browse`): every record matching the parameters in custom-ranking
 * order, page by page with an opaque cursor. A feature of its own (`features.ts`): `svc-search/engine` installs it,
 * the browser worker of `svc-search/local` loads it with the first browse (a page of search elements never browses).
 */
import type { Hit, SearchResponse } from '../protocol/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { EngineError } from './errors.js';
import { hitOf, highlightOptions } from './hits.js';
import type { IndexState } from './index-state.js';
import { execute, release } from './matching.js';
import { encodeSearchParams, parseSearchParams, type SearchParams } from './params.js';
import { effectiveParams } from './query.js';
import { criteria, rank } from './ranking.js';

/**
 * One page of a browse of the index of `state`, up to 1,000 records; the answer carries a `cursor` while records
 * remain (given back, it names the next page and the parameters).
 * @example let r = browse(state, { filters: 'brand:Acme' }); while (r.cursor) r = browse(state, {}, r.cursor);
 */
export function browse(
  state: IndexState,
  input: SearchParams = {},
  cursor?: string,
): SearchResponse & { cursor?: string } {
  const t0 = performance.now();
  let params: SearchParams;
  let position = 0;
  if (cursor !== undefined && cursor !== null && cursor !== '') {
    let saved: { p?: unknown; o?: unknown };
    try {
      saved = decodeCursor(String(cursor)) as { p?: unknown; o?: unknown };
    } catch {
      throw new EngineError('Invalid cursor');
    }
    if (typeof saved.p !== 'string' || typeof saved.o !== 'number' || !Number.isInteger(saved.o) || saved.o < 0)
      throw new EngineError('Invalid cursor');
    params = parseSearchParams(saved.p);
    position = saved.o;
  } else {
    params = parseSearchParams(input as Record<string, unknown>);
  }
  const eff = effectiveParams(state.settings, params);
  const hitsPerPage = typeof params.hitsPerPage === 'number' ? params.hitsPerPage : 1000;
  if (hitsPerPage < 1)
    throw new EngineError(
      'Invalid value for parameter "hitsPerPage": expected an integer between 1 and 1000 for browse',
    );
  eff.hitsPerPage = hitsPerPage;
  eff.distinct = 0;
  const exec = execute(state, params, eff);
  try {
    const crits = criteria(state, exec, true);
    const total = exec.candidates.length;
    const end = Math.min(position + hitsPerPage, total);
    const ordered = rank(state, exec.candidates, crits, end);
    const hl = exec.words.length ? highlightOptions(state, exec) : null;
    const hits: Hit[] = [];
    for (let i = position; i < end; i++) hits.push(hitOf(state, ordered[i]!, exec, hl, eff.getRankingInfo));
    const response: SearchResponse & { cursor?: string } = {
      hits,
      nbHits: total,
      page: Math.floor(position / hitsPerPage),
      nbPages: Math.ceil(total / hitsPerPage),
      hitsPerPage,
      query: eff.query,
      params: encodeSearchParams(params),
      processingTimeMS: Math.round(performance.now() - t0),
      exhaustiveNbHits: true,
    };
    if (end < total) response.cursor = encodeCursor({ p: encodeSearchParams(params), o: end });
    return response;
  } finally {
    release(state, exec);
  }
}
