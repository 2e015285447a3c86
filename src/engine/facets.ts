/**
 * Facet counts over the candidates: one pass over a column's value ids per facet, the most frequent
 * values found without sorting every value, and `facets_stats` (min, max, avg, sum) of numeric facets.
 */
import type { FacetStats } from '../protocol/index.js';
import { alphaOf, textsOf, type Column } from './columns.js';
import type { IndexState } from './index-state.js';

/**
 * The facets a query asks for that can be counted (`*` = every facet that is not `filterOnly`).
 * @example requestedFacets(state, ['brand', '*'])
 */
export function requestedFacets(state: IndexState, facets: unknown): string[] {
  if (facets === undefined || facets === null) return [];
  const list = typeof facets === 'string' ? [facets] : (facets as string[]);
  const out: string[] = [];
  for (const f of list) {
    if (f === '*') {
      for (const spec of state.facetSpecs.values())
        if (!spec.filterOnly && !out.includes(spec.name)) out.push(spec.name);
    } else {
      const spec = state.facetSpecs.get(f);
      if (spec && !spec.filterOnly && !out.includes(f)) out.push(f);
    }
  }
  return out;
}

/**
 * The count of each value of a column over the candidates (indexed by value id).
 * @example countFacet(state.column('brand'), exec.candidates)
 */
export function countFacet(col: Column, cands: Uint32Array): Uint32Array {
  const counts = new Uint32Array(col.values.length);
  const single = col.single;
  for (let i = 0; i < cands.length; i++) {
    const d = cands[i]!;
    const s = single[d]!;
    if (s >= 0) counts[s]!++;
    else if (s === -2) for (const v of col.multi.get(d)!) counts[v]!++;
  }
  return counts;
}

/**
 * The `max` most frequent values (count desc, then alphabetical) without sorting every value: a
 * histogram of counts finds the threshold count, and ties at the threshold are taken in alphabetical
 * order by scanning the column's precomputed alphabetical ranks.
 */
function topFacetValues(col: Column, counts: Uint32Array, max: number): number[] {
  const { rank, sorted } = alphaOf(col);
  const byCountThenAlpha = (a: number, b: number) => counts[b]! - counts[a]! || rank[a]! - rank[b]!;
  const nonzero: number[] = [];
  let maxCount = 0;
  for (let v = 0; v < counts.length; v++) {
    const c = counts[v]!;
    if (c) {
      nonzero.push(v);
      if (c > maxCount) maxCount = c;
    }
  }
  if (nonzero.length <= Math.max(64, max * 2)) return nonzero.sort(byCountThenAlpha).slice(0, max);
  if (max === 0) return [];
  const hist = new Uint32Array(maxCount + 1);
  for (const v of nonzero) hist[counts[v]!]!++;
  let threshold = 0;
  let above = 0;
  for (let c = maxCount; c >= 1; c--) {
    if (above + hist[c]! >= max) {
      threshold = c;
      break;
    }
    above += hist[c]!;
  }
  const chosen = nonzero.filter((v) => counts[v]! > threshold).sort(byCountThenAlpha);
  let need = max - chosen.length;
  const tie = new Uint8Array(col.alpha!.length);
  for (const v of nonzero) if (counts[v] === threshold) tie[rank[v]!] = 1;
  for (let r = 0; r < tie.length && need > 0; r++) {
    if (tie[r]) {
      chosen.push(sorted[r]!);
      need--;
    }
  }
  return chosen;
}

/**
 * The `facets` and `facets_stats` of a response: per facet its `maxValues` most frequent values
 * (count desc, then alphabetical; `alpha`: shown in alphabetical order), and for numeric facets the
 * min, max, avg and sum over the candidates.
 * @example facetCounts(state, ['brand'], exec.candidates, 100, false).facets.brand // { Acme: 12, … }
 */
export function facetCounts(
  state: IndexState,
  names: string[],
  cands: Uint32Array,
  maxValues: number,
  alpha: boolean,
): { facets: Record<string, Record<string, number>>; stats: Record<string, FacetStats> } {
  const facets: Record<string, Record<string, number>> = {};
  const stats: Record<string, FacetStats> = {};
  for (const name of names) {
    const col = textsOf(state.column(name));
    const counts = countFacet(col, cands);
    const nonzero = topFacetValues(col, counts, maxValues);
    if (alpha) {
      // sortFacetValuesBy 'alpha': the most frequent values, shown in alphabetical order
      const rank = alphaOf(col).rank;
      nonzero.sort((a, b) => rank[a]! - rank[b]!);
    }
    const out: Record<string, number> = {};
    for (let i = 0; i < nonzero.length && i < maxValues; i++) out[col.values[nonzero[i]!]!] = counts[nonzero[i]!]!;
    facets[name] = out;
    if (col.hasNum) {
      let min = Infinity;
      let max = -Infinity;
      let sum = 0;
      let count = 0;
      const hasMulti = col.numMulti.size > 0;
      for (let i = 0; i < cands.length; i++) {
        const d = cands[i]!;
        const v = col.num[d]!;
        if (Number.isNaN(v)) continue;
        const many = hasMulti ? col.numMulti.get(d) : undefined;
        if (!many) {
          if (v < min) min = v;
          if (v > max) max = v;
          sum += v;
          count++;
          continue;
        }
        for (const x of many) {
          if (x < min) min = x;
          if (x > max) max = x;
          sum += x;
          count++;
        }
      }
      if (count)
        stats[name] = { min, max, avg: Math.round((sum / count) * 1e6) / 1e6, sum: Math.round(sum * 1e6) / 1e6 };
    }
  }
  return { facets, stats };
}
