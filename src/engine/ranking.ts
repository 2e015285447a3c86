/**
 * Ranking: tie-breaking criteria in the order of the `ranking` setting, applied as a bucket sort that
 * refines only the buckets the requested page comes from (see `docs/engine-background.md`,
 * "Bucket sort"). Sort criteria (custom ranking, `asc`/`desc`) walk their precomputed order; the other
 * criteria are small integer keys read from the per-record match scratch.
 */
import type { IndexState } from './index-state.js';
import type { Execution } from './matching.js';
import type { SortOrder } from './orders.js';
import { optionalFeature } from './features.js';
import { ATTR_MASK } from './postings.js';
import { parseSort } from './settings.js';

export interface Criterion {
  /**
   * A key read from the per-record match words (no call per record): typos, missing words, best
   * attribute or inexact words. `n` is the number of query words.
   */
  match?: 'typo' | 'words' | 'attribute' | 'exact';
  n?: number;
  /**
   * The largest value the match-word field of a `match` criterion can take in this query (typos: the
   * sum of each word's largest; attribute: the last searchable attribute's last position), or -1 when
   * not known; `fusedKeys` (`large-index.ts`) then needs no pass to find the keys' ranges.
   */
  bound?: number;
  /** Smaller is better. */
  key?: (doc: number) => number;
  /** A total order over all records (custom ranking, asc/desc). */
  order?: SortOrder;
  /** The proximity criterion (keys from `proximity`; `large-index.ts` computes them in one loop). */
  proximity?: boolean;
}

const GROUP_SORT_SHIFT = 2 ** 23;
/** Keys of the personalisation criterion: `PERSONAL_KEY_MAX − rankingScore` (smaller is better). */
const PERSONAL_KEY_MAX = 1_000_000;

/**
 * The number of bits set in a 32-bit word (a record's matched query words are its match word's low 16 bits).
 * @example popcount(0b1011) // 3
 */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The proximity of a record: the sum over consecutive matched query words of their smallest distance
 * in one attribute (8 across attributes or when far).
 * @example proximity(state, doc, 2) // 1 when the two words are next to each other
 */
export function proximity(state: IndexState, doc: number, nWords: number): number {
  const large = optionalFeature('largeIndex');
  return large ? large.proximity(state, doc, nWords) : proximityOfTokens(state, doc, nWords);
}

/**
 * `proximity` from the record's tokens (the general way; `large-index.ts` has faster ones for two words).
 * @example proximityOfTokens(state, doc, 3) // 2 when the three words follow each other
 */
export function proximityOfTokens(state: IndexState, doc: number, nWords: number): number {
  const start = state.postings.tokenStart[doc]!;
  const end = state.postings.tokenStart[doc + 1]!;
  const tokens = state.postings.tokens;
  const bits = state.termBits;
  const spanned = state.spansActive;
  const spanBits = state.spanBits;
  const mask = state.match[doc << 1]! & 0xffff;
  // the record's tokens of query words, in order: their word bits, positions and span bits
  if (state.proximityBits.length < end - start) {
    state.proximityBits = new Uint32Array((end - start) * 2);
    state.proximityPos = new Uint32Array((end - start) * 2);
    state.proximitySpans = new Uint32Array((end - start) * 2);
  }
  const tb = state.proximityBits;
  const tp = state.proximityPos;
  const ts = state.proximitySpans;
  let m = 0;
  for (let k = start; k < end; k++) {
    const term = tokens[k << 1]!;
    const b = bits[term]!;
    if (b === 0) continue;
    tb[m] = b;
    tp[m] = tokens[(k << 1) + 1]!;
    ts[m] = spanned ? spanBits[term]! : 0;
    m++;
  }
  let total = 0;
  let prevWord = -1;
  for (let w = 0; w < nWords; w++) {
    if ((mask & (1 << w)) === 0) continue;
    if (prevWord >= 0) {
      const ba = 1 << prevWord;
      const bb = 1 << w;
      // one pass: positions never decrease along a field's tokens, so the closest pair is always a
      // token and the latest token of the other word before it in the same field
      let best = 8;
      let lastA = -1;
      let lastB = -1;
      for (let k = 0; k < m && best > 1; k++) {
        const b = tb[k]!;
        const place = tp[k]!;
        if ((b & ba) !== 0) {
          // one word standing for both query words (a synonym of several words): next to each other
          if (spanned && (ts[k]! & (ba | bb)) === (ba | bb)) best = 1;
          if (lastB >= 0 && lastB >>> 16 === place >>> 16) {
            const dist = lastB > place ? lastB - place : place - lastB + 1;
            if (dist < best) best = dist;
          }
        }
        if ((b & bb) !== 0 && lastA >= 0 && lastA >>> 16 === place >>> 16) {
          const dist = place > lastA ? place - lastA : lastA - place + 1;
          if (dist < best) best = dist;
        }
        if ((b & ba) !== 0) lastA = place;
        if ((b & bb) !== 0) lastB = place;
      }
      total += best;
    }
    prevWord = w;
  }
  return total;
}

/**
 * The criteria of a query, in the order of the `ranking` setting (browse: the custom ranking only).
 * @example const crits = criteria(state, exec, false); rank(state, exec.candidates, crits, 20);
 */
export function criteria(state: IndexState, exec: Execution, forBrowse: boolean): Criterion[] {
  const out: Criterion[] = [];
  const n = exec.words.length;
  const ranking = forBrowse ? ['custom'] : state.settings.ranking;
  for (const c of ranking) {
    if (c === 'custom') {
      // personalisation ranks within the custom step, before the customRanking attributes
      const personal = forBrowse ? undefined : exec.personal;
      if (personal) {
        const { filtersScore, impact } = personal;
        out.push(
          keyCriterion(
            (d) =>
              PERSONAL_KEY_MAX - Math.min(PERSONAL_KEY_MAX, Math.max(0, Math.floor((filtersScore(d) * impact) / 100))),
          ),
        );
      }
      out.push(orderCriterion(state.customOrder()));
      continue;
    }
    const sort = parseSort(c);
    if (sort) {
      out.push(orderCriterion(state.orderFor(c, [sort])));
      continue;
    }
    if (c === 'filters' && exec.optional?.length) {
      const sets = exec.optional;
      out.push(
        keyCriterion((d) => {
          let missed = sets.length;
          for (const bits of sets) if (bits[d >>> 5]! & (1 << (d & 31))) missed--;
          return missed;
        }),
      );
      continue;
    }
    if (c === 'geo' && exec.geo?.around) {
      const dist = state.geoDist;
      const precision = exec.geo.precision;
      out.push(keyCriterion((d) => Math.min(Math.floor(dist[d]! / precision), 0xfffffffe)));
      continue;
    }
    if (n === 0) continue;
    // typo and exact are left out when no derivation can make them differ (every candidate would have
    // the same key): a prefix or one-letter-short query has no typo and no exact term to count
    if (c === 'typo' && mayHaveTypos(exec)) out.push(matchCriterion('typo', n, typoBound(exec)));
    else if (c === 'words' && exec.required !== (1 << n) - 1) out.push(matchCriterion('words', n, n));
    else if (c === 'proximity' && n > 1)
      out.push({ match: undefined, n, bound: -1, key: undefined, order: undefined, proximity: true });
    else if (c === 'attribute') out.push(matchCriterion('attribute', n, attributeBound(state)));
    else if (c === 'exact' && mayBeExact(exec)) out.push(matchCriterion('exact', n, n));
  }
  return out;
}

// criteria are made with every field present, so the bucket sort sees one object shape
function matchCriterion(match: NonNullable<Criterion['match']>, n: number, bound: number): Criterion {
  return { match, n, bound, key: undefined, order: undefined, proximity: false };
}

function keyCriterion(key: (doc: number) => number): Criterion {
  return { match: undefined, n: 0, bound: -1, key, order: undefined, proximity: false };
}

function orderCriterion(order: SortOrder): Criterion {
  return { match: undefined, n: 0, bound: -1, key: undefined, order, proximity: false };
}

/**
 * The most typos a record can count: each query word's bit is set once, by one of its derived ranges
 * or by a synonym span, so at most the larger of its ranges' and the spans' typos per word.
 */
function typoBound(exec: Execution): number {
  let spans = 0;
  for (const span of exec.spans) spans = Math.max(spans, span.alternative.typos);
  let total = 0;
  for (const d of exec.derived) {
    let most = spans;
    for (let r = 0; r < d.typos.length; r++) most = Math.max(most, d.typos[r]!);
    total += most;
  }
  return total;
}

/** The largest attribute key of the searchable attributes (-1 without the setting: ranks per record). */
function attributeBound(state: IndexState): number {
  if (!state.searchable) return -1;
  let rank = 0;
  for (const spec of state.searchable) rank = Math.max(rank, spec.rank);
  return Math.min(rank * 1000 + 999, ATTR_MASK - 1);
}

/** Some derived term or synonym span counts typos (else every candidate has 0). */
function mayHaveTypos(exec: Execution): boolean {
  for (const d of exec.derived) for (let r = 0; r < d.typos.length; r++) if (d.typos[r]! > 0) return true;
  for (const span of exec.spans) if (span.alternative.typos > 0) return true;
  return false;
}

/** Some derived term is exact (else every candidate has 0 exact words: spans never are). */
function mayBeExact(exec: Execution): boolean {
  for (const d of exec.derived) for (let r = 0; r < d.exact.length; r++) if (d.exact[r]! > 0) return true;
  return false;
}

/**
 * Tie-breaking bucket sort: refines only the buckets that the first `need` results come from.
 * @example rank(state, exec.candidates, criteria(state, exec, false), 20) // the ids of the first 20 hits
 */
export function rank(state: IndexState, cands: Uint32Array, crits: Criterion[], need: number): number[] {
  const out: number[] = [];
  if (need > 0 && cands.length) bucket(state, cands, 0, need, out, crits);
  return out;
}

function bucket(
  state: IndexState,
  ids: Uint32Array,
  level: number,
  need: number,
  out: number[],
  crits: Criterion[],
): void {
  for (;;) {
    if (out.length >= need) return;
    if (ids.length === 1) {
      out.push(ids[0]!);
      return;
    }
    if (level >= crits.length) {
      const sorted = ids.slice().sort();
      for (let i = 0; i < sorted.length && out.length < need; i++) out.push(sorted[i]!);
      return;
    }
    const crit = crits[level]!;
    // the speed-ups of large indices, when installed (`large-index.ts`): the same buckets, faster
    const large = optionalFeature('largeIndex');
    if (crit.order) {
      // records in sort order; each run of equal sort values is refined by the next criteria
      const order = crit.order;
      if (large?.walkBucket(state, ids, order, level, need, out, crits)) return;
      const inOrder = order.sortIds(ids);
      let from = 0;
      while (from < inOrder.length && out.length < need) {
        let to = from + 1;
        while (to < inOrder.length && order.sameGroup(inOrder[from]!, inOrder[to]!)) to++;
        bucketRun(state, Array.from(inOrder.subarray(from, to)), level + 1, need, out, crits);
        from = to;
      }
      return;
    }
    // the keys are only read until the buckets are built, so every level can use the index's buffer
    const keys = state.keys.subarray(0, ids.length);
    let next = level + 1;
    let min: number;
    let max: number;
    // the number of ids per key, when the key pass counted them (indexed by key + 1)
    let counted: Uint32Array | null = null;
    const keysOf = large ? large.criterionKeys : criterionKeys;
    if (large && crit.match && crits[level + 1]?.match) {
      // consecutive criteria read from the match words: one key for all of them (`fusedKeys`)
      while (crits[next]?.match) next++;
      const fused = large.fusedKeys(state.match, crits, level, next, ids, keys);
      if (fused === null) {
        next = level + 1;
        [min, max] = keysOf(state, crit, ids, keys);
      } else ({ min, max, counts: counted } = fused);
    } else [min, max] = keysOf(state, crit, ids, keys);
    if (min === max) {
      level = next;
      continue;
    }
    let sorted: Uint32Array;
    let sortedKeys: Uint32Array;
    if (max - min <= 65536) {
      // counting sort of the buckets the page needs only: the first buckets whose sizes add up to the
      // records still to output (the later ones are never reached)
      // (`counts[k + 1]`: the ids of key base + k)
      const base = counted ? 0 : min;
      const counts = counted ?? new Uint32Array(max - min + 2);
      if (!counted) for (let i = 0; i < keys.length; i++) counts[keys[i]! - min + 1]!++;
      const remaining = need - out.length;
      let last = max - base;
      let taken = 0;
      for (let k = min - base; k <= max - base; k++) {
        taken += counts[k + 1]!;
        if (taken >= remaining) {
          last = k;
          break;
        }
      }
      for (let i = 1; i <= last + 1; i++) counts[i]! += counts[i - 1]!;
      const cutoff = base + last;
      sorted = new Uint32Array(taken);
      sortedKeys = new Uint32Array(taken);
      for (let i = 0; i < ids.length; i++) {
        const k = keys[i]!;
        if (k > cutoff) continue;
        const slot = counts[k - base]!++;
        sorted[slot] = ids[i]!;
        sortedKeys[slot] = k;
      }
    } else {
      const keyed = new Float64Array(ids.length);
      for (let i = 0; i < ids.length; i++) keyed[i] = keys[i]! * GROUP_SORT_SHIFT + i;
      keyed.sort();
      sorted = new Uint32Array(ids.length);
      sortedKeys = new Uint32Array(ids.length);
      for (let i = 0; i < keyed.length; i++) {
        const at = keyed[i]! % GROUP_SORT_SHIFT;
        sorted[i] = ids[at]!;
        sortedKeys[i] = keys[at]!;
      }
    }
    let from = 0;
    while (from < sorted.length && out.length < need) {
      let to = from + 1;
      while (to < sorted.length && sortedKeys[to] === sortedKeys[from]) to++;
      bucket(state, sorted.subarray(from, to), next, need, out, crits);
      from = to;
    }
    return;
  }
}

/**
 * The key of every id under a criterion (into `keys`), and the smallest and largest: the general way, a call per
 * record (`large-index.ts` has a loop per kind).
 */
function criterionKeys(state: IndexState, crit: Criterion, ids: Uint32Array, keys: Uint32Array): [number, number] {
  return computedKeys(keyOf(state, crit), ids, keys);
}

/** A criterion's key of one record (smaller is better). */
function keyOf(state: IndexState, crit: Criterion): (doc: number) => number {
  const match = state.match;
  const n = crit.n ?? 0;
  if (crit.match === 'typo') return (doc) => (match[(doc << 1) + 1]! >>> 20) & 63;
  if (crit.match === 'words') return (doc) => n - popcount(match[doc << 1]! & 0xffff);
  if (crit.match === 'attribute') return (doc) => match[(doc << 1) + 1]! & ATTR_MASK;
  if (crit.match === 'exact') return (doc) => n - (match[(doc << 1) + 1]! >>> 26);
  if (crit.proximity) return (doc) => proximityOfTokens(state, doc, n);
  return crit.key!;
}

/**
 * The keys `keyOf` gives the ids (into `keys`), and the smallest and largest.
 * @example const [min, max] = computedKeys((doc) => price[doc]!, ids, keys);
 */
export function computedKeys(keyOf: (doc: number) => number, ids: Uint32Array, keys: Uint32Array): [number, number] {
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const k = keyOf(ids[i]!) >>> 0;
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

/**
 * Ranks one run of records that tie on a sort criterion (already in id order within the run) by the next criteria.
 * @example bucketRun(state, [3, 8, 21], level + 1, need, out, crits);
 */
export function bucketRun(
  state: IndexState,
  run: number[],
  level: number,
  need: number,
  out: number[],
  crits: Criterion[],
): void {
  if (run.length === 1 || level >= crits.length) {
    for (let i = 0; i < run.length && out.length < need; i++) out.push(run[i]!);
    return;
  }
  bucket(state, Uint32Array.from(run), level, need, out, crits);
}

/**
 * Ranks with `distinct`: keeps the best `distinct` records per value of attributeForDistinct.
 * @example const { ordered, nbHits } = rankDistinct(state, exec, crits, 20);
 */
export function rankDistinct(
  state: IndexState,
  exec: Execution,
  crits: Criterion[],
  need: number,
): { ordered: number[]; nbHits: number } {
  const cands = exec.candidates;
  const attr = state.settings.attributeForDistinct;
  const per = exec.eff.distinct;
  if (!per || !attr) return { ordered: rank(state, cands, crits, need), nbHits: cands.length };
  const col = state.column(attr);
  const groupOf = (d: number) => {
    const s = col.single[d]!;
    return s >= 0 ? s : s === -2 ? col.multi.get(d)![0]! : -1 - d;
  };
  const seen = new Map<number, number>();
  let nbHits = 0;
  for (let i = 0; i < cands.length; i++) {
    const g = groupOf(cands[i]!);
    const c = seen.get(g) ?? 0;
    if (c < per) nbHits++;
    seen.set(g, c + 1);
  }
  let raw = Math.max(need * 2, need + 10);
  for (;;) {
    const ordered = rank(state, cands, crits, raw);
    const kept: number[] = [];
    const counts = new Map<number, number>();
    for (const d of ordered) {
      const g = groupOf(d);
      const c = counts.get(g) ?? 0;
      if (c < per) {
        kept.push(d);
        counts.set(g, c + 1);
        if (kept.length >= need) break;
      }
    }
    if (kept.length >= need || ordered.length >= cands.length) return { ordered: kept, nbHits };
    raw *= 4;
  }
}
