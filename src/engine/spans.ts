/**
 * Synonym alternatives that stand for one or more consecutive query words (a phrase or placeholder
 * alternative of one word, or an input of several words): which runs of query words expand, the
 * postings of each alternative (phrases and placeholders cached per records/settings version), and
 * the term marks proximity and restricted attributes read. See `docs/notes/engine.md` ("Synonyms").
 */
import type { IndexState } from './index-state.js';
import { attributeKey } from './postings.js';
import type { Effective, ParsedQuery } from './query.js';
import { getValues } from './record-paths.js';
import type { SearchableSpec } from './settings.js';
import type { Alternative } from './synonyms.js';

/**
 * A synonym alternative that stands for one or more consecutive query words (one word with a phrase or
 * placeholder alternative, or an input of several words): a record holding it matches all of them.
 */
export interface SpanMatch {
  /** Bits of the query words it stands for. */
  mask: number;
  alternative: Alternative;
  /** Postings `[id, attributeKey, …]` of the records holding the alternative (a phrase: where it starts). */
  postings: Uint32Array;
  /** Term ids of the alternative's words (marked with `mask` for proximity and restricted attributes). */
  terms: number[];
}

/**
 * The span alternatives of a query: for each run of consecutive complete query words that is the
 * input of a rule (one word with phrase or placeholder alternatives, or several words), each
 * alternative with its postings. Quoted words (advanced syntax) take no synonyms; the last word
 * counts only when typed in full (it equals the input's word: a prefix being typed expands nothing).
 * @example spanMatches(state, parseQuery('new york pizza', false), eff) // [{ mask: 0b011, alternative: { words: ['ny'] }, … }]
 */
export function spanMatches(state: IndexState, parsed: ParsedQuery, eff: Effective): SpanMatch[] {
  const out: SpanMatch[] = [];
  if (!eff.synonyms || state.expansion.spans.size === 0) return out;
  const words = parsed.words;
  for (let i = 0; i < words.length; i++) {
    const rules = parsed.exactOnly[i] ? undefined : state.expansion.spans.get(words[i]!);
    if (!rules) continue;
    for (const rule of rules) {
      const len = rule.input.length;
      if (i + len > words.length) continue;
      let ok = true;
      for (let k = 1; k < len && ok; k++) ok = words[i + k] === rule.input[k] && !parsed.exactOnly[i + k];
      if (!ok) continue;
      const mask = ((1 << len) - 1) << i;
      for (const alternative of rule.alternatives) {
        const terms: number[] = [];
        for (const w of alternative.words) {
          const term = state.postings.vocab.id(w);
          if (term !== undefined) terms.push(term);
        }
        if (terms.length < alternative.words.length) continue;
        const postings = alternativePostings(state, alternative, terms);
        if (postings.length) out.push({ mask, alternative, postings, terms });
      }
    }
  }
  return out;
}

/**
 * Postings `[id, attributeKey, …]` of an alternative: a word's own postings; for a placeholder, the
 * postings of `name` in the records holding `<name>`; for a phrase, the records holding its words
 * next to each other, in order, in one attribute, with the attribute key of the phrase's best start.

/** Records with the token `<name>` in a searchable attribute (scanned once per records/settings version). */
function placeholderDocs(state: IndexState, name: string): Set<number> {
  const cached = state.placeholderCache.get(name);
  if (cached && cached.version === state.version) return cached.docs;
  const docs = new Set<number>();
  const re = new RegExp(`<\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*>`, 'i');
  const strings: unknown[] = [];
  for (let id = 0; id < state.records.length; id++) {
    const record = state.records[id];
    if (!record || !state.alive[id]) continue;
    for (const spec of state.specsFor(record)) {
      strings.length = 0;
      getValues(record, spec.path, 0, strings);
      if (strings.some((v) => typeof v === 'string' && re.test(v))) {
        docs.add(id);
        break;
      }
    }
  }
  state.placeholderCache.set(name, { version: state.version, docs });
  return docs;
}

/**
 * Postings `[id, attributeKey, …]` of an alternative: a word's own postings; for a placeholder, the
 * postings of `name` in the records holding `<name>`; for a phrase, the records holding its words
 * next to each other, in order, in one attribute, with the attribute key of the phrase's best start.
 * Phrases and placeholders are cached per records/settings version.
 */
function alternativePostings(state: IndexState, alternative: Alternative, terms: number[]): Uint32Array {
  const postingsOf = (term: number) => state.postings.termPostings(term);
  if (!alternative.placeholder && terms.length === 1) return postingsOf(terms[0]!);
  const key = (alternative.placeholder ? '<' : ' ') + alternative.words.join(' ');
  const cached = state.alternativeCache.get(key);
  if (cached && cached.version === state.version) return cached.postings;
  const out: number[] = [];
  if (alternative.placeholder) {
    const docs = placeholderDocs(state, alternative.words[0]!);
    const data = postingsOf(terms[0]!);
    for (let j = 0; j < data.length; j += 2) if (docs.has(data[j]!)) out.push(data[j]!, data[j + 1]!);
  } else {
    // records holding every word of the phrase (a stamp per word), then their positions checked
    const stamp = state.stamp;
    let gen = 0;
    for (let k = 0; k < terms.length; k++) {
      const prev = gen;
      gen = ++state.stampGen;
      const data = postingsOf(terms[k]!);
      for (let j = 0; j < data.length; j += 2) {
        const doc = data[j]!;
        if (k === 0 || stamp[doc] === prev) stamp[doc] = gen;
      }
    }
    const data = postingsOf(terms[terms.length - 1]!);
    for (let j = 0; j < data.length; j += 2) {
      const doc = data[j]!;
      if (stamp[doc] !== gen || !state.alive[doc]) continue;
      const best = phraseKey(state, doc, terms);
      if (best >= 0) out.push(doc, best);
    }
  }
  const postings = Uint32Array.from(out);
  state.alternativeCache.set(key, { version: state.version, postings });
  return postings;
}

/** Attribute key of the best place where the record holds the terms next to each other, in order (-1: nowhere). */
function phraseKey(state: IndexState, doc: number, terms: number[]): number {
  const start = state.postings.tokenStart[doc]!;
  const end = state.postings.tokenStart[doc + 1]!;
  const tokens = state.postings.tokens;
  const termAt = (k: number) => tokens[k << 1]!;
  const placeAt = (k: number) => tokens[(k << 1) + 1]!;
  let best = -1;
  let specs: SearchableSpec[] | null = null;
  // positions never decrease along a record's tokens; the parts of a compound word share its position
  for (let a = start; a < end; a++) {
    if (termAt(a) !== terms[0]) continue;
    let ok = true;
    let b = a + 1;
    for (let k = 1; k < terms.length && ok; k++) {
      const want = placeAt(a) + k;
      while (b < end && placeAt(b) < want) b++;
      ok = false;
      for (let t = b; t < end && placeAt(t) === want; t++) {
        if (termAt(t) === terms[k]) {
          ok = true;
          break;
        }
      }
    }
    if (!ok) continue;
    specs ??= state.searchable ?? state.specsFor(state.records[doc]!);
    const spec = specs[placeAt(a) >>> 16];
    if (!spec) continue;
    const key = attributeKey(spec, placeAt(a) & 0xffff);
    if (best < 0 || key < best) best = key;
  }
  return best;
}

/**
 * Marks (or clears) the terms of span alternatives with the bits of the query words they stand for;
 * a one-word alternative of several query words also goes to `spanBits` (proximity: those words are
 * next to each other in it).
 * @example markSpans(state, spans, true); // … rank …; markSpans(state, spans, false);
 */
export function markSpans(state: IndexState, spans: SpanMatch[], set: boolean): void {
  if (state.spanBits.length < state.termBits.length) state.spanBits = new Uint32Array(state.termBits.length);
  const bits = state.termBits;
  const spanBits = state.spanBits;
  for (const span of spans) {
    for (const term of span.terms) {
      if (set) {
        bits[term]! |= span.mask;
        if (span.terms.length === 1 && !span.alternative.placeholder) spanBits[term]! |= span.mask;
      } else {
        bits[term] = 0;
        spanBits[term] = 0;
      }
    }
  }
  state.spansActive = set;
}
