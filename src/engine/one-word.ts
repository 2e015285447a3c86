/**
 * A one-word query that matches many records (a short prefix of a common word: "ov" matches 39 % of the
 * bench's million records), answered without a match word per record. The general path (`matchOneWord`,
 * then the bucket sort over every candidate) writes two words of scratch for each of the ~400,000 records
 * and reads them back for the ranking keys: random accesses over 8 MB, ~15 ns a posting. Here:
 *
 * - **Counting**: the postings set bits in one bit set over the records (128 kB at 1M: it stays in the
 *   core's cache), tested against the live records and the filters; `nbHits` is the number of bits set,
 *   exhaustive as before. Counted per *class* of the word's ranges (same typos and exactness), in their
 *   order of quality, so each record is counted in the first class that reaches it — the class that gives
 *   its typos and exactness on the general path. The records are collected as their bit is first set:
 *   the candidates in the general path's order, which the facet counts read.
 * - **The first hits**: the ranking of a one-word query is its match criteria (typo, attribute, exact)
 *   and then the custom ranking's order, which is a total order. The order is walked and each record
 *   whose bit is set has its figures read from its own tokens (the figures the postings give: the best
 *   range holding one of its terms, the best attribute key of those tokens). The walk stops once `need`
 *   visited records rank before every record not yet visited: each class has a lower bound of its
 *   records' keys (its typos and exactness, the best attribute key of the postings from that class on),
 *   and a record not visited yet comes later in the order than every visited one. Classes of few
 *   postings (the word itself when it is a rare term) are read in full instead of walked.
 * - The records gathered (the walked ones and the small classes') get their match words and go through
 *   the same bucket sort as the general path (`rank`): the same criteria, the same ties, the same order.
 *
 * It declines (the caller then takes the general path) when its conditions do not hold: one word with
 * no synonym spans, exclusions, phrases, restricted attributes, geo or `typoTolerance` min/strict
 * (`matching.ts` defers only those), criteria made of typo/attribute/exact and a sort order last, no
 * `distinct` (it ranks every candidate), enough postings for it to pay; or when the walk does
 * not find the page within its budget (the best bucket is rare among the matches).
 */
import type { IndexState } from './index-state.js';
import { type Execution, nextGeneration } from './matching.js';
import { rankManyWords, walkBits } from './many-words.js';
import { ATTR_MASK, attributeKey } from './postings.js';
import { type Criterion, rank } from './ranking.js';

/** Below this many postings the general path is as fast (its cost is ~15 ns a posting, this one's setup ~50 µs). */
export const ONE_WORD_MIN_POSTINGS = 8192;

/**
 * A class of at most this many postings has its records listed while counting and sorted by the order
 * (`SortOrder.sortIds`) rather than found by walking the whole order: a few thousand ids sort in well
 * under a walk of a million positions.
 */
const SORTED_MAX = 4096;

/**
 * Records read per requested hit, and per posting of the word, before the walk gives up and the general
 * path answers: reading a record costs ~0.2 µs (its tokens are a cache miss), a posting on the general
 * path ~15 ns, so giving up costs at most about a third more than the general path alone.
 */
const WALK_PER_HIT = 32;
const VISITS_PER_POSTING = 1 / 16;

/** Radix of the typo and exact fields in a class or record key (at most 63 each). */
const SMALL_FIELD = 64;

let answers = 0;

/**
 * How many searches this path answered in this process (the warm-up must run it: `warm-up.ts`).
 * @example oneWordAnswers(); // 0 before any large one-word query
 */
export function oneWordAnswers(): number {
  return answers;
}

/** The result of {@link rankOneWord}: the first `need` records in order and the exhaustive count. */
export interface OneWordRanking {
  ordered: number[];
  nbHits: number;
}

/**
 * Counts and ranks a deferred one-word query (see the module comment), or returns null when the general
 * path must answer. A query `execute` did not defer (several words, or one it matched) goes to
 * `rankManyWords` (`many-words.ts`), the same kind of walk over the order for matched candidates: one
 * feature, one hook in the search, one chunk in the worker.
 * @example const fast = rankOneWord(state, exec, criteria(state, exec, false), 20); // null: matchDeferred, then rankDistinct
 */
export function rankOneWord(
  state: IndexState,
  exec: Execution,
  crits: Criterion[],
  need: number,
): OneWordRanking | null {
  const deferred = exec.oneWord;
  // a query of several words (matched: `execute` defers one word only) may have its first hits found in the order
  if (!deferred) return rankManyWords(state, exec, crits, need);
  if (exec.derived.length !== 1 || crits.length === 0) return null;
  const weights = keyWeights(crits);
  if (!weights) return null;
  const order = crits[crits.length - 1]!.order!;
  const d = exec.derived[0]!;
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  const ranges = d.lo.length;
  // classes: runs of ranges with the same typos and exactness (ranges come sorted by both)
  const classOf = new Uint8Array(ranges);
  const classPostings: number[] = [];
  let total = 0;
  for (let r = 0; r < ranges; r++) {
    const same = r > 0 && d.typos[r] === d.typos[r - 1] && d.exact[r] === d.exact[r - 1];
    if (!same) classPostings.push(0);
    classOf[r] = classPostings.length - 1;
    let count = 0;
    for (const { off } of segments) {
      const terms = off.length - 1;
      for (let p = d.lo[r]!; p < d.hi[r]!; p++) {
        const t = sorted[p]!;
        if (t < terms) count += (off[t + 1]! - off[t]!) >>> 1;
      }
    }
    classPostings[classPostings.length - 1]! += count;
    total += count;
  }
  if (total < ONE_WORD_MIN_POSTINGS) return null;
  const classes = classPostings.length;

  // counting: one bit per matching record (bit set 0), and per class the records it reaches first (bit
  // set 1 + class); the small classes' records are also listed as they are found
  const words = (state.capacity + 31) >>> 5;
  // (one class: its first records are all the records, one bit set serves both)
  const sets = classes === 1 ? 1 : classes + 1;
  if (state.oneWordBits.length < words * sets) state.oneWordBits = new Uint32Array(words * sets);
  const bits = state.oneWordBits;
  bits.fill(0, 0, words * sets);
  const firstOf = Array.from({ length: classes }, (_, c) =>
    sets === 1 ? bits.subarray(0, words) : bits.subarray((c + 1) * words, (c + 2) * words),
  );
  const pass = deferred.filter ?? state.alivebits();
  const members = new Uint32Array(classes);
  // the best attribute key of each class's postings (of records that count)
  const bestAttribute = new Uint32Array(classes).fill(ATTR_MASK);
  const listed: number[][] = classPostings.map(() => []);
  // the candidates in the order the general path collects them (facet counts read them)
  scattered.collected = 0;
  for (let r = 0; r < ranges; r++) {
    const c = classOf[r]!;
    const list = classPostings[c]! <= SORTED_MAX ? listed[c]! : null;
    const first = firstOf[c]!;
    scattered.count = 0;
    scattered.best = bestAttribute[c]!;
    for (const { data, off } of segments) {
      const terms = off.length - 1;
      for (let p = d.lo[r]!; p < d.hi[r]!; p++) {
        const t = sorted[p]!;
        if (t < terms) scatter(data, off[t]!, off[t + 1]!, bits, first, pass, state.candidates, list);
      }
    }
    members[c]! += scattered.count;
    bestAttribute[c] = scattered.best;
  }
  const nbHits = scattered.collected;
  const answered = (ordered: number[]): OneWordRanking => {
    exec.candidates = state.candidates.subarray(0, nbHits);
    exec.oneWord = undefined;
    answers++;
    return { ordered, nbHits };
  };
  if (need <= 0 || nbHits === 0) return answered([]);

  // a record first reached in class c has that class's typos and exactness, and an attribute key no
  // better than the best posting of the classes from c on (its postings are in those classes only)
  const bound = new Float64Array(classes);
  let attributeFrom = ATTR_MASK;
  for (let c = classes - 1; c >= 0; c--) {
    attributeFrom = Math.min(attributeFrom, bestAttribute[c]!);
    const r = classOf.indexOf(c);
    bound[c] = keyOf(weights, d.typos[r]!, attributeFrom, d.exact[r]!);
  }

  // the records read, with their keys (figures from their tokens, written as match words)
  nextGeneration(state);
  const gathered: number[] = [];
  const keys: number[] = [];
  const budget = Math.max(need * WALK_PER_HIT + 64, total * VISITS_PER_POSTING);
  const figures = new TokenFigures(state, d, weights);
  try {
    // classes by their bound; in each, records in the order until `need` records read rank before all
    // the records of the class not read yet: a smaller key, or the bound itself and read earlier in the
    // class's walk (a later record of the class has a key at least its bound, and ties go by the order)
    const byBound = Array.from({ length: classes }, (_, c) => c).sort((a, b) => bound[a]! - bound[b]! || a - b);
    for (const c of byBound) {
      if (members[c] === 0) continue;
      let ahead = 0;
      for (let i = 0; i < keys.length; i++) if (keys[i]! < bound[c]!) ahead++;
      if (ahead >= need) continue;
      const visit = (doc: number): boolean => {
        const key = figures.read(doc);
        gathered.push(doc);
        keys.push(key);
        if (key === bound[c]) ahead++;
        return ahead < need && gathered.length <= budget;
      };
      if (classPostings[c]! <= SORTED_MAX) {
        // a small class: its records, listed while counting, sorted by the order
        for (const doc of order.sortIds(Uint32Array.from(listed[c]!))) if (!visit(doc)) break;
      } else {
        walkBits(order, firstOf[c]!, visit);
      }
      if (ahead < need && gathered.length > budget) return null;
    }
    return answered(rank(state, Uint32Array.from(gathered), crits, need));
  } finally {
    figures.release();
  }
}

/**
 * What `scatter` counted: the records it set, the best attribute key it read, and the candidates it
 * collected (into `IndexState.candidates`).
 */
const scattered = { count: 0, best: ATTR_MASK, collected: 0 };

/**
 * Sets the bits of the records of postings `[id, attributeKey, …]` from `from` to `to` that pass `pass`
 * (live, and the filters): in `union`, and in `first` for those no earlier posting set, which are also
 * collected into `out` (listed in `list` too when given).
 */
function scatter(
  data: Uint32Array,
  from: number,
  to: number,
  union: Uint32Array,
  first: Uint32Array,
  pass: Uint32Array,
  out: Uint32Array,
  list: number[] | null,
): void {
  let count = 0;
  let k = scattered.collected;
  let best = scattered.best;
  for (let j = from; j < to; j += 2) {
    const doc = data[j]!;
    const w = doc >>> 5;
    const bit = 1 << (doc & 31);
    const had = union[w]!;
    if ((had & bit) === 0) {
      if ((pass[w]! & bit) === 0) continue;
      union[w] = had | bit;
      first[w]! |= bit;
      count++;
      out[k++] = doc;
      if (list) list.push(doc);
    }
    const a = data[j + 1]! & ATTR_MASK;
    if (a < best) best = a;
  }
  scattered.count += count;
  scattered.collected = k;
  scattered.best = best;
}

/** The place value of each match field in a record's key, in the criteria's order; null if another criterion is there. */
interface KeyWeights {
  typo: number;
  attribute: number;
  exact: number;
}

function keyWeights(crits: Criterion[]): KeyWeights | null {
  const last = crits[crits.length - 1]!;
  if (!last.order) return null;
  const weights: KeyWeights = { typo: 0, attribute: 0, exact: 0 };
  let weight = 1;
  for (let i = crits.length - 2; i >= 0; i--) {
    const kind = crits[i]!.match;
    if (kind !== 'typo' && kind !== 'attribute' && kind !== 'exact') return null;
    if (weights[kind] !== 0) return null;
    weights[kind] = weight;
    weight *= kind === 'attribute' ? ATTR_MASK + 1 : SMALL_FIELD;
  }
  return weights;
}

/** A record's key from its figures: smaller ranks first, as the criteria order them (exact: 1 − exact words). */
function keyOf(weights: KeyWeights, typos: number, attribute: number, exact: number): number {
  return typos * weights.typo + attribute * weights.attribute + (1 - exact) * weights.exact;
}

/**
 * The figures of one record for the query word from its tokens: the first of the word's ranges holding one
 * of its terms (typos, exactness) and the best attribute key of those tokens — what the postings give,
 * computed as `matchByTokens` (`large-index.ts`) does. Each record read gets its match words, for the bucket sort and
 * `_rankingInfo`.
 */
class TokenFigures {
  private readonly state: IndexState;
  private readonly d: Execution['derived'][number];
  private readonly weights: KeyWeights;

  constructor(state: IndexState, d: Execution['derived'][number], weights: KeyWeights) {
    this.state = state;
    this.d = d;
    this.weights = weights;
    if (state.termRange.length < state.postings.vocab.size)
      state.termRange = new Uint16Array(Math.max(state.postings.vocab.size * 2, 1024));
    const sorted = state.postings.vocab.sortedTermIds;
    // 1 + the first range holding the term (ranges are in order of quality)
    for (let r = d.lo.length - 1; r >= 0; r--)
      for (let p = d.lo[r]!; p < d.hi[r]!; p++) state.termRange[sorted[p]!] = r + 1;
  }

  /** Reads a record's figures, writes its match words and returns its key. */
  read(doc: number): number {
    const state = this.state;
    const { tokens, tokenStart } = state.postings;
    const termRange = state.termRange;
    let best = 0;
    let attribute = ATTR_MASK;
    let specs = state.searchable;
    for (let k = tokenStart[doc]!; k < tokenStart[doc + 1]!; k++) {
      const range = termRange[tokens[k << 1]!]!;
      if (range === 0) continue;
      if (best === 0 || range < best) best = range;
      specs ??= state.specsFor(state.records[doc]!);
      const place = tokens[(k << 1) + 1]!;
      const spec = specs[place >>> 16];
      if (!spec) continue;
      const key = attributeKey(spec, place & 0xffff);
      if (key < attribute) attribute = key;
    }
    // every record read holds a term of the word (its bit was set by one of the word's postings)
    const r = best - 1;
    const typos = this.d.typos[r]!;
    const exact = this.d.exact[r]!;
    const slot = doc << 1;
    state.match[slot] = ((state.generation << 16) | 1) >>> 0;
    state.match[slot + 1] = attribute + (typos << 20) + (exact << 26);
    return keyOf(this.weights, typos, attribute, exact);
  }

  /** Clears the range marks of the word's terms. */
  release(): void {
    const d = this.d;
    const sorted = this.state.postings.vocab.sortedTermIds;
    for (let r = 0; r < d.lo.length; r++)
      for (let p = d.lo[r]!; p < d.hi[r]!; p++) this.state.termRange[sorted[p]!] = 0;
  }
}
