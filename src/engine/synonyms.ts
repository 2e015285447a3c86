/**
 * Synonyms of an index (document 1, Synonyms): the stored objects and the expansion the engine builds
 * from them once per change (never per query).
 *
 * Every rule is an *input* (the normalised words of a query text) and its *alternatives* (the words a
 * record may hold instead, counted with 0, 1 or 2 typos, or a placeholder token). Inputs and
 * alternatives may have several words: `{ synonyms: ['ny', 'new york'] }` makes the query word `ny`
 * match the phrase "new york" and the query words `new york` (consecutive, complete) match `ny`.
 * See docs/notes/engine.md, "Synonyms".
 */
import { tokenize } from './normalize.js';

export type Synonym =
  | { objectID: string; type: 'synonym'; synonyms: string[] }
  | { objectID: string; type: 'onewaysynonym'; input: string; synonyms: string[] }
  | { objectID: string; type: 'altcorrection1' | 'altcorrection2'; word: string; corrections: string[] }
  | { objectID: string; type: 'placeholder'; placeholder: string; replacements: string[] };

export const SYNONYM_TYPES = ['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder'] as const;

/**
 * One alternative of a query text: the words a record holds instead (one word, or a phrase: the words
 * next to each other, in order, in one attribute), counted with `typos`; for a placeholder, `words` is
 * the one token `name` of `<name>`.
 */
export interface Alternative {
  words: string[];
  typos: number;
  placeholder: boolean;
}

/** An input of one or more query words and its alternatives. */
export interface SpanRule {
  input: string[];
  alternatives: Alternative[];
}

export interface Expansion {
  /**
   * One query word → its one-word alternatives: matched inside the word's derivation, like a word of
   * the vocabulary.
   */
  words: ReadonlyMap<string, readonly Alternative[]>;
  /**
   * First word of an input → the rules starting with it that need a pass of their own: inputs of
   * several words (any alternatives) and one-word inputs with a phrase or placeholder alternative;
   * longest input first.
   */
  spans: ReadonlyMap<string, readonly SpanRule[]>;
  /** Number of rules (0: nothing to expand, queries skip the synonym steps). */
  size: number;
}

/** Normalised words of a text (empty when it has none). */
function wordsOf(text: string): string[] {
  return tokenize(text);
}

/**
 * Builds the expansion of a list of synonyms.
 *
 * @example
 * const e = buildExpansion([{ objectID: 's', type: 'synonym', synonyms: ['ny', 'new york'] }]);
 * e.spans.get('ny')   // [{ input: ['ny'], alternatives: [{ words: ['new', 'york'], typos: 0, placeholder: false }] }]
 * e.spans.get('new')  // [{ input: ['new', 'york'], alternatives: [{ words: ['ny'], typos: 0, placeholder: false }] }]
 */
export function buildExpansion(synonyms: readonly Synonym[]): Expansion {
  const rules = new Map<string, SpanRule>();
  const add = (from: string[], to: string[], typos: number, placeholder = false) => {
    if (from.length === 0 || to.length === 0) return;
    if (!placeholder && from.length === to.length && from.every((w, i) => w === to[i])) return;
    const key = from.join(' ');
    let rule = rules.get(key);
    if (!rule) {
      rule = { input: from, alternatives: [] };
      rules.set(key, rule);
    }
    const existing = rule.alternatives.find(
      (alt) =>
        alt.placeholder === placeholder && alt.words.length === to.length && alt.words.every((w, i) => w === to[i]),
    );
    if (existing) existing.typos = Math.min(existing.typos, typos);
    else rule.alternatives.push({ words: to, typos, placeholder });
  };
  for (const s of synonyms) {
    switch (s.type) {
      case 'synonym': {
        const members = s.synonyms.map(wordsOf);
        for (const a of members) for (const b of members) add(a, b, 0);
        break;
      }
      case 'onewaysynonym': {
        const input = wordsOf(s.input);
        for (const to of s.synonyms) add(input, wordsOf(to), 0);
        break;
      }
      case 'altcorrection1':
      case 'altcorrection2': {
        const word = wordsOf(s.word);
        for (const to of s.corrections) add(word, wordsOf(to), s.type === 'altcorrection1' ? 1 : 2);
        break;
      }
      case 'placeholder': {
        // the placeholder is one token `<name>` of the records; a name of several words matches nothing
        const name = /^<(.+)>$/.exec(s.placeholder.trim());
        const token = name ? wordsOf(name[1]!) : [];
        if (token.length !== 1) break;
        for (const from of s.replacements) add(wordsOf(from), token, 0, true);
        break;
      }
    }
  }
  const words = new Map<string, Alternative[]>();
  const spans = new Map<string, SpanRule[]>();
  for (const rule of rules.values()) {
    rule.alternatives.sort((a, b) => a.typos - b.typos);
    const oneWord = rule.alternatives.filter((alt) => !alt.placeholder && alt.words.length === 1);
    const others =
      rule.input.length === 1 ? rule.alternatives.filter((alt) => !oneWord.includes(alt)) : rule.alternatives;
    if (rule.input.length === 1 && oneWord.length) words.set(rule.input[0]!, oneWord);
    if (others.length) {
      const first = rule.input[0]!;
      let list = spans.get(first);
      if (!list) {
        list = [];
        spans.set(first, list);
      }
      list.push({ input: rule.input, alternatives: others });
    }
  }
  for (const list of spans.values()) list.sort((a, b) => b.input.length - a.input.length);
  return { words, spans, size: rules.size };
}
