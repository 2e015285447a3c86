/**
 * The standard dictionary entries alone: what an index reads when the application has no custom dictionary entry
 * (`Dictionaries` of `dictionaries.ts` adds those, for the service and for a `.svcidx` that carries some). The
 * standard stop words and plural rules are the engine's language tables (`language-tables.ts`, a feature of its own
 * the browser worker loads with the first request that turns them on); there is no standard decompounding.
 */
import { feature } from './features.js';

/** Languages whose plural forms have standard rules in the engine (`pluralForms` of `language-tables.ts`). */
export const STANDARD_PLURAL_LANGUAGES: readonly string[] = ['en'];

/** The compound map of languages without compound entries (one object: an index compares it to know it is unchanged). */
export const NO_COMPOUNDS: ReadonlyMap<string, readonly string[]> = new Map();

/** What an index reads of its language dictionaries (`Dictionaries` and {@link StandardDictionaries} both give it). */
export interface DictionaryReader {
  /** Bumped on each change of a dictionary (caches compare them). */
  readonly versions: Readonly<Record<'stopwords' | 'plurals' | 'compounds', number>>;
  /** The stop words of the given languages. */
  stopWords(languages: readonly string[]): ReadonlySet<string>;
  /** The other forms of a (normalised) query word under `ignorePlurals` in the given languages. */
  pluralForms(word: string, languages: readonly string[]): string[];
  /** Compound words of the given languages: normalised word → normalised parts. */
  compounds(languages: readonly string[]): ReadonlyMap<string, readonly string[]>;
}

/**
 * The standard entries: the standard stop words of each language, the English plural rules, no compound. The same
 * answers as a `Dictionaries` without custom entries (`test/engine/dictionaries.node.test.ts` compares them).
 * @example
 * new StandardDictionaries().pluralForms('chair', ['en']) // ['chairs']
 */
export class StandardDictionaries implements DictionaryReader {
  /** Standard entries never change. */
  readonly versions = { stopwords: 0, plurals: 0, compounds: 0 } as const;
  readonly #stopWords = new Map<string, ReadonlySet<string>>();

  stopWords(languages: readonly string[]): ReadonlySet<string> {
    const key = languages.join(',');
    let words = this.#stopWords.get(key);
    if (!words) {
      const standard = feature('languageTables').STANDARD_STOP_WORDS;
      words = new Set(languages.flatMap((language) => [...(standard[language] ?? [])]));
      // a few language lists at a time (a request names its own): the oldest goes first
      if (this.#stopWords.size >= 64) this.#stopWords.delete(this.#stopWords.keys().next().value!);
      this.#stopWords.set(key, words);
    }
    return words;
  }

  pluralForms(word: string, languages: readonly string[]): string[] {
    if (!languages.some((language) => STANDARD_PLURAL_LANGUAGES.includes(language))) return [];
    return [...new Set(feature('languageTables').pluralForms(word))].filter((form) => form !== word);
  }

  compounds(_languages: readonly string[]): ReadonlyMap<string, readonly string[]> {
    return NO_COMPOUNDS;
  }
}
