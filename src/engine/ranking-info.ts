/**
 * `_rankingInfo` of a hit (`getRankingInfo`): the figures of the ranking criteria for one record. A feature of its
 * own (`features.ts`): `svc-search/engine` installs it, the browser worker of `svc-search/local` loads it with the
 * first request that asks for ranking info (a debugging aid a page rarely sends).
 */
import type { RankingInfo } from '../protocol/index.js';
import { feature } from './features.js';
import type { IndexState } from './index-state.js';
import type { Execution } from './matching.js';
import { ATTR_MASK } from './postings.js';
import type { SortOrder } from './orders.js';
import { proximity } from './ranking.js';

/**
 * The ranking info of record `doc` in the query `exec` (its match scratch must still be filled).
 * @example hit._rankingInfo = rankingInfo(state, doc, exec);
 */
export function rankingInfo(state: IndexState, doc: number, exec: Execution): RankingInfo {
  const n = exec.words.length;
  const order = state.customOrder();
  const info: RankingInfo = {
    nbTypos: n ? (state.match[(doc << 1) + 1]! >>> 20) & 63 : 0,
    firstMatchedWord: n ? state.match[(doc << 1) + 1]! & ATTR_MASK : 0,
    proximityDistance: n > 1 ? proximity(state, doc, n) : 0,
    userScore: order.size - positionInOrder(order, doc),
    geoDistance: exec.geo?.around ? Math.round(state.geoDist[doc]!) : 0,
    geoPrecision: exec.geo?.around ? exec.geo.precision : 1,
    nbExactWords: n ? state.match[(doc << 1) + 1]! >>> 26 : 0,
  };
  if (exec.personal) {
    (info as RankingInfo & { personalization?: unknown }).personalization = feature(
      'personalization',
    ).personalizationFigures(exec.personal.filtersScore(doc), exec.personal.impact);
  }
  return info;
}

/** The position of an id in an order (0 = first): the base ids and the tail ids before it. */
function positionInOrder(order: SortOrder, id: number): number {
  const r = order.rank[id]!;
  if (r !== 0xffffffff) {
    // base ids before it, plus the tail ids placed before it
    let lo = 0;
    let hi = order.tail.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order.tailAt[mid]! <= r) lo = mid + 1;
      else hi = mid;
    }
    return r + lo;
  }
  // a tail id: tail ids before it, plus the base ids before it
  let lo = 0;
  let hi = order.tail.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order.compareIds(order.tail[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return order.tail[lo] === id ? order.tailAt[lo]! + lo : order.size;
}
