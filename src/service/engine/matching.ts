/**
 * Matching: the query's words against the inverted index and the filters. One pass over the postings
 * of every derived term fills the per-record scratch — matched words mask, typos, exact words, best
 * attribute — then the candidates are collected (with `optionalWords` and `removeWordsIfNoResults`),
 * and exclusions, phrases, restricted attributes, `typoTolerance` min/strict and geo narrow them.
 */
import { derive, type Derived } from './derive.js';
import { filterBits } from './filter-bits.js';
import { geoFilter, parseGeo, type GeoQuery } from './geo.js';
import type { IndexState } from './index-state.js';
import type { SearchParams } from './params.js';
import { ATTR_MASK } from './postings.js';
import { decompoundQuery, parseQuery, removeStopWords, type Effective } from './query.js';
import { markSpans, spanMatches, type SpanMatch } from './spans.js';

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
}

/**
 * Matches the query and filters: fills the per-record scratch (matched words mask, typos, exact
 * words, best attribute) and returns the candidate records. The caller must call `release(state, exec)`.
 * @example const exec = execute(state, params, eff); try { … } finally { release(state, exec); }
 */
export function execute(state: IndexState, params: SearchParams, eff: Effective): Execution {
  const geo = parseGeo(params);
  const exec = executeMatch(state, params, eff);
  if (geo) {
    exec.geo = geo;
    const lat = state.column('_geoloc.lat');
    const lng = state.column('_geoloc.lng');
    if (state.geoDist.length < state.capacity) state.geoDist = new Float64Array(state.capacity);
    exec.candidates = geoFilter(exec.candidates, geo, lat, lng, state.geoDist);
  }
  return exec;
}

function executeMatch(state: IndexState, params: SearchParams, eff: Effective): Execution {
  state.refresh();
  const filter = filterBits(state, params);
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
  const spans = spanMatches(state, parsed, eff);
  if (++state.generation > 0xffff) {
    state.match.fill(0);
    state.generation = 1;
  }
  const gen = state.generation;
  const genBits = (gen << 16) >>> 0;
  const match = state.match;
  const touched = state.touched;
  let tc = 0;
  const segments = state.postings.segments;
  const sorted = state.postings.vocab.sortedTermIds;
  // without span alternatives each word's sources are all in its derivation: word by word, inline
  // (the hot loop of every query); with them, `matchWithSpans`
  if (spans.length) tc = matchWithSpans(state, derived, spans);
  else
    for (let i = 0; i < derived.length; i++) {
      const bit = 1 << i;
      const d = derived[i]!;
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
                touched[tc++] = slot >>> 1;
                m = 0;
                packed = ATTR_MASK;
              } else {
                m = w & 0xffff;
                packed = match[slot + 1]!;
              }
              if ((m & bit) === 0) {
                match[slot] = (genBits | m | bit) >>> 0;
                packed += add;
              }
              const a = data[j + 1]!;
              if (a < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | a;
              match[slot + 1] = packed;
            }
          }
        }
      }
    }
  state.touchedCount = tc;
  const all = words.length >= 31 ? 0x7fffffff : (1 << words.length) - 1;
  let optionalMask = 0;
  words.forEach((w, i) => {
    if (eff.optionalWords.has(w)) optionalMask |= 1 << i;
  });
  // the candidates go to the index's candidate buffer: valid until the next query
  const alive = state.alive;
  const buffer = state.candidates;
  const collect = (required: number): Uint32Array => {
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
  let cands = collect(required);
  if (cands.length === 0 && words.length > 1 && eff.removeWords !== 'none') {
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
  if (spans.length) markSpans(state, spans, true);
  if (parsed.excluded.length && cands.length) cands = withoutExcluded(state, cands, parsed.excluded);
  if (parsed.phrases.length && cands.length)
    cands = cands.filter((doc) => parsed.phrases.every((phrase) => hasPhrase(state, doc, phrase)));
  const restrict = params.restrictSearchableAttributes;
  if (Array.isArray(restrict) && restrict.length && cands.length) {
    const allowed = new Set(restrict as string[]);
    const fixed = state.searchable ? state.searchable.map((spec) => allowed.has(spec.name)) : null;
    cands = cands.filter((doc) => {
      const fields = fixed ?? state.specsFor(state.records[doc]!).map((spec) => allowed.has(spec.name));
      const start = state.postings.docTokStart[doc]!;
      const end = start + state.postings.docTokCount[doc]!;
      let got = 0;
      for (let t = start; t < end; t++)
        if (fields[state.postings.tokPos[t]! >>> 16]) got |= state.termBits[state.postings.tokTerms[t]!]!;
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
  return { eff, words, derived, spans, candidates: cands, required };
}

/**
 * Matching with span alternatives. A span sets the bits of several query words, so the sources of
 * every word are taken in the order of their quality — 0 typos and exact, 0 typos and not exact
 * (prefixes, synonyms, spans), 1 typo, 2 typos — and the first source that sets a word's bit gives
 * its typos and exactness: the best one, as the word-by-word loop gives when sources are one word's.
 */
function matchWithSpans(state: IndexState, derived: Derived[], spans: SpanMatch[]): number {
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
    const a = data[j + 1]!;
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
  if (exec.spans.length) markSpans(state, exec.spans, false);
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
  const start = state.postings.docTokStart[doc]!;
  const end = start + state.postings.docTokCount[doc]!;
  const terms = state.postings.tokTerms;
  const pos = state.postings.tokPos;
  const bits = state.termBits;
  // positions never decrease along a record's tokens; the parts of a compound word share its position
  for (let a = start; a < end; a++) {
    if ((bits[terms[a]!]! & (1 << phrase[0]!)) === 0) continue;
    let ok = true;
    let b = a + 1;
    for (let k = 1; k < phrase.length && ok; k++) {
      const want = pos[a]! + k;
      while (b < end && pos[b]! < want) b++;
      ok = false;
      for (let t = b; t < end && pos[t]! === want; t++) {
        if ((bits[terms[t]!]! & (1 << phrase[k]!)) !== 0) {
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
