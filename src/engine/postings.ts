/**
 * The inverted index of one index: the vocabulary, the postings of each term and the tokens of each
 * record.
 *
 * - Postings are pairs `(id, attributeKey)` — the key is `rank × 1000 + position` of the term's best
 *   occurrence in the record — in typed-array segments grouped by term id (`Segment`); a write's
 *   postings become a new segment when the write ends (`freeze`), and segments merge geometrically
 *   (the upkeep of later writes, `upkeep.ts`: an index built in one write has one segment).
 * - The tokens of every record (term id, and field << 16 | position) sit in one shared typed array,
 *   read only for proximity, phrases, restricted attributes and rare-word matching of candidates.
 */
import { optionalFeature } from './features.js';
import { isAscii, tokenize } from './normalize.js';
import { getPath, getValues } from './record-paths.js';
import type { SearchableSpec } from './settings.js';
import { Vocabulary } from './vocabulary.js';

/** The attribute key of a posting (20 bits; the match word packs typos and exact words above it). */
export const ATTR_MASK = 0xfffff;

/**
 * The attribute criterion's key of a word at `position` (its word index) in the attribute `spec`: the attribute's
 * rank, then the position unless the attribute is `unordered(…)` (positions past 999 count as 999). Lower is better.
 *
 * @example
 * attributeKey({ path: ['name'], name: 'name', rank: 1, unordered: false }, 3); // 1003
 */
export function attributeKey(spec: SearchableSpec, position: number): number {
  return Math.min(spec.rank * 1000 + (spec.unordered ? 0 : Math.min(position, 999)), ATTR_MASK - 1);
}
/**
 * Flag of a posting's key: the term occurs more than once in the record, so the key's position is one
 * of several (proximity then reads the record's tokens).
 */
export const REPEATED = 0x100000;

/**
 * One segment of postings: pairs `(id, attributeKey)` grouped by term id, ids ascending within a term.
 * A segment holds the records indexed in one span of time, so a newer segment's ids are all larger.
 */
export interface Segment {
  data: Uint32Array;
  /** `off[t]` to `off[t + 1]`: the pairs of term t (terms from `off.length - 1` on: none here). */
  off: Uint32Array;
}

/** What an index snapshot holds of the postings (see `postingsContents` of `structures.ts`). */
export interface PostingsContents {
  off: Uint32Array;
  data: Uint32Array;
  tokens: Uint32Array;
  tokenStart: Uint32Array;
}

/** Values this long or shorter have their terms cached (see `indexRecord`), up to this many values. */
const SHORT_VALUE = 16;
const SHORT_VALUES_KEPT = 50_000;
/** In a value's term list: the term is a compound part (same position as the word before it). */
const PART = 0x80000000;
const TERM_MASK = 0x7fffffff;

/**
 * @example
 * const postings = new Postings(1024);
 * postings.indexRecord(0, { objectID: 'a', name: 'oak table' }, [{ path: ['name'], name: 'name', rank: 0, unordered: false }], new Map());
 * postings.freeze(); // the postings of "oak" and "table" are now in a segment
 */
export class Postings {
  vocab = new Vocabulary();
  /**
   * Frozen postings, oldest (and largest) first, ids of a newer segment all larger. Each freeze adds a segment for
   * the postings indexed since the previous one; the engine's upkeep merges them as they come (`mergeNewSegment`).
   */
  segments: Segment[] = [];
  /**
   * The tokens of every record, in record order, two slots each: term id, then `field << 16 |
   * position` (one cache line holds both). Record `id`'s tokens are `tokenStart[id]` to
   * `tokenStart[id + 1]` (token numbers: slots `2k` and `2k + 1`).
   */
  tokens: Uint32Array = new Uint32Array(8192);
  tokUsed = 0;
  tokenStart: Uint32Array;
  /** Postings indexed since the last freeze: (term, id, attributeKey), in id order. */
  private pendingTerms = new Uint32Array(4096);
  private pendingIds = new Uint32Array(4096);
  private pendingKeys = new Uint32Array(4096);
  private pending = 0;
  /** Per term, while indexing one record: the record's stamp and its best attribute key. */
  private seen = new Uint32Array(1024);
  private best = new Uint32Array(1024);
  private recordTerms = new Uint32Array(256);
  /** Terms of short values already seen (term ids are stable for the life of this object). */
  private readonly shortValues = new Map<string, Uint32Array>();
  private valueTerms = new Uint32Array(64);

  constructor(capacity: number) {
    this.tokenStart = new Uint32Array(capacity + 1);
  }

  /** Grows the per-record arrays to `capacity` records. */
  grow(capacity: number): void {
    this.tokenStart = grown(this.tokenStart, capacity + 1);
  }

  /**
   * Makes room for `records` more records like the `sample` last indexed ones, which added `tokens`
   * tokens and `postings` postings (a large write: one allocation instead of a doubling every so often).
   */
  reserve(records: number, sample: number, tokens: number, postings: number): void {
    const tokenRoom = this.tokUsed + Math.ceil((tokens / sample) * records * 1.1);
    if (tokenRoom * 2 > this.tokens.length) this.tokens = grown(this.tokens, tokenRoom * 2);
    const postingRoom = this.pending + Math.ceil((postings / sample) * records * 1.1);
    if (postingRoom > this.pendingTerms.length) {
      this.pendingTerms = grown(this.pendingTerms, postingRoom);
      this.pendingIds = grown(this.pendingIds, postingRoom);
      this.pendingKeys = grown(this.pendingKeys, postingRoom);
    }
  }

  /** Postings indexed and not frozen yet. */
  get pendingCount(): number {
    return this.pending;
  }

  /**
   * Indexes the searchable attributes `specs` of record `id`: its tokens, and one posting per distinct
   * term with the attribute key of its best occurrence (pending until the next `freeze`). A compound
   * word of `compounds` is indexed with its parts too, at the same position.
   */
  indexRecord(
    id: number,
    record: Record<string, unknown>,
    specs: SearchableSpec[],
    compounds: ReadonlyMap<string, readonly string[]>,
  ): void {
    const stamp = id + 1;
    let distinct = 0;
    const start = this.tokUsed;
    let field = 0;
    const strings: unknown[] = [];
    for (const spec of specs) {
      strings.length = 0;
      getValues(getPath(record, spec.path), [], 0, strings);
      if (strings.length === 0) {
        field++;
        continue;
      }
      let pos = 0;
      for (const v of strings) {
        if (typeof v !== 'string' && typeof v !== 'number') continue;
        const text = String(v);
        // short values repeat (brands, categories, colours): their terms are looked up once
        const short = compounds.size === 0 && text.length <= SHORT_VALUE;
        let terms = short ? this.shortValues.get(text) : undefined;
        if (!terms) {
          const count = this.termsOf(text, compounds);
          terms = this.valueTerms.subarray(0, count);
          if (short) {
            if (this.shortValues.size >= SHORT_VALUES_KEPT) this.shortValues.clear();
            this.shortValues.set(text, terms.slice());
          }
        }
        // terms: per token, its term and then its compound parts' terms, each part flagged as one
        for (let k = 0; k < terms.length; k++) {
          const term = terms[k]! & TERM_MASK;
          if ((terms[k]! & PART) === 0 && k > 0) pos++;
          const key = attributeKey(spec, pos);
          if (this.seen[term] !== stamp) {
            this.seen[term] = stamp;
            this.best[term] = key;
            if (distinct === this.recordTerms.length) this.recordTerms = grown(this.recordTerms, distinct * 2);
            this.recordTerms[distinct++] = term;
          } else this.best[term] = Math.min(this.best[term]! & ATTR_MASK, key) | REPEATED;
          if (this.tokUsed * 2 >= this.tokens.length) this.tokens = grown(this.tokens, this.tokens.length * 2);
          this.tokens[this.tokUsed * 2] = term;
          this.tokens[this.tokUsed * 2 + 1] = (field << 16) | Math.min(pos, 0xffff);
          this.tokUsed++;
        }
        if (terms.length) pos++;
        pos += 8; // array elements are not adjacent for proximity
      }
      field++;
    }
    this.tokenStart[id] = start;
    this.tokenStart[id + 1] = this.tokUsed;
    if (this.pending + distinct > this.pendingTerms.length) {
      const size = Math.max(this.pendingTerms.length * 2, this.pending + distinct);
      this.pendingTerms = grown(this.pendingTerms, size);
      this.pendingIds = grown(this.pendingIds, size);
      this.pendingKeys = grown(this.pendingKeys, size);
    }
    for (let k = 0; k < distinct; k++) {
      const term = this.recordTerms[k]!;
      this.pendingTerms[this.pending] = term;
      this.pendingIds[this.pending] = id;
      this.pendingKeys[this.pending] = this.best[term]!;
      this.pending++;
    }
  }

  /**
   * The terms of a value's tokens in order, each followed by the terms of its compound parts (flagged
   * with `PART`: same position as their compound), into `valueTerms`; returns their number.
   */
  private termsOf(text: string, compounds: ReadonlyMap<string, readonly string[]>): number {
    if (compounds.size === 0 && isAscii(text)) return this.asciiTermsOf(text);
    let count = 0;
    for (const tok of tokenize(text)) {
      // a compound word is indexed with its parts too, at the same position (custom compound entries)
      const parts = compounds.size ? compounds.get(tok) : undefined;
      if (count + 1 + (parts ? parts.length : 0) > this.valueTerms.length)
        this.valueTerms = grown(this.valueTerms, (count + 1 + (parts ? parts.length : 0)) * 2);
      this.valueTerms[count++] = this.term(tok);
      if (parts) for (const part of parts) this.valueTerms[count++] = this.term(part) | PART;
    }
    return count;
  }

  /**
   * `termsOf` for an ASCII text and no compound words: the lower-cased text's runs of `a-z0-9` (the
   * tokens `tokenize` gives), looked up by their place in the text, so a known term makes no string.
   */
  private asciiTermsOf(text: string): number {
    const norm = text.toLowerCase();
    const n = norm.length;
    let count = 0;
    let i = 0;
    while (i < n) {
      if (!isTokenChar(norm.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      while (i < n && isTokenChar(norm.charCodeAt(i))) i++;
      if (count === this.valueTerms.length) this.valueTerms = grown(this.valueTerms, count * 2);
      const term = this.vocab.addRange(norm, start, Math.min(i, start + 64));
      if (term >= this.seen.length) this.growTermScratch(term + 1);
      this.valueTerms[count++] = term;
    }
    return count;
  }

  private term(word: string): number {
    const term = this.vocab.add(word.length > 64 ? word.slice(0, 64) : word);
    if (term >= this.seen.length) this.growTermScratch(term + 1);
    return term;
  }

  /** Room in the per-term scratch for `min` terms. */
  growTermScratch(min: number): void {
    const size = Math.max(min, this.seen.length * 2);
    this.seen = grown(this.seen, size);
    this.best = grown(this.best, size);
  }

  /**
   * Turns the pending postings into a segment (a counting sort by term: they are already in id
   * order), then has the engine's upkeep merge segments as described at {@link segments}.
   */
  freeze(): void {
    if (this.pending === 0) return;
    const terms = this.vocab.size;
    const off = new Uint32Array(terms + 1);
    const n = this.pending;
    const pendingTerms = this.pendingTerms;
    // offsets count array slots: two per posting
    for (let k = 0; k < n; k++) off[pendingTerms[k]! + 1]! += 2;
    for (let t = 0; t < terms; t++) off[t + 1]! += off[t]!;
    const cursor = off.slice(0, terms);
    const data = new Uint32Array(n * 2);
    const ids = this.pendingIds;
    const keys = this.pendingKeys;
    for (let k = 0; k < n; k++) {
      const term = pendingTerms[k]!;
      const at = cursor[term]!;
      cursor[term] = at + 2;
      data[at] = ids[k]!;
      data[at + 1] = keys[k]!;
    }
    this.pending = 0;
    if (this.pendingTerms.length > 65536) {
      // a large load is done: give its buffers back
      this.pendingTerms = new Uint32Array(4096);
      this.pendingIds = new Uint32Array(4096);
      this.pendingKeys = new Uint32Array(4096);
    }
    this.segments.push({ data, off });
    // without the upkeep (the browser worker builds an index in one write), a later write's segment stays apart
    optionalFeature('upkeep')?.mergeNewSegment(this.segments);
  }

  /**
   * The frozen postings `[id, attributeKey, …]` of one term, ids ascending: a view of its segment's
   * block when one segment holds it, else a copy of the blocks end to end.
   */
  termPostings(term: number): Uint32Array {
    let only: Uint32Array | null = null;
    let total = 0;
    let holders = 0;
    for (const { data, off } of this.segments) {
      if (term >= off.length - 1 || off[term] === off[term + 1]) continue;
      holders++;
      total += off[term + 1]! - off[term]!;
      only = data.subarray(off[term]!, off[term + 1]!);
    }
    if (holders <= 1) return only ?? new Uint32Array(0);
    const out = new Uint32Array(total);
    let at = 0;
    for (const { data, off } of this.segments) {
      if (term >= off.length - 1) continue;
      out.set(data.subarray(off[term]!, off[term + 1]!), at);
      at += off[term + 1]! - off[term]!;
    }
    return out;
  }
}

/** `a-z` or `0-9`. */
function isTokenChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** A copy of `a` with length `size` (at least `a.length`). */
function grown(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}
