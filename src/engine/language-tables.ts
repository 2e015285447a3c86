/**
 * The engine's standard language tables: the built-in stop words (English) and the English plural rules. A search
 * reads them only under `removeStopWords` or `ignorePlurals`, so they are a feature of their own (`features.ts`):
 * `svc-search/engine` installs them, the browser worker when a file's settings or rules, or a request, ask for
 * either.
 */
import { isNumericToken } from './normalize.js';

/** The standard (built-in) stop words of each language the engine ships; English only. */
export const STANDARD_STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(
    (
      'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does ' +
      'doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself me more most my ' +
      'no nor not of off on once only or other our ours out over own same she should so some such than that the their theirs them then there these ' +
      'they this those through to too under until up very was we were what when where which while who whom why will with would you your yours'
    ).split(' '),
  ),
};

const IRREGULAR: Array<[string, string]> = [
  ['man', 'men'],
  ['woman', 'women'],
  ['child', 'children'],
  ['person', 'people'],
  ['mouse', 'mice'],
  ['foot', 'feet'],
  ['tooth', 'teeth'],
  ['goose', 'geese'],
  ['ox', 'oxen'],
  ['die', 'dice'],
];
const IRREGULAR_MAP = new Map<string, string>();
for (const [s, p] of IRREGULAR) {
  IRREGULAR_MAP.set(s, p);
  IRREGULAR_MAP.set(p, s);
}

/**
 * The other English forms of a word under the simple plural rules (`ignorePlurals`): both its
 * plural and its singular candidates; only forms that exist in the vocabulary will match anything.
 * @example pluralForms('chairs') // ['chair', …]
 */
export function pluralForms(word: string): string[] {
  if (word.length < 2 || isNumericToken(word)) return [];
  const out = new Set<string>();
  const irr = IRREGULAR_MAP.get(word);
  if (irr) out.add(irr);
  // singular candidates
  if (word.endsWith('ies') && word.length > 4) out.add(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves') && word.length > 4) {
    out.add(`${word.slice(0, -3)}f`);
    out.add(`${word.slice(0, -3)}fe`);
  }
  if (/(s|x|z|ch|sh|o)es$/.test(word)) out.add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 2) out.add(word.slice(0, -1));
  // plural candidates
  if (/(s|x|z|ch|sh)$/.test(word)) out.add(`${word}es`);
  else if (/[^aeiou]y$/.test(word)) out.add(`${word.slice(0, -1)}ies`);
  else if (word.endsWith('fe')) {
    out.add(`${word.slice(0, -2)}ves`);
    out.add(`${word}s`);
  } else if (word.endsWith('f')) {
    out.add(`${word.slice(0, -1)}ves`);
    out.add(`${word}s`);
  } else if (/[^aeiou]o$/.test(word)) {
    out.add(`${word}es`);
    out.add(`${word}s`);
  } else out.add(`${word}s`);
  out.delete(word);
  return [...out];
}
