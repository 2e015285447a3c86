/**
 * Language dictionaries (document 1, "Dictionary entries"): the standard entries the engine ships and the
 * custom entries of an application, as the engine reads them at query and indexing time.
 *
 * - **stop words**: the standard list of a language (English only here) minus the languages whose
 *   standard entries are disabled (`disableStandardEntries.stopwords`), minus custom entries with state
 *   `disabled`, plus custom entries with state `enabled`;
 * - **plurals**: the words of a custom entry are forms of one another; a custom entry replaces the
 *   standard forms (English rules of `normalize.ts`) of every word it holds;
 * - **compounds**: a custom entry with a non-empty `decomposition` splits `word` into its parts (records
 *   are indexed with the parts too, queries are split); an empty decomposition marks an atom, which has
 *   no effect here because the engine has no standard decompounding to stop.
 *
 * One `Dictionaries` object is shared by every index of a service; each change bumps the version of its
 * dictionary, and the derived word sets are cached per language list and version.
 */
import type { BundleDictionaries } from './bundle.js';
import { feature } from './features.js';
import { tokenize } from './normalize.js';
import { type DictionaryReader, NO_COMPOUNDS, STANDARD_PLURAL_LANGUAGES } from './standard-dictionaries.js';

export const DICTIONARY_NAMES = ['stopwords', 'plurals', 'compounds'] as const;
export type DictionaryName = (typeof DICTIONARY_NAMES)[number];

export interface StopwordEntry {
  objectID: string;
  language: string;
  word: string;
  state: 'enabled' | 'disabled';
}
export interface PluralEntry {
  objectID: string;
  language: string;
  words: string[];
}
export interface CompoundEntry {
  objectID: string;
  language: string;
  word: string;
  decomposition: string[];
}
export interface EntryOf {
  stopwords: StopwordEntry;
  plurals: PluralEntry;
  compounds: CompoundEntry;
}
export type DictionaryEntry = StopwordEntry | PluralEntry | CompoundEntry;

/** Language codes of the hosted API family's dictionaries (its `SupportedLanguage`). */
export const LANGUAGES: readonly string[] = [
  'af',
  'ar',
  'az',
  'bg',
  'bn',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'eo',
  'es',
  'et',
  'eu',
  'fa',
  'fi',
  'fo',
  'fr',
  'ga',
  'gl',
  'he',
  'hi',
  'hu',
  'hy',
  'id',
  'is',
  'it',
  'ja',
  'ka',
  'kk',
  'ko',
  'ku',
  'ky',
  'lt',
  'lv',
  'mi',
  'mn',
  'mr',
  'ms',
  'mt',
  'nb',
  'nl',
  'no',
  'ns',
  'pl',
  'ps',
  'pt',
  'pt-br',
  'qu',
  'ro',
  'ru',
  'sk',
  'sq',
  'sv',
  'sw',
  'ta',
  'te',
  'th',
  'tl',
  'tn',
  'tr',
  'tt',
  'uk',
  'ur',
  'uz',
  'zh',
];
/** Languages with word segmentation (decompounding) in the hosted API family: the only ones with a compounds dictionary. */
export const COMPOUND_LANGUAGES: readonly string[] = ['da', 'de', 'fi', 'nb', 'nl', 'no', 'sv'];

// `@__PURE__`: a bundle that never asks which languages exist (the browser worker) leaves the list out
const LANGUAGE_SET = /* @__PURE__ */ new Set(LANGUAGES);
const COMPOUND_SET = new Set(COMPOUND_LANGUAGES);

/**
 * True when the dictionary exists for the language (stop words and plurals: every language of
 * {@link LANGUAGES}; compounds: {@link COMPOUND_LANGUAGES}).
 * @example supportsLanguage('compounds', 'en') // false
 */
export function supportsLanguage(name: DictionaryName, language: string): boolean {
  return name === 'compounds' ? COMPOUND_SET.has(language) : LANGUAGE_SET.has(language);
}

/** A word of an entry as the engine compares it with query and record tokens (normalised; '' when it is not one token). */
export function entryToken(word: string): string {
  const tokens = tokenize(word);
  return tokens.length === 1 ? tokens[0]! : '';
}

/**
 * @example
 * const dictionaries = new Dictionaries();
 * dictionaries.replace('stopwords', [{ objectID: 's1', language: 'en', word: 'chair', state: 'enabled' }]);
 * dictionaries.stopWords(['en']).has('chair') // true
 */
export class Dictionaries implements DictionaryReader {
  /** Bumped on each change of a dictionary (caches compare them). */
  readonly versions: Record<DictionaryName, number> = { stopwords: 0, plurals: 0, compounds: 0 };
  #entries: { [N in DictionaryName]: Map<string, EntryOf[N]> } = {
    stopwords: new Map(),
    plurals: new Map(),
    compounds: new Map(),
  };
  /** Languages whose standard stop words are turned off. */
  #disabledStopwords = new Set<string>();
  #cache = new Map<string, { version: number; value: unknown }>();
  /** Compound maps are kept apart (never evicted by the other caches): an index re-indexes when the map it used changes identity. */
  #compoundCache = new Map<string, { version: number; value: ReadonlyMap<string, readonly string[]> }>();

  /** The custom entries of a dictionary, by objectID (do not mutate). */
  entries<N extends DictionaryName>(name: N): ReadonlyMap<string, EntryOf[N]> {
    return this.#entries[name];
  }

  /** Replaces every custom entry of a dictionary. */
  replace<N extends DictionaryName>(name: N, entries: Iterable<EntryOf[N]>): void {
    const map = new Map<string, EntryOf[N]>();
    for (const entry of entries) map.set(entry.objectID, entry);
    (this.#entries as Record<DictionaryName, Map<string, DictionaryEntry>>)[name] = map as Map<string, DictionaryEntry>;
    this.versions[name]++;
  }

  /** Number of custom entries of a dictionary in one language. */
  count(name: DictionaryName, language: string): number {
    let n = 0;
    for (const entry of this.#entries[name].values()) if (entry.language === language) n++;
    return n;
  }

  /** Languages whose standard stop words are disabled, sorted. */
  disabledStandardStopwords(): string[] {
    return [...this.#disabledStopwords].sort();
  }

  setDisabledStandardStopwords(languages: Iterable<string>): void {
    this.#disabledStopwords = new Set(languages);
    this.versions.stopwords++;
  }

  #cached<T>(name: DictionaryName, key: string, build: () => T): T {
    const id = `${name}\u0000${key}`;
    const hit = this.#cache.get(id);
    if (hit && hit.version === this.versions[name]) return hit.value as T;
    const value = build();
    if (this.#cache.size >= 64) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(id, { version: this.versions[name], value });
    return value;
  }

  /**
   * The stop words of the given languages: per language, the standard list (unless disabled) minus the
   * custom `disabled` entries plus the custom `enabled` ones.
   */
  stopWords(languages: readonly string[]): ReadonlySet<string> {
    return this.#cached('stopwords', languages.join(','), () => {
      const out = new Set<string>();
      for (const language of new Set(languages)) {
        const standard = feature('languageTables').STANDARD_STOP_WORDS[language];
        const words = new Set(this.#disabledStopwords.has(language) ? [] : (standard ?? []));
        const custom = [...this.#entries.stopwords.values()].filter((entry) => entry.language === language);
        for (const entry of custom) if (entry.state === 'disabled') words.delete(entryToken(entry.word));
        for (const entry of custom) if (entry.state !== 'disabled') words.add(entryToken(entry.word));
        for (const word of words) if (word) out.add(word);
      }
      return out;
    });
  }

  /** Custom plural groups of the given languages: word → the other words of the entries holding it. */
  #pluralGroups(languages: readonly string[]): ReadonlyMap<string, readonly string[]> {
    return this.#cached('plurals', languages.join(','), () => {
      const wanted = new Set(languages);
      const groups = new Map<string, Set<string>>();
      for (const entry of this.#entries.plurals.values()) {
        if (!wanted.has(entry.language)) continue;
        const words = [...new Set(entry.words.map(entryToken).filter(Boolean))];
        for (const word of words) {
          let group = groups.get(word);
          if (!group) {
            group = new Set();
            groups.set(word, group);
          }
          for (const other of words) if (other !== word) group.add(other);
        }
      }
      return new Map([...groups].map(([word, group]) => [word, [...group]]));
    });
  }

  /**
   * The other forms of a (normalised) query word under `ignorePlurals` in the given languages: the words
   * of the custom entries holding it, plus the standard forms (English rules) unless a custom entry holds
   * the word or the form (the custom entry replaces that standard entry).
   * @example
   * dictionaries.replace('plurals', [{ objectID: 'p', language: 'en', words: ['cactus', 'cacti'] }]);
   * dictionaries.pluralForms('cactus', ['en']) // ['cacti'] (the standard 'cactuses' is replaced)
   */
  pluralForms(word: string, languages: readonly string[]): string[] {
    const groups = this.#pluralGroups(languages);
    const out = new Set(groups.get(word) ?? []);
    if (!groups.has(word) && languages.some((language) => STANDARD_PLURAL_LANGUAGES.includes(language))) {
      for (const form of feature('languageTables').pluralForms(word)) if (!groups.has(form)) out.add(form);
    }
    out.delete(word);
    return [...out];
  }

  /**
   * Compound words of the given languages with a non-empty decomposition: normalised word → normalised
   * parts. The same object is returned while nothing changes (the index compares it to know whether it
   * must re-index).
   */
  compounds(languages: readonly string[]): ReadonlyMap<string, readonly string[]> {
    const wanted = languages.filter((language) => COMPOUND_SET.has(language));
    if (wanted.length === 0 || this.#entries.compounds.size === 0) return NO_COMPOUNDS;
    const key = [...new Set(wanted)].sort().join(',');
    const hit = this.#compoundCache.get(key);
    if (hit && hit.version === this.versions.compounds) return hit.value;
    const value = (() => {
      const set = new Set(wanted);
      const out = new Map<string, readonly string[]>();
      for (const entry of this.#entries.compounds.values()) {
        if (!set.has(entry.language)) continue;
        const word = entryToken(entry.word);
        const parts = entry.decomposition.flatMap((part) => tokenize(part)).filter((part) => part !== word);
        if (word && parts.length > 0) out.set(word, parts);
      }
      return out.size > 0 ? out : NO_COMPOUNDS;
    })();
    // Unchanged content keeps the old object, so an edit in another language does not re-index.
    const kept = hit && sameCompounds(hit.value, value) ? hit.value : value;
    this.#compoundCache.set(key, { version: this.versions.compounds, value: kept });
    return kept;
  }
}

function sameCompounds(a: ReadonlyMap<string, readonly string[]>, b: ReadonlyMap<string, readonly string[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [word, parts] of a) {
    const other = b.get(word);
    if (!other || other.length !== parts.length || other.some((part, i) => part !== parts[i])) return false;
  }
  return true;
}

/**
 * Adds a file's custom dictionaries to the engine's (entries by objectID, a later file's winning).
 *
 * @example
 * if (bundle.dictionaries) addDictionaries(dictionaries, bundle.dictionaries);
 */
export function addDictionaries(target: Dictionaries, custom: BundleDictionaries): void {
  for (const name of DICTIONARY_NAMES) {
    const given = custom[name] ?? [];
    if (given.length > 0) target.replace(name, [...target.entries(name).values(), ...given] as never);
  }
  const disabled = custom.disabledStandardStopwords ?? [];
  if (disabled.length > 0) target.setDisabledStandardStopwords([...target.disabledStandardStopwords(), ...disabled]);
}
