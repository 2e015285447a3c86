/**
 * Matching: the query's words against the inverted index and the filters. One pass over the postings
 * of every derived term fills the per-record scratch — matched words mask, typos, exact words, best
 * attribute — then the candidates are collected (with `optionalWords` and `removeWordsIfNoResults`),
 * and exclusions, phrases, restricted attributes, `typoTolerance` min/strict and geo narrow them.
 */
import { derive, type Derived } from './derive.js';
import { asksForFilters, asksForGeo, feature, optionalFeature } from './features.js';
import type { GeoQuery } from './geo.js';
import type { IndexState } from './index-state.js';
import type { SearchParams } from './params.js';
import { ATTR_MASK, REPEATED } from './postings.js';
import { decompoundQuery, parseQuery, removeStopWords, type Effective } from './query.js';
import type { SpanMatch } from './spans.js';

/** One query being answered: its words, their derivations, the candidates and what ranking needs. */
export interface Execution {
  eff: Effective;
  words: string[];
  derived: Derived[];
  /** Synonym alternatives of several words or for several query words (empty without such synonyms). */
  spans: SpanMatch[];
  candidates: Uint32Array;
  /** Mask of words a record must match. */
  required: number;
  /** One bit set per `optionalFilters` entry (the `filters` criterion counts matches). */
  optional?: Uint32Array[];
  /** Geo search of the query (distances of the candidates are in `geoDist`). */
  geo?: GeoQuery;
  /** Personalised query: the record's profile score and the impact (`personalization.ts`). */
  personal?: { filtersScore: (doc: number) => number; impact: number };
  /**
   * A one-word query whose matching waits (`execute` with `deferOneWord`): `candidates` is empty until
   * `matchDeferred`, unless `rankOneWord` (`one-word.ts`) answers it on bits. `filter`: the filters' bits.
   */
  oneWord?: { filter: Uint32Array | null };
}

/**
 * Matches the query and filters: fills the per-record scratch (matched words mask, typos, exact
 * words, best attribute) and returns the candidate records. The caller must call `release(state, exec)`.
 * `deferOneWord`: a plain one-word query (no exclusion, phrase, restricted attributes, geo or
 * `typoTolerance` min/strict) is left unmatched (`exec.oneWord`) for `rankOneWord`, else `matchDeferred`.
 * @example const exec = execute(state, params, eff); try { … } finally { release(state, exec); }
 */
export function execute(state: IndexState, params: SearchParams, eff: Effective, deferOneWord = false): Execution {
  // geo search is a feature of its own (`features.ts`), loaded when a request gives a geo area
  const geo = asksForGeo(params) ? feature('geo').parseGeo(params) : null;
  const exec = executeMatch(state, params, eff, deferOneWord && !geo);
  if (geo) {
    exec.geo = geo;
    const lat = state.column('_geoloc.lat');
    const lng = state.column('_geoloc.lng');
    if (state.geoDist.length < state.capacity) state.geoDist = new Float64Array(state.capacity);
    exec.candidates = feature('geo').geoFilter(exec.candidates, geo, lat, lng, state.geoDist);
  }
  return exec;
}

function executeMatch(state: IndexState, params: SearchParams, eff: Effective, deferOneWord = false): Execution {
  state.refresh();
  // the filters are a feature of their own (`features.ts`), loaded when a request or a rule gives one
  const filter = asksForFilters(params) ? feature('filters').filterBits(state, params) : null;
  const parsed = parseQuery(eff.query, eff.advancedSyntax);
  if (eff.removeStopWords)
    removeStopWords(parsed, eff.queryType === 'prefixLast', state.dictionaries.stopWords(eff.removeStopWords));
  if (eff.decompoundQuery && state.indexCompounds.size > 0) {
    // only the languages the records were decompounded in: a split query must still find the compound
    const indexed = state.indexLanguages();
    decompoundQuery(parsed, state.dictionaries.compounds(eff.queryLanguages.filter((l) => indexed.includes(l))));
  }
  const words = parsed.words;
  if (words.length === 0 && parsed.excluded.length) {
    // only exclusions (advanced syntax "-word"): every record without them
    const all = executeMatch(state, { ...params, query: '' }, { ...eff, query: '', advancedSyntax: false });
    return { ...all, candidates: withoutExcluded(state, all.candidates, parsed.excluded) };
  }
  if (words.length === 0) {
    const ids: number[] = [];
    const n = state.records.length;
    if (filter) {
      for (let w = 0; w < filter.length; w++) {
        let bits = filter[w]!;
        while (bits) {
          const low = bits & -bits;
          ids.push((w << 5) + 31 - Math.clz32(low));
          bits ^= low;
        }
      }
    } else {
      const all = new Uint32Array(state.liveCount);
      let k = 0;
      const alive = state.alive;
      for (let id = 0; id < n; id++) if (alive[id]) all[k++] = id;
      return { eff, words, derived: [], spans: [], candidates: all, required: 0 };
    }
    return { eff, words, derived: [], spans: [], candidates: Uint32Array.from(ids), required: 0 };
  }
  const derived = words.map((w, i) => {
    const prefix = eff.queryType === 'prefixAll' || (eff.queryType === 'prefixLast' && i === words.length - 1);
    return derive(state, w, prefix && !parsed.exactOnly[i], eff, parsed.exactOnly[i], eff.noTypoWords.has(w));
  });
  const spans = state.expansion.size > 0 ? feature('synonyms').spanMatches(state, parsed, eff) : [];
  const all = words.length >= 31 ? 0x7fffffff : (1 << words.length) - 1;
  let optionalMask = 0;
  words.forEach((w, i) => {
    if (eff.optionalWords.has(w)) optionalMask |= 1 << i;
  });
  // two words: their positions are kept while matching, so proximity rarely reads a record's tokens
  // (with the speed-ups of large indices, `large-index.ts`)
  state.wordKeysActive =
    words.length === 2 &&
    spans.length === 0 &&
    (optionalFeature('largeIndex')?.keepsPositions(state, derived) ?? false);
  if (state.wordKeysActive && state.wordKeys.length < state.capacity * 2)
    state.wordKeys = new Uint32Array(state.capacity * 2);
  // without span alternatives each word's sources are all in its derivation; with them, `matchWithSpans`
  // one word: its records are collected while they are matched (no second pass)
  const single = words.length === 1 && spans.length === 0;
  const restrict = params.restrictSearchableAttributes;
  const restricted = Array.isArray(restrict) && restrict.length > 0;
  // nothing below narrows a plain one-word query's candidates: its matching can wait for the caller
  const defer =
    deferOneWord &&
    single &&
    !parsed.excluded.length &&
    !parsed.phrases.length &&
    !restricted &&
    eff.typoTolerance !== 'min' &&
    eff.typoTolerance !== 'strict';
  let tc = 0;
  if (spans.length) tc = matchWithSpans(state, derived, spans);
  else if (defer) {
    state.matchedAll = true;
    state.wordKeysActive = false;
  } else if (single) matchOneWord(state, derived[0]!, filter);
  else tc = matchWords(state, derived, all & ~optionalMask, eff.removeWords === 'none');
  const match = state.match;
  const touched = state.touched;
  // the candidates go to the index's candidate buffer: valid until the next query
  const alive = state.alive;
  const buffer = state.candidates;
  const collect = (required: number): Uint32Array => {
    if (single) return buffer.subarray(0, state.collected);
    let k = 0;
    for (let j = 0; j < tc; j++) {
      const doc = touched[j]!;
      const m = match[doc << 1]! & 0xffff;
      if ((m & required) !== required || !alive[doc]) continue;
      if (filter && (filter[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
      buffer[k++] = doc;
    }
    return buffer.subarray(0, k);
  };
  let required = all & ~optionalMask;
  let cands = defer ? buffer.subarray(0, 0) : collect(required);
  if (cands.length === 0 && words.length > 1 && eff.removeWords !== 'none') {
    // removing words needs every record's matches, not only those of the records holding all words
    if (state.matchedAll === false) tc = matchWords(state, derived, 0, false);
    if (eff.removeWords === 'allOptional') {
      required = 0;
      cands = collect(0);
    } else {
      for (let drop = 1; drop < words.length && cands.length === 0; drop++) {
        let keep = 0;
        for (let i = 0; i < words.length; i++) {
          const dropped = eff.removeWords === 'lastWords' ? i >= words.length - drop : i < drop;
          if (!dropped) keep |= 1 << i;
        }
        required = keep & ~optionalMask;
        cands = collect(required);
      }
    }
  }
  // term → query words bit mask, for restrictSearchableAttributes, proximity and highlighting
  markTerms(state, derived, true);
  if (spans.length) feature('synonyms').markSpans(state, spans, true);
  if (parsed.excluded.length && cands.length) cands = withoutExcluded(state, cands, parsed.excluded);
  if (parsed.phrases.length && cands.length)
    cands = cands.filter((doc) => parsed.phrases.every((phrase) => hasPhrase(state, doc, phrase)));
  if (restricted && cands.length) {
    const allowed = new Set(restrict as string[]);
    const fixed = state.searchable ? state.searchable.map((spec) => allowed.has(spec.name)) : null;
    cands = cands.filter((doc) => {
      const fields = fixed ?? state.specsFor(state.records[doc]!).map((spec) => allowed.has(spec.name));
      const { tokens, tokenStart } = state.postings;
      let got = 0;
      for (let t = tokenStart[doc]!; t < tokenStart[doc + 1]!; t++)
        if (fields[tokens[(t << 1) + 1]! >>> 16]) got |= state.termBits[tokens[t << 1]!]!;
      return got !== 0 && (got & required) === required;
    });
  }
  if (cands.length && (eff.typoTolerance === 'min' || eff.typoTolerance === 'strict')) {
    const typoOf = (d: number) => (match[(d << 1) + 1]! >>> 20) & 63;
    const distinctTypos = [...new Set(cands.map(typoOf))].sort((a, b) => a - b);
    const limit =
      eff.typoTolerance === 'min' ? distinctTypos[0]! : distinctTypos[Math.min(1, distinctTypos.length - 1)]!;
    cands = cands.filter((d) => typoOf(d) <= limit);
  }
  const exec: Execution = { eff, words, derived, spans, candidates: cands, required };
  if (defer) exec.oneWord = { filter };
  return exec;
}

/**
 * Matches a one-word query `execute` deferred (when `rankOneWord` declined it): the general path.
 * @example if (!rankOneWord(state, exec, crits, 20)) matchDeferred(state, exec);
 */
export function matchDeferred(state: IndexState, exec: Execution): void {
  const deferred = exec.oneWord;
  if (!deferred) return;
  exec.oneWord = undefined;
  matchOneWord(state, exec.derived[0]!, deferred.filter);
  exec.candidates = state.candidates.subarray(0, state.collected);
}

/**
 * Fills the per-record match words for the query words and returns the number of records touched
 * (in `state.touched`). Words are taken from the fewest postings to the most: with `required` words
 * (every candidate holds them), the first required word touches its records and the others only
 * update records that still hold every required word so far, so the big postings of a common word
 * write nothing for the records the rare word excluded; when the first word is rare against the
 * rest, the others are matched on the tokens of its records instead of their postings (see
 * `matchOnTokens` in `large-index.ts`). `complete`: the caller will not need the records that miss a required word
 * (else every record is touched, for `removeWordsIfNoResults`).
 */
function matchWords(state: IndexState, derived: Derived[], required: number, complete: boolean): number {
  nextGeneration(state);
  const n = derived.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const wordKeys = state.wordKeysActive ? state.wordKeys : null;
  if (!complete || required === 0 || n === 1) {
    state.matchedAll = true;
    let tc = 0;
    for (const i of order) tc = matchRanges(state, derived[i]!, 1 << i, tc, -1, wordKeys, i);
    return tc;
  }
  state.matchedAll = false;
  const counts = derived.map((d) => postingsOf(state, d));
  // required words first, fewest postings first; then the optional words
  order.sort((a, b) => ((required >>> b) & 1) - ((required >>> a) & 1) || counts[a]! - counts[b]!);
  const first = order[0]!;
  let tc = matchRanges(state, derived[first]!, 1 << first, 0, -1, wordKeys, first);
  // a rare first word: the others matched on its records' tokens (a speed-up of large indices, `large-index.ts`)
  if (optionalFeature('largeIndex')?.matchOnTokens(state, derived, order, counts, required, tc)) return tc;
  let done = 1 << first;
  for (const i of order.slice(1)) {
    tc = matchRanges(state, derived[i]!, 1 << i, tc, done, wordKeys, i);
    if ((required >>> i) & 1) done |= 1 << i;
  }
  return tc;
}

/**
 * The match loop of a one-word query, which also collects the candidates (live records passing the
 * filters) into `state.candidates` as it first reaches them (`state.collected` of them). It leaves
 * `state.touched` alone: with one word nothing reads it (no second pass, no words to remove).
 */
function matchOneWord(state: IndexState, d: Derived, filter: Uint32Array | null): void {
  nextGeneration(state);
  state.matchedAll = true;
  state.wordKeysActive = false;
  const gen = state.generation;
  const first = ((gen << 16) | 1) >>> 0;
  const match = state.match;
  const alive = state.alive;
  const buffer = state.candidates;
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  let k = 0;
  for (let r = 0; r < d.lo.length; r++) {
    const packedNew = ATTR_MASK + (d.typos[r]! << 20) + (d.exact[r]! << 26);
    const hi = d.hi[r]!;
    for (let s = 0; s < segments.length; s++) {
      const { data, off } = segments[s]!;
      const terms = off.length - 1;
      for (let p = d.lo[r]!; p < hi; p++) {
        const t = sorted[p]!;
        if (t >= terms) continue;
        const end = off[t + 1]!;
        for (let j = off[t]!; j < end; j += 2) {
          const doc = data[j]!;
          const slot = doc << 1;
          const a = data[j + 1]! & ATTR_MASK;
          if (match[slot]! >>> 16 !== gen) {
            // first reached by its best range: that range's typos and exactness
            match[slot] = first;
            match[slot + 1] = (packedNew & ~ATTR_MASK) | a;
            if (alive[doc] && (!filter || (filter[doc >>> 5]! & (1 << (doc & 31))) !== 0)) buffer[k++] = doc;
          } else {
            const packed = match[slot + 1]!;
            if (a < (packed & ATTR_MASK)) match[slot + 1] = (packed & ~ATTR_MASK) | a;
          }
        }
      }
    }
  }
  state.collected = k;
}

/**
 * The match loop of one query word: every posting of its ranges, in order of quality (the first range
 * that reaches a record gives its typos and exactness; the attribute key is the best of all).
 * `holding` < 0: any record is touched; else only records already holding every word of `holding`
 * are updated. With `wordKeys`, the word's posting key goes to `wordKeys[2 × id + wordSlot]`
 * (REPEATED when the word is in the record more than once), for `proximity`.
 */
function matchRanges(
  state: IndexState,
  d: Derived,
  bit: number,
  tc: number,
  holding: number,
  wordKeys: Uint32Array | null,
  wordSlot: number,
): number {
  const gen = state.generation;
  const genBits = (gen << 16) >>> 0;
  const match = state.match;
  const touched = state.touched;
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  const onlyHolding = holding >= 0;
  for (let r = 0; r < d.lo.length; r++) {
    const add = (d.typos[r]! << 20) + (d.exact[r]! << 26);
    const hi = d.hi[r]!;
    for (let s = 0; s < segments.length; s++) {
      const { data, off } = segments[s]!;
      const terms = off.length - 1;
      for (let p = d.lo[r]!; p < hi; p++) {
        const t = sorted[p]!;
        if (t >= terms) continue;
        const end = off[t + 1]!;
        for (let j = off[t]!; j < end; j += 2) {
          const slot = data[j]! << 1;
          const w = match[slot]!;
          let m: number;
          let packed: number;
          if (w >>> 16 !== gen) {
            if (onlyHolding) continue;
            touched[tc++] = slot >>> 1;
            m = 0;
            packed = ATTR_MASK;
          } else {
            m = w & 0xffff;
            if (onlyHolding && (m & holding) !== holding) continue;
            packed = match[slot + 1]!;
          }
          if ((m & bit) === 0) {
            match[slot] = (genBits | m | bit) >>> 0;
            packed += add;
          }
          const key = data[j + 1]!;
          const a = key & ATTR_MASK;
          if (a < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | a;
          match[slot + 1] = packed;
          if (wordKeys) {
            // the word's one position in the record, or REPEATED when it has several (see `proximity`);
            // a term can be in two of the word's ranges (the word itself, and as a prefix of itself)
            const at = slot + wordSlot;
            wordKeys[at] = (m & bit) === 0 || wordKeys[at] === key ? key : REPEATED;
          }
        }
      }
    }
  }
  return tc;
}

/**
 * A new query generation: the match words of earlier queries no longer count (see `IndexState.match`).
 * @example nextGeneration(state); state.match[doc << 1] = (state.generation << 16) | 1;
 */
export function nextGeneration(state: IndexState): void {
  if (++state.generation > 0xffff) {
    state.match.fill(0);
    state.generation = 1;
  }
}

/** Postings of a derived word over its ranges (dead records included: an estimate of its cost). */
function postingsOf(state: IndexState, d: Derived): number {
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  let total = 0;
  for (let r = 0; r < d.lo.length; r++) {
    for (const { off } of segments) {
      const terms = off.length - 1;
      for (let p = d.lo[r]!; p < d.hi[r]!; p++) {
        const t = sorted[p]!;
        if (t < terms) total += off[t + 1]! - off[t]!;
      }
    }
  }
  return total >>> 1;
}

/**
 * Matching with span alternatives. A span sets the bits of several query words, so the sources of
 * every word are taken in the order of their quality — 0 typos and exact, 0 typos and not exact
 * (prefixes, synonyms, spans), 1 typo, 2 typos — and the first source that sets a word's bit gives
 * its typos and exactness: the best one, as the word-by-word loop gives when sources are one word's.
 */
function matchWithSpans(state: IndexState, derived: Derived[], spans: SpanMatch[]): number {
  nextGeneration(state);
  state.matchedAll = true;
  let tc = 0;
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  const cursor = new Uint32Array(derived.length);
  // quality = typos × 2 + (not exact): typos are at most 2 (typo budget, altcorrection2), so 0…5
  for (let quality = 0; quality <= 5; quality++) {
    for (let i = 0; i < derived.length; i++) {
      const d = derived[i]!;
      let r = cursor[i]!;
      for (; r < d.lo.length && d.typos[r]! * 2 + 1 - d.exact[r]! <= quality; r++) {
        const add = (d.typos[r]! << 20) + (d.exact[r]! << 26);
        for (const { data, off } of segments) {
          const terms = off.length - 1;
          for (let p = d.lo[r]!; p < d.hi[r]!; p++) {
            const t = sorted[p]!;
            if (t < terms) tc = matchPostings(state, data, off[t]!, off[t + 1]!, 1 << i, add, tc);
          }
        }
      }
      cursor[i] = r;
    }
    for (const span of spans) {
      // a synonym is not exact; an alternative correction counts its typos once
      const typos = span.alternative.typos;
      if (typos * 2 + 1 === quality)
        tc = matchPostings(state, span.postings, 0, span.postings.length, span.mask, typos << 20, tc);
    }
  }
  return tc;
}

/** Sets the query-word bits `mask` on the records of postings `[id, attributeKey, …]` from `from` to `to`. */
function matchPostings(
  state: IndexState,
  data: Uint32Array,
  from: number,
  to: number,
  mask: number,
  add: number,
  tc: number,
): number {
  const gen = state.generation;
  const genBits = (gen << 16) >>> 0;
  const match = state.match;
  const touched = state.touched;
  for (let j = from; j < to; j += 2) {
    const slot = data[j]! << 1;
    const w = match[slot]!;
    let m: number;
    let packed: number;
    if (w >>> 16 !== gen) {
      touched[tc++] = slot >>> 1;
      m = 0;
      packed = ATTR_MASK;
    } else {
      m = w & 0xffff;
      packed = match[slot + 1]!;
    }
    if ((m & mask) !== mask) {
      match[slot] = (genBits | m | mask) >>> 0;
      packed += add;
    }
    const a = data[j + 1]! & ATTR_MASK;
    if (a < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | a;
    match[slot + 1] = packed;
  }
  return tc;
}

/**
 * Marks (or clears) the terms of span alternatives with the bits of the query words they stand for;
 * a one-word alternative of several query words also goes to `spanBits` (proximity: those words are

/**
 * Clears the marks a query left on the terms (the per-record scratch needs no clearing: see `match`).
 * @example const exec = execute(state, params, eff); try { … } finally { release(state, exec); }
 */
export function release(state: IndexState, exec: Execution): void {
  state.touchedCount = 0;
  markTerms(state, exec.derived, false);
  if (exec.spans.length) feature('synonyms').markSpans(state, exec.spans, false);
}

/** Candidates minus the records that contain one of the excluded words (advanced syntax `-word`). */
function withoutExcluded(state: IndexState, cands: Uint32Array, excluded: string[]): Uint32Array {
  const gen = ++state.stampGen;
  const stamp = state.stamp;
  for (const word of excluded) {
    const id = state.postings.vocab.id(word);
    if (id === undefined) continue;
    const postings = state.postings.termPostings(id);
    for (let j = 0; j < postings.length; j += 2) stamp[postings[j]!] = gen;
  }
  return cands.filter((d) => stamp[d] !== gen);
}

/** True when the record has the phrase's words next to each other, in order, in one attribute. */
function hasPhrase(state: IndexState, doc: number, phrase: number[]): boolean {
  const start = state.postings.tokenStart[doc]!;
  const end = state.postings.tokenStart[doc + 1]!;
  const tokens = state.postings.tokens;
  const termAt = (k: number) => tokens[k << 1]!;
  const placeAt = (k: number) => tokens[(k << 1) + 1]!;
  const bits = state.termBits;
  // positions never decrease along a record's tokens; the parts of a compound word share its position
  for (let a = start; a < end; a++) {
    if ((bits[termAt(a)]! & (1 << phrase[0]!)) === 0) continue;
    let ok = true;
    let b = a + 1;
    for (let k = 1; k < phrase.length && ok; k++) {
      const want = placeAt(a) + k;
      while (b < end && placeAt(b) < want) b++;
      ok = false;
      for (let t = b; t < end && placeAt(t) === want; t++) {
        if ((bits[termAt(t)]! & (1 << phrase[k]!)) !== 0) {
          ok = true;
          break;
        }
      }
    }
    if (ok) return true;
  }
  return false;
}

/** Sets (or clears) term id → query-word bits for every derived term (proximity reads them). */
function markTerms(state: IndexState, derived: Derived[], set: boolean): void {
  const bits = state.termBits;
  const sorted = state.postings.vocab.sortedTermIds;
  for (let i = 0; i < derived.length; i++) {
    const d = derived[i]!;
    const bit = 1 << i;
    for (let r = 0; r < d.lo.length; r++) {
      const hi = d.hi[r]!;
      if (set) for (let p = d.lo[r]!; p < hi; p++) bits[sorted[p]!]! |= bit;
      else for (let p = d.lo[r]!; p < hi; p++) bits[sorted[p]!] = 0;
    }
  }
}
