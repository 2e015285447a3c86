/**
 * What the worker of `svc-search/local` fetches only when a file or a request needs it: the engine's optional features
 * (`src/engine/features.ts`: filters, synonyms, the standard language tables, geo search, the warm-up and the one-word
 * path of large indices, browsing, the hits' ranking info) and the settings validation, each a chunk of its own that these functions import and install in the
 * engine. A search then finds its code installed; `svc-search/engine` (the service) installs all of them up front
 * instead.
 */
import {
  asksForFilters,
  asksForGeo,
  FILTER_PARAMETERS,
  GEO_PARAMETERS,
  installFeature,
  LARGE_INDEX_AT,
  WARM_UP_AT,
} from '../engine/features.js';
import type { BundleDictionaries, IndexBundle } from '../engine/bundle.js';
import type { ReadBundle } from '../engine/bundle-read.js';
import type { Dictionaries } from '../engine/dictionaries.js';
import type { RawParams } from '../engine/rules.js';
import { type DictionaryReader, StandardDictionaries } from '../engine/standard-dictionaries.js';
import { flag } from './shared.js';

/**
 * What a rule's consequence names when applying it filters the search: a filter parameter it adds, or records it pins
 * or hides (`applyRules` excludes them with `NOT objectID:…`, `searchWithPins` finds a pinned one with `objectID:…`).
 */
const RULE_FILTERS = [...FILTER_PARAMETERS, 'optionalFilters', 'promote', 'hide'] as const;

/** The parameters (and settings) that read the standard language tables. */
const LANGUAGE_FEATURES = ['removeStopWords', 'ignorePlurals'] as const;

/**
 * Fetches the settings validation (a chunk of its own) and installs it in the engine.
 */
async function loadSettingsValidation(): Promise<void> {
  const { validateSettings, validateSettingValue } = await import('../engine/settings-validation.js');
  installFeature('settingsValidation', { validateSettings, validateSettingValue });
}

/**
 * Fetches the filters (the filter language's parser and the evaluation of a filter to the records it keeps: a chunk
 * of their own) and installs them in the engine.
 */
async function loadFilters(): Promise<void> {
  const [{ filterBits, evaluateFilter }, { buildOptionalFilters }] = await Promise.all([
    import('../engine/filter-bits.js'),
    import('../engine/filters.js'),
  ]);
  installFeature('filters', { filterBits, evaluateFilter, buildOptionalFilters });
}

/** Whether parameters filter the records or score them by filters (`optionalFilters`). */
function asksForAnyFilter(raw: RawParams): boolean {
  return asksForFilters(raw) || (raw.optionalFilters !== undefined && raw.optionalFilters !== null);
}

/** Fetches synonyms (the expansion and the alternatives of several words: a chunk of their own) and installs them. */
async function loadSynonyms(): Promise<void> {
  const [{ buildExpansion }, { spanMatches, markSpans }] = await Promise.all([
    import('../engine/synonyms.js'),
    import('../engine/spans.js'),
  ]);
  installFeature('synonyms', { buildExpansion, spanMatches, markSpans });
}

/** Fetches the standard stop words and plural rules (a chunk of their own) and installs them in the engine. */
async function loadLanguageTables(): Promise<void> {
  const { STANDARD_STOP_WORDS, pluralForms } = await import('../engine/language-tables.js');
  installFeature('languageTables', { STANDARD_STOP_WORDS, pluralForms });
}

/** Whether parameters or settings turn on stop word removal or plurals (`true` or a list of languages). */
function asksForLanguages(values: Record<string, unknown>): boolean {
  return LANGUAGE_FEATURES.some((name) => {
    const value = values[name];
    return (
      value === true ||
      value === 'true' ||
      (Array.isArray(value) && value.length > 0) ||
      (typeof value === 'string' && value !== 'false' && value !== '')
    );
  });
}

/** Fetches geo search (a chunk of its own) and installs it in the engine. */
async function loadGeo(): Promise<void> {
  const { parseGeo, geoFilter } = await import('../engine/geo.js');
  installFeature('geo', { parseGeo, geoFilter });
}

/**
 * Fetches browsing (`browse` and its cursor: a chunk of its own, which a page of search elements never needs) and
 * installs it in the engine, with the filters: a cursor carries the parameters of the browse's first call, filters
 * included, which the call that gives it does not show (a cursor kept from an earlier page or another worker).
 *
 * @example
 * await loadBrowse();
 */
export async function loadBrowse(): Promise<void> {
  const [{ browse }] = await Promise.all([import('../engine/browse.js'), loadFilters()]);
  installFeature('browse', { browse });
}

/** Fetches the hits' `_rankingInfo` (a chunk of its own) and installs it in the engine. */
async function loadRankingInfo(): Promise<void> {
  const { rankingInfo } = await import('../engine/ranking-info.js');
  installFeature('rankingInfo', { rankingInfo });
}

/**
 * Fetches what only large indices use — the warm-up and the one-word path on bits (`one-word.ts`, with the walk of
 * several words, `many-words.ts`), chunks of their own — and installs them in the engine, with the filters (which the warm-up's filtered searches then compile too,
 * as in the service: a large index's first filtered search then runs compiled code; a few kB next to the megabytes of
 * such a file).
 */
async function loadWarmUp(): Promise<void> {
  const [{ warmUp }, { rankOneWord }] = await Promise.all([
    import('../engine/warm-up.js'),
    import('../engine/one-word.js'),
    loadFilters(),
  ]);
  installFeature('warmUp', { warmUp });
  installFeature('orderWalks', { rankOneWord });
}

/** Fetches the search path's speed-ups for large indices (`large-index.ts`, a chunk of its own) and installs them. */
async function loadLargeIndex(): Promise<void> {
  installFeature('largeIndex', await import('../engine/large-index.js'));
}

/**
 * Loads what a file's indices use: the settings validation for settings given in code (`fromCode`), synonyms for an
 * index with some, the filters for rules that add a filter or pin or hide records, the language tables for settings or rules that turn on `removeStopWords` or `ignorePlurals`, geo
 * search for rules that give a geo area, the ranking info for rules that name `getRankingInfo`, the search path's
 * speed-ups for an index of `LARGE_INDEX_AT` records or more, the warm-up, the one-word path (and the filters the
 * warm-up's searches use) for an index of `WARM_UP_AT` records or more.
 *
 * @example
 * await loadForBundle(bundle, !isFromFile(bundle));
 */
export async function loadForBundle(bundle: IndexBundle | ReadBundle, fromCode: boolean): Promise<void> {
  const rules = JSON.stringify(bundle.indices.map((entry) => entry.rules));
  const named = (names: readonly string[]) => names.some((name) => rules.includes(`"${name}"`));
  const loads: Array<Promise<void>> = [];
  if (fromCode) loads.push(loadSettingsValidation());
  if (bundle.indices.some((entry) => entry.synonyms.length > 0)) loads.push(loadSynonyms());
  if (named(RULE_FILTERS)) loads.push(loadFilters());
  if (named(LANGUAGE_FEATURES) || bundle.indices.some((entry) => asksForLanguages(entry.settings)))
    loads.push(loadLanguageTables());
  if (named(GEO_PARAMETERS)) loads.push(loadGeo());
  if (named(['getRankingInfo'])) loads.push(loadRankingInfo());
  const largest = Math.max(0, ...bundle.indices.map((entry) => entry.records?.length ?? 0));
  if (largest >= LARGE_INDEX_AT) loads.push(loadLargeIndex());
  if (largest >= WARM_UP_AT) loads.push(loadWarmUp());
  await Promise.all(loads);
}

/**
 * Loads what requests' parameters use: the filters for a filter (`filters`, `facetFilters`, `numericFilters`,
 * `tagFilters`, `optionalFilters`), geo search for a geo area, the language tables for `removeStopWords` or
 * `ignorePlurals`, the ranking info for `getRankingInfo`, the settings validation for a `renderingContent` (checked as
 * the service checks it).
 *
 * @example
 * await loadForRequests([{ query: 'chair', aroundLatLng: '48.85, 2.35' }]);
 */
export async function loadForRequests(given: readonly RawParams[]): Promise<void> {
  const loads: Array<Promise<void>> = [];
  if (given.some((raw) => raw.renderingContent !== undefined && raw.renderingContent !== null))
    loads.push(loadSettingsValidation());
  if (given.some(asksForAnyFilter)) loads.push(loadFilters());
  if (given.some((raw) => asksForGeo(raw))) loads.push(loadGeo());
  if (given.some((raw) => asksForLanguages(raw))) loads.push(loadLanguageTables());
  if (given.some((raw) => flag(raw.getRankingInfo))) loads.push(loadRankingInfo());
  await Promise.all(loads);
}

/**
 * The dictionaries every index of the worker reads, one set as the service's indices share one: the standard entries
 * until a file brings custom ones, then the engine's `Dictionaries` holding them (a chunk of its own,
 * `custom-dictionaries.ts`, fetched then). Indices read through this object, so one loaded before such a file sees
 * its entries too (a new compound map re-indexes it, new stop words and plurals bump the versions its caches compare).
 *
 * @example
 * const dictionaries = new WorkerDictionaries();
 * if (bundle.dictionaries) await dictionaries.add(bundle.dictionaries, !isFromFile(bundle));
 * new IndexCore('products', { dictionaries });
 */
export class WorkerDictionaries implements DictionaryReader {
  #standard = new StandardDictionaries();
  #custom: Dictionaries | null = null;

  get versions(): DictionaryReader['versions'] {
    return (this.#custom ?? this.#standard).versions;
  }

  stopWords(languages: readonly string[]): ReadonlySet<string> {
    return (this.#custom ?? this.#standard).stopWords(languages);
  }

  pluralForms(word: string, languages: readonly string[]): string[] {
    return (this.#custom ?? this.#standard).pluralForms(word, languages);
  }

  compounds(languages: readonly string[]): ReadonlyMap<string, readonly string[]> {
    return (this.#custom ?? this.#standard).compounds(languages);
  }

  /** Adds a file's custom entries (checked when given in code: a 400 for malformed ones). */
  async add(custom: BundleDictionaries, fromCode: boolean): Promise<void> {
    const { withCustomEntries } = await import('./custom-dictionaries.js');
    this.#custom = withCustomEntries(this.#custom, custom, fromCode);
  }
}
