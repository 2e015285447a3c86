/**
 * The first hits of a query of several words that matches many records, found in the custom order instead of by
 * sorting every match. Two common words with one typo ("jnked overmix": 66,000 of the bench's million records)
 * put every match in one typo bucket, and the bucket sort then computes the proximity of each (a record's tokens
 * when a word is in it twice), fuses the attribute and exact keys and partitions them, for 20 hits. Here the
 * matching is the general path's (every posting read, every match word written, `nbHits` and the candidates the
 * facets count unchanged); only the ranking differs:
 *
 * - **A cheap key per candidate** (one pass over them, reading their match words): the key the criteria give
 *   (typo, words, proximity, attribute, exact in mixed radix, in the order of the `ranking` setting), with the
 *   proximity at the least the record's matched words allow (one per pair of consecutive matched words): a lower
 *   bound of its real key. The smallest of them bounds every candidate's key. The candidates' bits go to a bit set
 *   over the records (128 kB at 1M: it stays in the core's cache).
 * - **The walk**: the custom order (a total order: sort values, then insertion) is walked over those bits; each
 *   record reached gets its real key (its proximity computed) until `need` of them have the smallest cheap key as
 *   real key — no record later in the order can rank before them (its key is no smaller, and ties go by the order)
 *   — or the walk has read its budget of records.
 * - **Past the budget**: the `need`-th best real key read so far, K, is a threshold: a record not read yet ranks
 *   before the records read only if its real key is under K (on a tie it comes later in the order), so only the
 *   candidates whose cheap key is under K get their proximity computed, and those under K are kept.
 * - The records kept (those read and those under K) go through the same bucket sort as the general path (`rank`):
 *   the same criteria, ties and order, over a few hundred records instead of the whole bucket.
 *
 * It declines (the caller takes the general path) unless: 2 to 16 query words; criteria of
 * typo/words/proximity/attribute/exact only (each once) and the custom ranking or one `asc`/`desc` order last
 * (so no geo, `optionalFilters` or personalisation key, and no sort replica whose order comes first); enough
 * candidates that walking the order to the budget's records costs less than a key pass over them (a deep page
 * raises the budget and needs more). `distinct` never reaches it (`index-core.ts` sends it to `rankDistinct`).
 */
import type { IndexState } from './index-state.js';
import type { Execution } from './matching.js';
import type { SortOrder } from './orders.js';
import { ATTR_MASK } from './postings.js';
import { type Criterion, popcount, proximity, rank } from './ranking.js';

/**
 * The walk's limits. `walkPerHit`: records read per requested hit before the walk stops and the threshold pass takes
 * over (a record read costs its proximity, ~0.2 µs when its tokens are read; a candidate passed over by the
 * threshold pass a few ns). `positionsPerCandidate`: positions of the order walked per candidate at most, else the
 * general path answers (a position costs ~1 ns, a candidate's keys on the general path ~30 ns). Tests lower them to
 * compare both paths on a small corpus.
 */
export const MANY_WORDS_LIMITS = { walkPerHit: 32, positionsPerCandidate: 4 };

/** The radix of each field of a key: every field stays under it, so keys compare as the criteria one after the other. */
const RADIX = { typo: 64, words: 32, proximity: 256, attribute: ATTR_MASK + 1, exact: 64 } as const;

type Field = keyof typeof RADIX;

/** The place value of each field in a key; 0 for a criterion the query does not have. */
type Weights = Record<Field, number>;

/** What the path did, for the bench and the tests: answers, those the bound stopped, records read, threshold adds. */
const stats = { answers: 0, atBound: 0, read: 0, added: 0 };

/**
 * What this path did in this process (the warm-up must run it: `warm-up.ts`): searches answered, those whose walk
 * stopped on the bound, records read by the walks, records added by the threshold pass.
 * @example manyWordsStats().answers; // 0 before any large query of several words
 */
export function manyWordsStats(): Readonly<typeof stats> {
  return { ...stats };
}

/** Per candidate (by its place in the candidates): its cheap key. Scratch kept between queries. */
let cheap = new Float64Array(0);

/**
 * Ranks a query of several words in the custom order (see the module comment), or returns null when the general
 * path must answer. `nbHits` is the number of candidates, as on the general path.
 * @example const fast = rankManyWords(state, exec, criteria(state, exec, false), 20); // null: rankDistinct
 */
export function rankManyWords(
  state: IndexState,
  exec: Execution,
  crits: Criterion[],
  need: number,
): { ordered: number[]; nbHits: number } | null {
  const n = exec.words.length;
  if (exec.oneWord || n < 2 || n > 16 || exec.geo || exec.personal || exec.optional?.length) return null;
  const weights = keyWeights(crits);
  if (!weights || need <= 0) return null;
  const cands = exec.candidates;
  const order = crits[crits.length - 1]!.order!;
  const budget = need * MANY_WORDS_LIMITS.walkPerHit + 64;
  // the walk reaches its budget after about budget × size ÷ candidates positions
  if (
    cands.length < 2 * budget ||
    (budget / cands.length) * order.size > cands.length * MANY_WORDS_LIMITS.positionsPerCandidate
  )
    return null;

  const words = (state.capacity + 31) >>> 5;
  if (state.oneWordBits.length < words) state.oneWordBits = new Uint32Array(words);
  const bits = state.oneWordBits;
  bits.fill(0, 0, words);
  if (cheap.length < cands.length)
    cheap = new Float64Array(Math.max(cands.length, Math.min(cheap.length * 2, state.capacity)));
  const keys = new KeyReader(state, weights, n);
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < cands.length; i++) {
    const doc = cands[i]!;
    const c = keys.cheap(doc);
    if (c < 0) return null;
    cheap[i] = c;
    if (c < least) least = c;
    bits[doc >>> 5]! |= 1 << (doc & 31);
  }

  const gathered: number[] = [];
  const real: number[] = [];
  let atBound = 0;
  walkBits(order, bits, (doc) => {
    const key = keys.real(doc);
    // read: the threshold pass leaves it alone
    bits[doc >>> 5]! &= ~(1 << (doc & 31));
    gathered.push(doc);
    real.push(key);
    if (key <= least) atBound++;
    return atBound < need && gathered.length < budget;
  });
  stats.answers++;
  stats.read += gathered.length;
  if (atBound >= need) stats.atBound++;
  else {
    // the budget read, or the walk ended (every candidate in the order read: the pass finds none left, or
    // only records the order does not hold yet, all kept when fewer than `need` were read)
    const threshold = gathered.length >= need ? Float64Array.from(real).sort()[need - 1]! : Number.POSITIVE_INFINITY;
    const read = gathered.length;
    for (let i = 0; i < cands.length; i++) {
      if (cheap[i]! >= threshold) continue;
      const doc = cands[i]!;
      if ((bits[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
      if (keys.real(doc) < threshold) gathered.push(doc);
    }
    stats.added += gathered.length - read;
  }
  return { ordered: rank(state, Uint32Array.from(gathered), crits, need), nbHits: cands.length };
}

/**
 * The place value of each field, the last criterion (an order) excepted; null when another criterion is there or
 * a kind repeats.
 */
function keyWeights(crits: Criterion[]): Weights | null {
  if (crits.length < 2 || !crits[crits.length - 1]!.order) return null;
  const weights: Weights = { typo: 0, words: 0, proximity: 0, attribute: 0, exact: 0 };
  let weight = 1;
  for (let i = crits.length - 2; i >= 0; i--) {
    const crit = crits[i]!;
    const field: Field | undefined = crit.match ?? (crit.proximity ? 'proximity' : undefined);
    if (!field || weights[field] !== 0) return null;
    weights[field] = weight;
    weight *= RADIX[field];
  }
  return weights;
}

/** A record's keys from its match words: each criterion's key as `ranking.ts` computes it, in mixed radix. */
class KeyReader {
  private readonly state: IndexState;
  private readonly weights: Weights;
  private readonly n: number;

  constructor(state: IndexState, weights: Weights, n: number) {
    this.state = state;
    this.weights = weights;
    this.n = n;
  }

  /** The key with the proximity at the least the matched words allow; -1 when a field is out of its radix. */
  cheap(doc: number): number {
    const match = this.state.match;
    const w = this.weights;
    const matched = popcount(match[doc << 1]! & 0xffff);
    const packed = match[(doc << 1) + 1]!;
    const exact = this.n - (packed >>> 26);
    if (exact < 0 || exact >= RADIX.exact) return -1;
    return (
      ((packed >>> 20) & 63) * w.typo +
      (this.n - matched) * w.words +
      (matched > 1 ? matched - 1 : 0) * w.proximity +
      (packed & ATTR_MASK) * w.attribute +
      exact * w.exact
    );
  }

  /** The record's key: the cheap one with its proximity computed (`proximity`, as the bucket sort's). */
  real(doc: number): number {
    const key = this.cheap(doc);
    if (this.weights.proximity === 0) return key;
    const matched = popcount(this.state.match[doc << 1]! & 0xffff);
    const least = matched > 1 ? matched - 1 : 0;
    return key + (proximity(this.state, doc, this.n) - least) * this.weights.proximity;
  }
}

/**
 * Calls `visit` with the ids set in the bit set `bits`, in `order`, until it returns false: `SortOrder.walk` for a
 * set held as bits (here, not in `orders.ts`: only the paths loaded on demand by the worker walk bits — this one
 * and `one-word.ts`).
 *
 * @example
 * walkBits(state.customOrder(), bits, (id) => gathered.push(id) < 20);
 */
export function walkBits(order: SortOrder, bits: Uint32Array, visit: (id: number) => boolean): void {
  const base = order.baseBuffer;
  const tail = order.tail;
  const tailAt = order.tailAt;
  const has = (id: number) => (bits[id >>> 5]! & (1 << (id & 31))) !== 0;
  let k = 0;
  for (let i = 0; i < order.baseLength; i++) {
    for (; k < tail.length && tailAt[k] === i; k++) if (has(tail[k]!) && !visit(tail[k]!)) return;
    if (has(base[i]!) && !visit(base[i]!)) return;
  }
  for (; k < tail.length; k++) if (has(tail[k]!) && !visit(tail[k]!)) return;
}
