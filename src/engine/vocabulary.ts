/**
 * The vocabulary of indexed terms: term ↔ id, and a sorted view for prefix ranges and typo search.
 *
 * The sorted array acts as an implicit trie: typo search walks it in order, reusing the edit-distance
 * rows of the prefix it shares with the previous term, and skips a whole prefix range (binary search)
 * as soon as a row's minimum exceeds the typo budget — the bounded-edit-distance DFS of ENGINE-NOTES
 * without the memory of a node per character. New terms are merged into the sorted view lazily.
 */

import { TermTable } from './term-table.js';

export interface DerivedTerm {
  term: number;
  typos: number;
}

/**
 * @example
 * const v = new Vocabulary();
 * v.add('chair'); v.add('chain');
 * v.fuzzy('chiar', 1, false).map((d) => v.terms[d.term]) // ['chair']
 */
export class Vocabulary {
  // The terms and the sorted view: read and restored by an index snapshot (`structures.ts`), else this class's own.
  ids = new TermTable();
  readonly terms: string[] = [];
  sorted: string[] = [];
  sortedIds: Uint32Array = new Uint32Array(0);
  /** lcp[i]: length of the common prefix of sorted[i-1] and sorted[i] (capped at 255). */
  lcp: Uint8Array = new Uint8Array(0);
  /** The sorted terms' characters back to back, and where each starts (typo search reads these). */
  chars: Uint16Array = new Uint16Array(0);
  offs: Uint32Array = new Uint32Array(1);
  /** Whether `posOf` and `jump` are up to date (else made on first use). */
  posOfReady = true;
  jumpReady = true;
  /**
   * jump[d-1][i] (d = 1…3): the first position after i whose term does not share i's first d
   * characters, so the typo search skips a pruned short prefix in one step.
   */
  private jump: Uint32Array[] = [];
  /** term id → position in the sorted view. */
  private posOf: Uint32Array = new Uint32Array(0);
  private pending: number[] = [];
  /** Bumped whenever a term is added (derivation caches depend on it). */
  version = 0;

  get size(): number {
    return this.terms.length;
  }

  id(term: string): number | undefined {
    const id = this.ids.find(term, 0, term.length, TermTable.hash(term, 0, term.length));
    return id < 0 ? undefined : id;
  }

  add(term: string): number {
    return this.addRange(term, 0, term.length);
  }

  /**
   * The id of the term `text.slice(start, end)`, added when new (the substring is only made then).
   * @example v.addRange('an oak table', 3, 6) // the id of "oak"
   */
  addRange(text: string, start: number, end: number): number {
    const hash = TermTable.hash(text, start, end);
    let id = this.ids.find(text, start, end, hash);
    if (id < 0) {
      id = this.ids.insert(text, start, end, hash);
      this.terms.push(start === 0 && end === text.length ? text : text.slice(start, end));
      this.pending.push(id);
      this.version++;
    }
    return id;
  }

  /**
   * Merges terms added since the last call into the sorted view. The old view is copied in runs
   * between insertion points (typed-array copies, no per-term string work for old terms), so a write
   * that adds a few terms costs O(vocabulary) integer work on the next read.
   */
  ensureSorted(): void {
    if (this.pending.length === 0) return;
    const terms = this.terms;
    const addIds = this.pending.sort((x, y) => (terms[x]! < terms[y]! ? -1 : terms[x]! > terms[y]! ? 1 : 0));
    this.pending = [];
    const old = this.sorted;
    const oldIds = this.sortedIds;
    const oldLcp = this.lcp;
    const oldChars = this.chars;
    const oldOffs = this.offs;
    const n = old.length + addIds.length;
    let addChars = 0;
    for (const id of addIds) addChars += terms[id]!.length;
    const sorted: string[] = [];
    const ids = new Uint32Array(n);
    const lcp = new Uint8Array(n);
    const chars = new Uint16Array(oldChars.length + addChars);
    const offs = new Uint32Array(n + 1);
    let out = 0; // next position in the new view
    let at = 0; // next char in the new buffer
    let i = 0; // next old position
    const lcpOf = (x: string, y: string) => {
      const lim = Math.min(x.length, y.length, 255);
      let l = 0;
      while (l < lim && x.charCodeAt(l) === y.charCodeAt(l)) l++;
      return l;
    };
    for (let j = 0; j <= addIds.length; j++) {
      // old terms before the next added one, as one run
      const next = j < addIds.length ? terms[addIds[j]!]! : null;
      const end = next === null ? old.length : this.lowerBound(next, i);
      if (end > i) {
        for (let k = i; k < end; k++) sorted.push(old[k]!);
        ids.set(oldIds.subarray(i, end), out);
        lcp.set(oldLcp.subarray(i, end), out);
        if (out > 0) lcp[out] = lcpOf(sorted[out - 1]!, old[i]!);
        const c0 = oldOffs[i]!;
        const c1 = oldOffs[end]!;
        chars.set(oldChars.subarray(c0, c1), at);
        for (let k = i; k < end; k++) offs[out + (k - i)] = at + (oldOffs[k]! - c0);
        at += c1 - c0;
        out += end - i;
        i = end;
      }
      if (next === null) break;
      sorted.push(next);
      ids[out] = addIds[j]!;
      lcp[out] = out > 0 ? lcpOf(sorted[out - 1]!, next) : 0;
      offs[out] = at;
      for (let c = 0; c < next.length; c++) chars[at++] = next.charCodeAt(c);
      out++;
    }
    offs[n] = at;
    this.sorted = sorted;
    this.sortedIds = ids;
    this.lcp = lcp;
    this.chars = chars;
    this.offs = offs;
    // derived from the above on first use: a write that adds a few terms does not pay for them
    this.posOfReady = false;
    this.jumpReady = false;
  }

  /** term id → sorted position, rebuilt on first use after terms were added. */
  private positions(): Uint32Array {
    if (!this.posOfReady) {
      const ids = this.sortedIds;
      if (this.posOf.length < this.terms.length) this.posOf = new Uint32Array(Math.max(this.terms.length, 1024) * 2);
      for (let k = 0; k < ids.length; k++) this.posOf[ids[k]!] = k;
      this.posOfReady = true;
    }
    return this.posOf;
  }

  /** The jump tables of the typo search, rebuilt on first use after terms were added. */
  private jumps(): Uint32Array[] {
    if (!this.jumpReady) {
      const n = this.sortedIds.length;
      const lcp = this.lcp;
      this.jump = [1, 2, 3].map((d) => {
        const j = new Uint32Array(n);
        for (let k = n - 1; k >= 0; k--) j[k] = k + 1 < n && lcp[k + 1]! >= d ? j[k + 1]! : k + 1;
        return j;
      });
      this.jumpReady = true;
    }
    return this.jump;
  }

  private lowerBound(s: string, from = 0): number {
    let lo = from;
    let hi = this.sorted.length;
    const a = this.sorted;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (a[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Sorts the new terms in when they are many against the vocabulary (a sixty-fourth of it): the
   * upkeep of a write, which leaves the last few to the next read's {@link ensureSorted} — the merge
   * copies the whole sorted view, so doing it for every small write would cost the vocabulary's size
   * each time.
   */
  sortIfMany(): void {
    if (this.pending.length > 0 && this.pending.length * 64 >= this.terms.length) this.ensureSorted();
  }

  /** Term ids in sorted order (call {@link ensureSorted} first). */
  get sortedTermIds(): Uint32Array {
    return this.sortedIds;
  }

  /** Position of a term in the sorted view (call {@link ensureSorted} first). */
  positionOf(term: number): number {
    return this.positions()[term]!;
  }

  /** The range `[lo, hi)` of sorted positions of the terms starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    this.ensureSorted();
    const lo = this.lowerBound(prefix);
    return [lo, this.lowerBound(`${prefix}\uffff`, lo)];
  }

  /**
   * Terms within `maxTypos` edits (insertion, deletion, substitution, transposition) of `word`; with
   * `prefix`, terms that have a prefix within `maxTypos` of `word`. Each with its smallest typo count.
   */
  fuzzy(word: string, maxTypos: number, prefix: boolean, withExact = true): DerivedTerm[] {
    this.ensureSorted();
    const out: DerivedTerm[] = [];
    const a = this.sorted;
    const n = a.length;
    const m = word.length;
    const k = maxTypos;
    const K1 = k + 1;
    const q = new Uint16Array(m + 1);
    for (let j = 0; j < m; j++) q[j] = word.charCodeAt(j);
    const width = m + 2;
    // rows[d] = DP row for the first d characters of the current term, computed only in the band
    // |d − j| ≤ k (cells outside hold k+1: too many typos either way); 64 is the longest term handled
    const maxDepth = 64;
    const rows = new Int32Array((maxDepth + 1) * width).fill(K1);
    const prefMin = new Int32Array(maxDepth + 1);
    for (let j = 0; j <= Math.min(m, k); j++) rows[j] = j;
    prefMin[0] = m <= k ? m : K1;
    const lcp = this.lcp;
    const jump = this.jumps();
    const chars = this.chars;
    const offs = this.offs;
    // shared = common prefix length of the current term and the previous one handled
    let shared = 0;
    let valid = 0;
    let i = 0;
    while (i < n) {
      const off = offs[i]!;
      const len = offs[i + 1]! - off;
      // biome-ignore lint/complexity/useMathMinMax: the typo matrix's inner loop: a comparison, not a Math call
      const tl = len < maxDepth ? len : maxDepth;
      const d = Math.min(valid, shared, tl);
      let skipTo = -1;
      let rangeTypos = -1;
      for (let depth = d + 1; depth <= tl; depth++) {
        const c = chars[off + depth - 1]!;
        const pc = depth > 1 ? chars[off + depth - 2]! : -1;
        const base = depth * width;
        const up = base - width;
        const up2 = up - width;
        // biome-ignore lint/complexity/useMathMinMax: the typo matrix's inner loop: a comparison, not a Math call
        const lo = depth - k > 1 ? depth - k : 1;
        // biome-ignore lint/complexity/useMathMinMax: the typo matrix's inner loop: a comparison, not a Math call
        const hi = depth + k < m ? depth + k : m;
        rows[base] = depth <= k ? depth : K1;
        if (lo > 1) rows[base + lo - 1] = K1;
        let rowMin = rows[base]!;
        for (let j = lo; j <= hi; j++) {
          const qc = q[j - 1]!;
          let v = rows[up + j - 1]! + (qc === c ? 0 : 1);
          const del = rows[up + j]! + 1;
          if (del < v) v = del;
          const ins = rows[base + j - 1]! + 1;
          if (ins < v) v = ins;
          if (qc !== c && j > 1 && qc === pc && q[j - 2] === c) {
            const tr = rows[up2 + j - 2]! + 1;
            if (tr < v) v = tr;
          }
          rows[base + j] = v;
          if (v < rowMin) rowMin = v;
        }
        if (hi + 1 <= m) rows[base + hi + 1] = K1;
        const last = m >= lo && m <= hi ? rows[base + m]! : m === 0 ? rows[base]! : K1;
        const pm = prefMin[depth - 1]!;
        // biome-ignore lint/complexity/useMathMinMax: the typo matrix's inner loop: a comparison, not a Math call
        prefMin[depth] = last < pm ? last : pm;
        if (prefix && prefMin[depth] === 0) {
          // the word itself is a prefix of t[0..depth]: every term in that range matches with 0 typos
          rangeTypos = 0;
          skipTo = depth;
          break;
        }
        if (rowMin > k) {
          if (prefix && prefMin[depth]! <= k) rangeTypos = prefMin[depth]!;
          skipTo = depth;
          break;
        }
      }
      if (skipTo >= 0) {
        // skip every following term that shares t[0..skipTo]; track the common prefix with the next one
        let end: number;
        if (skipTo <= 3) end = jump[skipTo - 1]![i]!;
        else {
          end = i + 1;
          while (end < n && lcp[end]! >= skipTo) end++;
        }
        if (rangeTypos > 0 || (rangeTypos === 0 && withExact))
          for (let x = i; x < end; x++) out.push({ term: this.sortedIds[x]!, typos: rangeTypos });
        // every skipped term shares at least skipTo chars with t and the next one fewer: that is its LCP with t
        shared = end < n ? lcp[end]! : 0;
        i = end;
        valid = skipTo - 1;
        continue;
      }
      const dist = prefix ? prefMin[tl]! : tl - m > k || m - tl > k ? K1 : rows[tl * width + m]!;
      if (dist <= k && (dist > 0 || withExact)) out.push({ term: this.sortedIds[i]!, typos: dist });
      valid = tl;
      i++;
      shared = i < n ? lcp[i]! : 0;
    }
    return out;
  }
}
