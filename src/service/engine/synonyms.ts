/**
 * Synonyms of an index (document 1, Synonyms): the stored objects and the query-word expansion map the
 * engine builds from them once per change (never per query).
 *
 * Expansion is single-word: a group member, input, word, correction or replacement that normalises to
 * more than one token is stored and returned but does not expand the query (see docs/notes/engine.md).
 */
import { tokenize } from './normalize.js';

export type Synonym =
  | { objectID: string; type: 'synonym'; synonyms: string[] }
  | { objectID: string; type: 'onewaysynonym'; input: string; synonyms: string[] }
  | { objectID: string; type: 'altcorrection1' | 'altcorrection2'; word: string; corrections: string[] }
  | { objectID: string; type: 'placeholder'; placeholder: string; replacements: string[] };

export const SYNONYM_TYPES = ['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder'] as const;

/** One alternative of a query word: a vocabulary word, counted with `typos`; `placeholder` = the `<word>` token. */
export interface Alternative {
  word: string;
  typos: number;
  placeholder: boolean;
}

/** Query word → its alternatives. */
export type Expansion = ReadonlyMap<string, readonly Alternative[]>;

function single(text: string): string | null {
  const tokens = tokenize(text);
  return tokens.length === 1 ? tokens[0]! : null;
}

/**
 * Builds the expansion map of a list of synonyms.
 *
 * @example
 * buildExpansion([{ objectID: 's', type: 'synonym', synonyms: ['couch', 'sofa'] }]).get('couch') // [{ word: 'sofa', typos: 0, placeholder: false }]
 */
export function buildExpansion(synonyms: readonly Synonym[]): Expansion {
  const out = new Map<string, Alternative[]>();
  const add = (from: string | null, to: string | null, typos: number, placeholder = false) => {
    if (from === null || to === null || (from === to && !placeholder)) return;
    let list = out.get(from);
    if (!list) out.set(from, (list = []));
    const existing = list.find((alt) => alt.word === to && alt.placeholder === placeholder);
    if (existing) existing.typos = Math.min(existing.typos, typos);
    else list.push({ word: to, typos, placeholder });
  };
  for (const s of synonyms) {
    switch (s.type) {
      case 'synonym': {
        const words = s.synonyms.map(single);
        for (const a of words) for (const b of words) add(a, b, 0);
        break;
      }
      case 'onewaysynonym':
        for (const to of s.synonyms) add(single(s.input), single(to), 0);
        break;
      case 'altcorrection1':
      case 'altcorrection2':
        for (const to of s.corrections) add(single(s.word), single(to), s.type === 'altcorrection1' ? 1 : 2);
        break;
      case 'placeholder': {
        const name = /^<(.+)>$/.exec(s.placeholder.trim());
        const token = name ? single(name[1]!) : null;
        for (const from of s.replacements) add(single(from), token, 0, true);
        break;
      }
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.typos - b.typos);
  return out;
}
