/**
 * Reading the custom dictionaries (document 1, Dictionaries): the entry search (every query word a prefix of
 * a word of the entry, sorted by language, then word, then objectID) and the number of custom entries per
 * language of each dictionary.
 */
import {
  DICTIONARY_NAMES,
  type DictionaryEntry,
  type DictionaryName,
  type Dictionaries as EngineDictionaries,
  LANGUAGES,
  supportsLanguage,
  tokenize,
} from '../engine/index.js';
import type { DictionarySearch } from './validate.js';

/** The normalised words of an entry (what a dictionary search matches). */
function entryWords(entry: DictionaryEntry): string[] {
  const texts =
    'words' in entry ? entry.words : 'decomposition' in entry ? [entry.word, ...entry.decomposition] : [entry.word];
  return texts.flatMap((text) => tokenize(text));
}

function sortKey(entry: DictionaryEntry): string {
  return ('words' in entry ? (entry.words[0] ?? '') : entry.word).toLowerCase();
}

/**
 * The entries of a dictionary matching a search, one page of them.
 *
 * @example
 * searchEntries(dictionaries.engine, 'stopwords', { query: 'th', page: 0, hitsPerPage: 20 }).nbHits
 */
export function searchEntries(engine: EngineDictionaries, name: DictionaryName, search: DictionarySearch) {
  const { query, page, hitsPerPage, language } = search;
  const queryWords = tokenize(query);
  const matching = [...engine.entries(name).values()]
    .filter((entry) => language === undefined || entry.language === language)
    .filter((entry) => {
      if (queryWords.length === 0) return true;
      const words = entryWords(entry);
      return queryWords.every((queryWord) => words.some((w) => w.startsWith(queryWord)));
    })
    .sort(
      (a, b) =>
        a.language.localeCompare(b.language) ||
        sortKey(a).localeCompare(sortKey(b)) ||
        (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0),
    );
  const from = page * hitsPerPage;
  return {
    hits: matching.slice(from, from + hitsPerPage),
    nbHits: matching.length,
    page,
    nbPages: Math.ceil(matching.length / hitsPerPage),
  };
}

/**
 * For each language, the number of custom entries of each dictionary (`null` where the language has no
 * such dictionary).
 *
 * @example
 * languageCounts(dictionaries.engine).en // { plurals: { nbCustomEntries: 0 }, stopwords: …, compounds: null }
 */
export function languageCounts(engine: EngineDictionaries) {
  const counts = Object.fromEntries(
    DICTIONARY_NAMES.map((name) => {
      const byLanguage = new Map<string, number>();
      for (const entry of engine.entries(name).values())
        byLanguage.set(entry.language, (byLanguage.get(entry.language) ?? 0) + 1);
      return [name, byLanguage];
    }),
  ) as Record<DictionaryName, Map<string, number>>;
  const answer: Record<string, Record<DictionaryName, { nbCustomEntries: number } | null>> = {};
  for (const language of LANGUAGES) {
    const one = (name: DictionaryName) =>
      supportsLanguage(name, language) ? { nbCustomEntries: counts[name].get(language) ?? 0 } : null;
    answer[language] = { plurals: one('plurals'), stopwords: one('stopwords'), compounds: one('compounds') };
  }
  return answer;
}
