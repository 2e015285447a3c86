/**
 * Query words to index terms: the derivation of one query word — the exact term, its plural forms,
 * one-word synonyms, the prefix range and the terms within the typo budget — as ranges of the sorted
 * vocabulary, with each range's typo count and exactness. Derivations are cached per word until the
 * vocabulary or the plural dictionary changes.
 */
import type { IndexState } from './index-state.js';
import { isNumericToken } from './normalize.js';
import type { Effective } from './query.js';

/**
 * How a query word matched a term (the numbers are stored in the derived maps; all five are named).
 * @public
 */
export enum Kind {
  Exact = 0,
  Prefix = 1,
  Plural = 2,
  Fuzzy = 3,
  FuzzyPrefix = 4,
}

export interface Derived {
  word: string;
  prefix: boolean;
  /**
   * Ranges `[lo, hi)` of sorted-vocabulary positions to union (a prefix is one range, so its postings
   * are one contiguous block), sorted by typos then exactness.
   */
  lo: Uint32Array;
  hi: Uint32Array;
  typos: Uint8Array;
  exact: Uint8Array;
  plurals: Set<string>;
  fuzzy: Map<number, Kind>;
  /** One-word synonyms this word matches (highlighted like the word). */
  synonyms?: Set<string>;
}

/**
 * The derivation of one query word (typo budget by word length: 1 from `minWordSizefor1Typo`, 2 from
 * `minWordSizefor2Typos`; none on numbers, phrase words and `disableTypoToleranceOnWords`).
 * @example derive(state, 'chiar', true, eff) // the ranges of 'chiar…' (0 typos) and of 'chair', 'chain', … (1 typo)
 */
export function derive(
  state: IndexState,
  word: string,
  prefix: boolean,
  eff: Effective,
  exactOnly = false,
  noTypos = false,
): Derived {
  let maxTypos = 0;
  if (eff.typoTolerance !== false && !isNumericToken(word) && !exactOnly && !noTypos) {
    if (word.length >= eff.min2) maxTypos = 2;
    else if (word.length >= eff.min1) maxTypos = 1;
  }
  const alternatives = eff.synonyms && !exactOnly && state.expansion.size ? state.expansion.words.get(word) : undefined;
  const cacheKey = `${word}\u0000${prefix ? 1 : 0}${maxTypos}${exactOnly ? 1 : 0}${alternatives ? 1 : 0}${eff.plurals ? eff.plurals.join(',') : '-'}`; // maxTypos covers noTypos
  const cached = state.deriveCache.get(cacheKey);
  const pluralsVersion = state.dictionaries.versions.plurals;
  if (cached && cached.version === state.postings.vocab.version && cached.plurals === pluralsVersion) {
    state.deriveCache.delete(cacheKey);
    state.deriveCache.set(cacheKey, cached);
    return cached.derived;
  }
  const vocab = state.postings.vocab;
  vocab.ensureSorted();
  const ranges: Array<{ lo: number; hi: number; typos: number; exact: number }> = [];
  const single = new Set<number>();
  // sorted positions of the terms taken so far without typos (the word, plurals, synonyms)
  const withoutTypos: number[] = [];
  const addTerm = (term: number, typos: number, exact: number) => {
    if (single.has(term)) return;
    single.add(term);
    const pos = vocab.positionOf(term);
    ranges.push({ lo: pos, hi: pos + 1, typos, exact });
    if (typos === 0) withoutTypos.push(pos);
  };
  const exactId = vocab.id(word);
  if (exactId !== undefined) addTerm(exactId, 0, 1);
  const plurals = new Set<string>();
  if (eff.plurals) {
    for (const form of state.dictionaries.pluralForms(word, eff.plurals)) {
      plurals.add(form);
      const id = vocab.id(form);
      if (id !== undefined) addTerm(id, 0, 1);
    }
  }
  // one-word synonyms: a synonym is a whole word without typos (loses to the word itself on
  // `exact`); an alternative correction counts 1 or 2 typos (phrases and placeholders: `spanMatches`)
  const synonymWords = new Set<string>();
  for (const alt of alternatives ?? []) {
    const id = vocab.id(alt.words[0]!);
    if (id !== undefined) {
      addTerm(id, alt.typos, 0);
      synonymWords.add(alt.words[0]!);
    }
  }
  if (prefix) {
    // the prefix range without the terms taken above with no typos: a record they reach is reached
    // by their own range first (which gives its typos and exactness) and their postings hold the same
    // attribute keys, so reading them again changed nothing — and "overmix" read the postings of
    // 37 % of the records twice
    const [lo, hi] = vocab.prefixRange(word);
    let from = lo;
    for (const at of withoutTypos.sort((a, b) => a - b)) {
      if (at < from || at >= hi) continue;
      if (at > from) ranges.push({ lo: from, hi: at, typos: 0, exact: 0 });
      from = at + 1;
    }
    if (hi > from) ranges.push({ lo: from, hi, typos: 0, exact: 0 });
  }
  const fuzzy = new Map<number, Kind>();
  if (maxTypos > 0) {
    for (const { term, typos } of vocab.fuzzy(word, maxTypos, prefix, false)) {
      if (single.has(term)) continue;
      const kind = prefix && vocab.terms[term]!.length > word.length ? Kind.FuzzyPrefix : Kind.Fuzzy;
      fuzzy.set(term, kind);
      addTerm(term, typos, 0);
    }
  }
  // typo-then-exactness order (stable: positions stay ascending), then adjacent ranges merged
  ranges.sort((a, b) => a.typos - b.typos || b.exact - a.exact);
  const merged: typeof ranges = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && last.hi === r.lo && last.typos === r.typos && last.exact === r.exact) last.hi = r.hi;
    else merged.push({ ...r });
  }
  const derived: Derived = {
    word,
    prefix,
    lo: Uint32Array.from(merged, (r) => r.lo),
    hi: Uint32Array.from(merged, (r) => r.hi),
    typos: Uint8Array.from(merged, (r) => r.typos),
    exact: Uint8Array.from(merged, (r) => r.exact),
    plurals,
    fuzzy,
  };
  if (synonymWords.size) derived.synonyms = synonymWords;
  if (state.deriveCache.size >= 256) state.deriveCache.delete(state.deriveCache.keys().next().value!);
  state.deriveCache.set(cacheKey, { version: state.postings.vocab.version, plurals: pluralsVersion, derived });
  return derived;
}
