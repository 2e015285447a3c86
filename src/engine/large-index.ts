/**
 * The search path's speed-ups for large indices: code that answers exactly as the general code of `ranking.ts`,
 * `matching.ts` and `orders.ts` does, in less time once an index holds tens of thousands of records, and that a
 * small index has no use for. The service installs it with every other feature (`index.ts`); the browser worker
 * loads it as a chunk of its own for an index of `LARGE_INDEX_AT` records or more (`src/local/on-demand.ts`), so a
 * small catalogue's worker starts without it. Without it the general code gives the same answers
 * (`test/engine/large-index.node.test.ts` compares both on a large corpus).
 *
 * - `criterionKeys`: a criterion's keys in one loop per kind, without a call per record; the proximity of a two-word
 *   query from the words' posting keys (`proximityOfKeys`) or in one pass over the record's tokens;
 * - `fusedKeys`: consecutive criteria read from the match words as one key, ordered by one counting sort;
 * - `walkBucket`: a large bucket put in a sort order by walking the order until the page is filled;
 * - `matchOnTokens`: the other words of a query whose first word is rare matched on its records' tokens;
 * - `keepsPositions`: whether a two-word query's matching keeps the words' posting keys (`proximityOfKeys`);
 * - `sortByNumber`: the order of many records by one numeric key, by a radix sort;
 * - `proximity`: one record's proximity by the fastest of those ways.
 */
import type { Derived } from './derive.js';
import type { IndexState } from './index-state.js';
import type { SortOrder } from './orders.js';
import { ATTR_MASK, attributeKey, REPEATED } from './postings.js';
import { bucketRun, computedKeys, type Criterion, popcount, proximityOfTokens } from './ranking.js';

/** Above this many postings of the other words per posting of a rare first word, match them on tokens. */
const TOKENS_PER_POSTING = 16;

/**
 * One record's proximity (see `proximity` in `ranking.ts`): from the words' posting keys when matching kept them,
 * in one pass for two words without synonym spans, else from the record's tokens.
 * @example proximity(state, doc, 2) // 1 when the two words are next to each other
 */
export function proximity(state: IndexState, doc: number, nWords: number): number {
  if (state.wordKeysActive) {
    const byKeys = proximityOfKeys(state, doc);
    if (byKeys >= 0) return byKeys;
  }
  return nWords === 2 && !state.spansActive ? proximityOfTwoAt(state, doc) : proximityOfTokens(state, doc, nWords);
}

/** `proximityOfTwo` of one record. */
function proximityOfTwoAt(state: IndexState, doc: number): number {
  const start = state.postings.tokenStart[doc]!;
  const end = state.postings.tokenStart[doc + 1]!;
  const mask = state.match[doc << 1]! & 0xffff;
  return proximityOfTwo(state.postings.tokens, state.termBits, start, end, mask);
}

/**
 * `proximity` of a two-word query without synonym spans, in one pass over the record's tokens (the
 * same pass as the general case's, without copying the query words' tokens out first): a common word
 * repeated in a title sends many records of a two-word query here.
 */
function proximityOfTwo(tokens: Uint32Array, bits: Uint32Array, start: number, end: number, mask: number): number {
  if ((mask & 3) !== 3) return 0;
  let best = 8;
  let lastA = -1;
  let lastB = -1;
  for (let k = start; k < end && best > 1; k++) {
    const b = bits[tokens[k << 1]!]!;
    if (b === 0) continue;
    const place = tokens[(k << 1) + 1]!;
    if ((b & 1) !== 0 && lastB >= 0 && lastB >>> 16 === place >>> 16) {
      const dist = lastB > place ? lastB - place : place - lastB + 1;
      if (dist < best) best = dist;
    }
    if ((b & 2) !== 0 && lastA >= 0 && lastA >>> 16 === place >>> 16) {
      const dist = place > lastA ? place - lastA : lastA - place + 1;
      if (dist < best) best = dist;
    }
    if ((b & 1) !== 0) lastA = place;
    if ((b & 2) !== 0) lastB = place;
  }
  return best;
}

/**
 * The proximity of the two words of a two-word query from their posting keys, when each is in the
 * record once: the distance of their positions in one field (the next field's words are 8 away, as
 * are words far apart); -1 when a word is there several times (its tokens decide).
 */
function proximityOfKeys(state: IndexState, doc: number): number {
  const mask = state.match[doc << 1]! & 0xffff;
  if ((mask & 3) !== 3) return 0;
  const a = state.wordKeys[doc << 1]!;
  const b = state.wordKeys[(doc << 1) + 1]!;
  if ((a | b) & REPEATED) return -1;
  const fieldA = Math.floor(a / 1000);
  const fieldB = Math.floor(b / 1000);
  const pa = a - fieldA * 1000;
  const pb = b - fieldB * 1000;
  // a capped key (position 999, or the key's own cap) no longer says where the word is
  if (pa >= 999 || pb >= 999 || a >= ATTR_MASK - 1 || b >= ATTR_MASK - 1) return -1;
  if (fieldA !== fieldB) return 8;
  const dist = pb > pa ? pb - pa : pa - pb + 1;
  return Math.min(dist, 8);
}

/**
 * The key of every id under a criterion (into `keys`), and the smallest and largest. Keys read from
 * the match words are computed in one loop per kind, without a call per record; each kind has its
 * own function, so the JIT sees one shape of code per loop (a single function with a switch over
 * the kinds was deoptimised over and over as queries brought new kinds to it).
 * @example const [min, max] = criterionKeys(state, crits[level]!, ids, state.keys.subarray(0, ids.length));
 */
export function criterionKeys(
  state: IndexState,
  crit: Criterion,
  ids: Uint32Array,
  keys: Uint32Array,
): [number, number] {
  const match = state.match;
  const n = crit.n ?? 0;
  if (crit.match === 'typo') return typoKeys(match, ids, keys);
  if (crit.match === 'words') return wordKeys(match, ids, keys, n);
  if (crit.match === 'attribute') return attributeKeys(match, ids, keys);
  if (crit.match === 'exact') return exactKeys(match, ids, keys, n);
  if (crit.proximity) return proximityKeys(state, ids, keys, n);
  return computedKeys(crit.key!, ids, keys);
}

/**
 * The proximity of every id in one loop, without a call through a key function per record (a common
 * pair of words puts 66,000 records of 1M in one typo bucket): the posting keys of a two-word query
 * where each word is in the record once, else the record's tokens.
 */
function proximityKeys(state: IndexState, ids: Uint32Array, keys: Uint32Array, n: number): [number, number] {
  const byKeys = state.wordKeysActive;
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const doc = ids[i]!;
    let k = byKeys ? proximityOfKeys(state, doc) : -1;
    if (k < 0) k = n === 2 && !state.spansActive ? proximityOfTwoAt(state, doc) : proximityOfTokens(state, doc, n);
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

// each computes the keys and their smallest and largest in one loop

function typoKeys(match: Uint32Array, ids: Uint32Array, keys: Uint32Array): [number, number] {
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const k = (match[(ids[i]! << 1) + 1]! >>> 20) & 63;
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

function wordKeys(match: Uint32Array, ids: Uint32Array, keys: Uint32Array, n: number): [number, number] {
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const k = n - popcount(match[ids[i]! << 1]! & 0xffff);
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

function attributeKeys(match: Uint32Array, ids: Uint32Array, keys: Uint32Array): [number, number] {
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const k = match[(ids[i]! << 1) + 1]! & ATTR_MASK;
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

function exactKeys(match: Uint32Array, ids: Uint32Array, keys: Uint32Array, n: number): [number, number] {
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const k = n - (match[(ids[i]! << 1) + 1]! >>> 26);
    keys[i] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return [min, max];
}

/** Largest number of distinct fused keys (the counting sort's table); beyond it, one level at a time. */
const FUSED_KEYS_MAX = 65536;

/**
 * The keys of the match criteria `crits[from…to)` combined into one, in mixed radix (the first
 * criterion most significant), so that one counting sort orders the ids as the criteria one after
 * the other would, in one pass over them instead of a key pass and a partition per criterion (a
 * one-word query over 400,000 records has three: typo, attribute, exact). Each criterion's key is
 * the one its own function computes (`typoKeys`, `wordKeys`, `attributeKeys`, `exactKeys`): a field
 * of the match words, and for `words`/`exact` n minus it; so the combined key is a constant plus each
 * field times a signed weight. The fields' ranges come from the criteria's bounds when all are known
 * (one pass over the ids), else from a first pass. Also returns the counting sort's table (`counts[key
 * + 1]`), filled in the same pass. Null when a kind repeats or the ranges multiply past
 * `FUSED_KEYS_MAX`.
 * @example const fused = fusedKeys(state.match, crits, level, next, ids, keys); // null: one criterion at a time
 */
export function fusedKeys(
  match: Uint32Array,
  crits: Criterion[],
  from: number,
  to: number,
  ids: Uint32Array,
  keys: Uint32Array,
): FusedKeys | null {
  const fused = crits.slice(from, to);
  const kinds = fused.map((c) => c.match!);
  if (new Set(kinds).size !== kinds.length) return null;
  const useWords = kinds.includes('words');
  // [lo, hi] of each field: typo, attribute, exact, matched words
  const ranges = new Int32Array(8);
  if (fused.every((c) => (c.bound ?? -1) >= 0)) {
    for (const c of fused) ranges[2 * FIELD[c.match!] + 1] = c.bound!;
    // a field past its bound (never expected) falls back to the measured ranges
    const bounded = keysInRanges(match, kinds, ranges, useWords, ids, keys);
    if (bounded) return bounded;
  }
  ranges.set([63, 0, ATTR_MASK, 0, 63, 0, 16, 0]);
  for (let i = 0; i < ids.length; i++) {
    const slot = ids[i]! << 1;
    const w = match[slot + 1]!;
    const typo = (w >>> 20) & 63;
    const attr = w & ATTR_MASK;
    const exact = w >>> 26;
    if (typo < ranges[0]!) ranges[0] = typo;
    if (typo > ranges[1]!) ranges[1] = typo;
    if (attr < ranges[2]!) ranges[2] = attr;
    if (attr > ranges[3]!) ranges[3] = attr;
    if (exact < ranges[4]!) ranges[4] = exact;
    if (exact > ranges[5]!) ranges[5] = exact;
    if (useWords) {
      const words = popcount(match[slot]! & 0xffff);
      if (words < ranges[6]!) ranges[6] = words;
      if (words > ranges[7]!) ranges[7] = words;
    }
  }
  return keysInRanges(match, kinds, ranges, useWords, ids, keys);
}

interface FusedKeys {
  min: number;
  max: number;
  counts: Uint32Array;
}

/** The place of each match criterion's field in `fusedKeys`' ranges. */
const FIELD = { typo: 0, attribute: 1, exact: 2, words: 3 } as const;

/**
 * The combined keys (see `fusedKeys`) of fields within `ranges`, and their counts; null when the
 * ranges multiply past `FUSED_KEYS_MAX` or a field is outside its range.
 */
function keysInRanges(
  match: Uint32Array,
  kinds: Array<NonNullable<Criterion['match']>>,
  ranges: Int32Array,
  useWords: boolean,
  ids: Uint32Array,
  keys: Uint32Array,
): FusedKeys | null {
  const [typoLo, typoHi, attrLo, attrHi, exactLo, exactHi, wordsLo, wordsHi] = ranges as unknown as number[];
  // mixed radix, the last criterion varying fastest: key = base + Σ weight × field, where a criterion
  // whose key is n − field (fewer is better for words and exact: more fields is better) weighs negative
  let typoWeight = 0;
  let attrWeight = 0;
  let exactWeight = 0;
  let wordsWeight = 0;
  let base = 0;
  let size = 1;
  for (let c = kinds.length - 1; c >= 0; c--) {
    const kind = kinds[c]!;
    if (kind === 'typo') {
      typoWeight = size;
      base -= typoLo! * size;
      size *= typoHi! - typoLo! + 1;
    } else if (kind === 'attribute') {
      attrWeight = size;
      base -= attrLo! * size;
      size *= attrHi! - attrLo! + 1;
    } else if (kind === 'exact') {
      // key n − exact, from 0 at the most exact words: (exactHi − exact) × size
      exactWeight = -size;
      base += exactHi! * size;
      size *= exactHi! - exactLo! + 1;
    } else {
      wordsWeight = -size;
      base += wordsHi! * size;
      size *= wordsHi! - wordsLo! + 1;
    }
    if (size > FUSED_KEYS_MAX) return null;
  }
  // only the fused kinds' ranges are checked (the others weigh nothing)
  const typoMax = typoWeight ? typoHi! : 63;
  const attrMax = attrWeight ? attrHi! : ATTR_MASK;
  const exactMax = exactWeight ? exactHi! : 63;
  const typoMin = typoWeight ? typoLo! : 0;
  const attrMin = attrWeight ? attrLo! : 0;
  const exactMin = exactWeight ? exactLo! : 0;
  const counts = new Uint32Array(size + 1);
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const slot = ids[i]! << 1;
    const w = match[slot + 1]!;
    const typo = (w >>> 20) & 63;
    const attr = w & ATTR_MASK;
    const exact = w >>> 26;
    if (typo > typoMax || attr > attrMax || exact > exactMax || typo < typoMin || attr < attrMin || exact < exactMin)
      return null;
    let key = base + typo * typoWeight + attr * attrWeight + exact * exactWeight;
    if (useWords) {
      const words = popcount(match[slot]! & 0xffff);
      if (words > wordsHi! || words < wordsLo!) return null;
      key += words * wordsWeight;
    }
    keys[i] = key;
    counts[key + 1]!++;
    if (key < min) min = key;
    if (key > max) max = key;
  }
  return { min, max, counts };
}

/**
 * The records of a large bucket (`ids`) in a sort order: the order is walked and the bucket's members kept, each
 * run of equal sort values refined by the next criteria, until the page is filled — expected cost need × N /
 * |bucket| steps, against |bucket| log |bucket| for sorting the bucket. False (nothing done) when sorting costs less.
 * @example if (walkBucket(state, ids, crit.order, level, need, out, crits)) return; // else sort the bucket
 */
export function walkBucket(
  state: IndexState,
  ids: Uint32Array,
  order: SortOrder,
  level: number,
  need: number,
  out: number[],
  crits: Criterion[],
): boolean {
  const remaining = need - out.length;
  // (in quotients: squares of a large bucket's size exceed what the JIT's integer code expects)
  if (ids.length <= 32 || (remaining / ids.length) * (order.size / ids.length) >= 4) return false;
  const gen = ++state.stampGen;
  const stamp = state.stamp;
  for (let i = 0; i < ids.length; i++) stamp[ids[i]!] = gen;
  if (level + 1 >= crits.length) {
    // nothing refines the ties: the order (ties by insertion) is final
    walkOrder(order, stamp, gen, (d) => {
      out.push(d);
      return out.length < need;
    });
    return true;
  }
  let run: number[] = [];
  let last = -1;
  walkOrder(order, stamp, gen, (d) => {
    if (run.length && !order.sameGroup(last, d)) {
      bucketRun(state, run, level + 1, need, out, crits);
      if (out.length >= need) return false;
      run = [];
    }
    last = d;
    run.push(d);
    return true;
  });
  if (run.length && out.length < need) bucketRun(state, run, level + 1, need, out, crits);
  return true;
}

/**
 * Calls `visit` with the ids of `order` whose `stamp` is `gen`, in order, until it returns false (the base and the
 * tail of the order merged by each tail id's place, with no comparison).
 */
function walkOrder(order: SortOrder, stamp: Uint32Array, gen: number, visit: (id: number) => boolean): void {
  const base = order.baseBuffer;
  const tail = order.tail;
  const tailAt = order.tailAt;
  let k = 0;
  for (let i = 0; i < order.baseLength; i++) {
    for (; k < tail.length && tailAt[k] === i; k++) if (stamp[tail[k]!] === gen && !visit(tail[k]!)) return;
    const id = base[i]!;
    if (stamp[id] === gen && !visit(id)) return;
  }
  for (; k < tail.length; k++) if (stamp[tail[k]!] === gen && !visit(tail[k]!)) return;
}

/**
 * Matches the query words after the first (`order`, fewest postings first, the first already matched: `tc` records
 * touched) on the tokens of the first word's records instead of their postings, when the first word is rare
 * against the others (`counts`: each word's postings). False (nothing done) when their postings cost less.
 * @example if (!matchOnTokens(state, derived, order, counts, required, tc)) // match the others on their postings
 */
export function matchOnTokens(
  state: IndexState,
  derived: Derived[],
  order: number[],
  counts: number[],
  required: number,
  tc: number,
): boolean {
  const first = order[0]!;
  let rest = 0;
  for (const i of order) if (i !== first) rest += counts[i]!;
  if (counts[first]! * TOKENS_PER_POSTING >= rest) return false;
  matchByTokens(state, derived, order.slice(1), 1 << first, required, tc);
  return true;
}

/**
 * Matches `words` on the tokens of the `tc` touched records (those of a rare first word) instead of
 * their postings: per word, its terms are marked with the rank of their range, then each record that
 * still holds every required word so far is scanned. The same figures as the postings give: the
 * record's best range for the word (typos, exactness) and the best attribute key of its tokens.
 */
function matchByTokens(
  state: IndexState,
  derived: Derived[],
  words: number[],
  firstBit: number,
  required: number,
  tc: number,
): void {
  const { tokens, tokenStart } = state.postings;
  const sorted = state.postings.vocab.sortedTermIds;
  if (state.termRange.length < state.postings.vocab.size)
    state.termRange = new Uint16Array(Math.max(state.postings.vocab.size * 2, 1024));
  const termRange = state.termRange;
  const match = state.match;
  const touched = state.touched;
  const fixed = state.searchable;
  let done = firstBit;
  for (const i of words) {
    const d = derived[i]!;
    const bit = 1 << i;
    // 1 + the first range holding the term (ranges are in order of quality); more than 65,534
    // ranges never happen (a word's typo terms are merged into runs)
    for (let r = d.lo.length - 1; r >= 0; r--) for (let p = d.lo[r]!; p < d.hi[r]!; p++) termRange[sorted[p]!] = r + 1;
    for (let j = 0; j < tc; j++) {
      const doc = touched[j]!;
      const slot = doc << 1;
      const w = match[slot]!;
      if ((w & done) !== done) continue;
      const start = tokenStart[doc]!;
      const end = tokenStart[doc + 1]!;
      let best = 0;
      let attribute = ATTR_MASK;
      let specs = fixed;
      // the tokens of the word in the record: with exactly one, its key is the word's position for
      // proximity (what the postings give); with several, REPEATED (proximity reads the tokens)
      let found = 0;
      for (let k = start; k < end; k++) {
        const range = termRange[tokens[k << 1]!]!;
        if (range === 0) continue;
        found++;
        if (best === 0 || range < best) best = range;
        specs ??= state.specsFor(state.records[doc]!);
        const place = tokens[(k << 1) + 1]!;
        const spec = specs[place >>> 16];
        if (!spec) continue;
        const key = attributeKey(spec, place & 0xffff);
        if (key < attribute) attribute = key;
      }
      if (best === 0) continue;
      let packed = match[slot + 1]!;
      match[slot] = (w | bit) >>> 0;
      packed += (d.typos[best - 1]! << 20) + (d.exact[best - 1]! << 26);
      if (attribute < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | attribute;
      match[slot + 1] = packed;
      if (state.wordKeysActive) state.wordKeys[slot + i] = found === 1 && attribute < ATTR_MASK ? attribute : REPEATED;
    }
    for (let r = 0; r < d.lo.length; r++) for (let p = d.lo[r]!; p < d.hi[r]!; p++) termRange[sorted[p]!] = 0;
    if ((required >>> i) & 1) done |= bit;
  }
}

/**
 * Whether the matching of a two-word query keeps each word's posting key per record (`state.wordKeys`, for
 * `proximityOfKeys`): the keys give a word's field and position and no term stands for both words.
 * @example state.wordKeysActive = words.length === 2 && keepsPositions(state, derived);
 */
export function keepsPositions(state: IndexState, derived: Derived[]): boolean {
  return exactPositions(state) && disjoint(state, derived);
}

/**
 * Posting keys give a word's field and position (rank × 1000 + position): searchable attributes of
 * distinct ranks (no comma-grouped ones) and none `unordered(...)` — without a setting, every attribute
 * of a record has a rank of its own.
 */
function exactPositions(state: IndexState): boolean {
  const specs = state.searchable;
  if (!specs) return true;
  const ranks = new Set<number>();
  for (const spec of specs) {
    if (spec.unordered || ranks.has(spec.rank)) return false;
    ranks.add(spec.rank);
  }
  return true;
}

/** No term is derived from both words (one token would then stand for both, which keys cannot tell). */
function disjoint(state: IndexState, derived: Derived[]): boolean {
  const sorted = state.postings.vocab.sortedTermIds;
  if (state.termRange.length < state.postings.vocab.size)
    state.termRange = new Uint16Array(Math.max(state.postings.vocab.size * 2, 1024));
  const marks = state.termRange;
  const [a, b] = derived as [Derived, Derived];
  for (let r = 0; r < a.lo.length; r++) for (let p = a.lo[r]!; p < a.hi[r]!; p++) marks[sorted[p]!] = 1;
  let shared = false;
  for (let r = 0; r < b.lo.length && !shared; r++)
    for (let p = b.lo[r]!; p < b.hi[r]!; p++) {
      if (marks[sorted[p]!]) {
        shared = true;
        break;
      }
    }
  for (let r = 0; r < a.lo.length; r++) for (let p = a.lo[r]!; p < a.hi[r]!; p++) marks[sorted[p]!] = 0;
  return !shared;
}

/**
 * `ids` in the order of `order` when it has one numeric key that every id has and the ids are many; else null (the
 * order compares them). Ties go by id: the radix sort keeps the given order of ties, so it is given the ids
 * ascending; its passes cost 65,536 counters each, so a few thousand ids are compared instead.
 * @example sortByNumber(order, ids) ?? Uint32Array.from(Array.from(ids).sort((a, b) => order.compareIds(a, b)))
 */
export function sortByNumber(order: SortOrder, ids: Uint32Array): Uint32Array | null {
  if (order.keys.length !== 1 || ids.length <= 4096) return null;
  const numeric = order.keys[0]!.numeric;
  for (let i = 0; i < ids.length; i++) if (Number.isNaN(numeric[ids[i]!])) return null;
  return radixSort(ids.slice().sort(), numeric);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** Index of the high word of a float64 in `u32` (the platform's byte order). */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * `ids` ordered by their number in `numeric` (none NaN), ties in the given order: an LSD radix sort on
 * the order-preserving 64-bit image of each float (16 bits a pass, passes whose digit never varies
 * skipped — integer values leave the low word constant), linear in the number of ids.
 */
function radixSort(ids: Uint32Array, numeric: Float64Array): Uint32Array {
  const n = ids.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    f64[0] = numeric[ids[i]!]! + 0; // -0 → +0: equal numbers, equal images
    let h = u32[HIGH]!;
    let l = u32[1 - HIGH]!;
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[i] = h;
    lo[i] = l;
  }
  let order = Uint32Array.from({ length: n }, (_, i) => i);
  let spare = new Uint32Array(n);
  const counts = new Uint32Array(65537);
  for (const [words, shift] of [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((words[i]! >>> shift) & 0xffff) + 1]!++;
    if (counts[((words[0]! >>> shift) & 0xffff) + 1] === n) continue;
    for (let d = 0; d < 65536; d++) counts[d + 1]! += counts[d]!;
    for (let i = 0; i < n; i++) {
      const at = order[i]!;
      spare[counts[(words[at]! >>> shift) & 0xffff]!++] = at;
    }
    const swap = order;
    order = spare;
    spare = swap;
  }
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = ids[order[i]!]!;
  return out;
}
