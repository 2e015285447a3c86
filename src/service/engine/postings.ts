/**
 * The inverted index of one index: the vocabulary, the postings of each term and the tokens of each
 * record.
 *
 * - Postings are pairs `(id, attributeKey)` — the key is `rank × 1000 + position` of the term's best
 *   occurrence in the record — frozen into one `Uint32Array` in sorted-vocabulary order, so the
 *   postings of a prefix are one block; writes go to a small delta that the next read merges in by
 *   block copies (`freeze`).
 * - The tokens of every record (term id, and field << 16 | position) sit in two shared typed arrays,
 *   read only for proximity, phrases and restricted attributes of candidate records.
 */
import { tokenize } from './normalize.js';
import { getPath, getValues } from './record-paths.js';
import type { SearchableSpec } from './settings.js';
import { Vocabulary } from './vocabulary.js';

/** The attribute key of a posting (20 bits; the match word packs typos and exact words above it). */
export const ATTR_MASK = 0xfffff;

/**
 * @example
 * const postings = new Postings(1024);
 * postings.indexRecord(0, { objectID: 'a', name: 'oak table' }, [{ path: ['name'], name: 'name', rank: 0, unordered: false }], new Map());
 * postings.freeze(); // the postings of "oak" and "table" are now in `frozenData`
 */
export class Postings {
  vocab = new Vocabulary();
  /** Postings added since the last freeze, per term id: `[id, attributeKey, …]`. */
  delta = new Map<number, number[]>();
  /**
   * Frozen postings, pairs `(id, attributeKey)` laid out in sorted-vocabulary order, so the postings of
   * a prefix are one contiguous block; `frozenOff[p]` is where the term at sorted position p starts.
   */
  frozenData = new Uint32Array(0);
  frozenOff = new Uint32Array(1);
  /** term id → its sorted position in the frozen layout (-1 if not in it). */
  frozenPosOf = new Int32Array(0);
  tokTerms = new Uint32Array(4096);
  tokPos = new Uint32Array(4096);
  tokUsed = 0;
  docTokStart: Uint32Array;
  docTokCount: Uint32Array;

  constructor(capacity: number) {
    this.docTokStart = new Uint32Array(capacity);
    this.docTokCount = new Uint32Array(capacity);
  }

  /** Grows the per-record arrays to `capacity` records. */
  grow(capacity: number): void {
    const grow32 = (a: Uint32Array) => {
      const b = new Uint32Array(capacity);
      b.set(a);
      return b;
    };
    this.docTokStart = grow32(this.docTokStart);
    this.docTokCount = grow32(this.docTokCount);
  }

  /**
   * Indexes the searchable attributes `specs` of record `id`: its tokens, and one posting per distinct
   * term with the attribute key of its best occurrence (into the delta). A compound word of
   * `compounds` is indexed with its parts too, at the same position.
   */
  indexRecord(
    id: number,
    record: Record<string, unknown>,
    specs: SearchableSpec[],
    compounds: ReadonlyMap<string, readonly string[]>,
  ): void {
    const best = new Map<number, number>();
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
        const toks = tokenize(String(v));
        for (const tok of toks) {
          const key = Math.min(spec.rank * 1000 + (spec.unordered ? 0 : Math.min(pos, 999)), ATTR_MASK - 1);
          // a compound word is indexed with its parts too, at the same position (custom compound entries)
          const parts = compounds.size ? compounds.get(tok) : undefined;
          for (const word of parts ? [tok, ...parts] : [tok]) {
            const term = this.vocab.add(word.length > 64 ? word.slice(0, 64) : word);
            const prev = best.get(term);
            if (prev === undefined || key < prev) best.set(term, key);
            if (this.tokUsed >= this.tokTerms.length) {
              const t = new Uint32Array(this.tokTerms.length * 2);
              t.set(this.tokTerms);
              this.tokTerms = t;
              const p = new Uint32Array(this.tokPos.length * 2);
              p.set(this.tokPos);
              this.tokPos = p;
            }
            this.tokTerms[this.tokUsed] = term;
            this.tokPos[this.tokUsed] = (field << 16) | Math.min(pos, 0xffff);
            this.tokUsed++;
          }
          pos++;
        }
        pos += 8; // array elements are not adjacent for proximity
      }
      field++;
    }
    this.docTokStart[id] = start;
    this.docTokCount[id] = this.tokUsed - start;
    for (const [term, key] of best) {
      const list = this.delta.get(term);
      if (list) list.push(id, key);
      else this.delta.set(term, [id, key]);
    }
  }

  /**
   * Merges the postings added since the last read into the frozen layout (new terms take their
   * sorted place). Runs of terms without new postings are copied as blocks, so a single write costs
   * a memory copy of the postings on the next read, not a re-index.
   */
  freeze(): void {
    if (this.delta.size === 0) return;
    const vocab = this.vocab;
    vocab.ensureSorted();
    const order = vocab.sortedTermIds;
    const n = order.length;
    const oldData = this.frozenData;
    const oldOff = this.frozenOff;
    const oldPos = this.frozenPosOf;
    let total = oldData.length;
    const hasDelta = new Uint8Array(vocab.size);
    for (const [term, list] of this.delta) {
      total += list.length;
      hasDelta[term] = 1;
    }
    const data = new Uint32Array(total);
    const off = new Uint32Array(n + 1);
    const posOf = new Int32Array(vocab.size);
    const prevPos = (t: number) => (t < oldPos.length ? oldPos[t]! : -1);
    let out = 0;
    let p = 0;
    while (p < n) {
      const t = order[p]!;
      const op = prevPos(t);
      if (op >= 0 && !hasDelta[t]) {
        let q = p;
        let last = op;
        while (q + 1 < n) {
          const t2 = order[q + 1]!;
          if (hasDelta[t2] || prevPos(t2) !== last + 1) break;
          last++;
          q++;
        }
        const s0 = oldOff[op]!;
        const s1 = oldOff[last + 1]!;
        data.set(oldData.subarray(s0, s1), out);
        for (let r = p; r <= q; r++) {
          off[r] = out + (oldOff[op + (r - p)]! - s0);
          posOf[order[r]!] = r;
        }
        out += s1 - s0;
        p = q + 1;
        continue;
      }
      off[p] = out;
      posOf[t] = p;
      if (op >= 0) {
        const s0 = oldOff[op]!;
        const s1 = oldOff[op + 1]!;
        data.set(oldData.subarray(s0, s1), out);
        out += s1 - s0;
      }
      const list = this.delta.get(t);
      if (list) {
        data.set(list, out);
        out += list.length;
      }
      p++;
    }
    off[n] = out;
    this.frozenData = data;
    this.frozenOff = off;
    this.frozenPosOf = posOf;
    this.delta.clear();
  }
}
