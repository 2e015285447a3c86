/**
 * The search engine (`svc-search/engine`), shared by the service and the browser worker of `svc-search/local`;
 * no DOM, no Node API, no HTTP: see `docs/CONTRACTS.md` ("Engine").
 * @example
 * import { Index, parseSearchParams } from 'svc-search/engine';
 * const index = new Index('products');
 * index.saveObjects([{ objectID: '1', name: 'Wooden chair' }]);
 * index.search(parseSearchParams('query=chai')).nbHits // 1
 */
export { Index, type IndexRecord } from './search-index.js';
import { browse } from './browse.js';
import { evaluateFilter, filterBits } from './filter-bits.js';
import { buildOptionalFilters } from './filters.js';
import { installFeature } from './features.js';
import { pluralForms, STANDARD_STOP_WORDS } from './language-tables.js';
import { geoFilter, parseGeo } from './geo.js';
import * as largeIndex from './large-index.js';
import { rankOneWord } from './one-word.js';
import { personalizationFigures, personalScorer } from './personalization.js';
import { rankingInfo } from './ranking-info.js';
import { markSpans, spanMatches } from './spans.js';
import { buildExpansion } from './synonyms.js';
import { validateSettings, validateSettingValue } from './settings-validation.js';
import { addToOrder, flushOrder, insertAlpha, mergeNewSegment } from './upkeep.js';
import { warmUp } from './warm-up.js';

// Every optional part of the engine, installed (`features.ts`): the browser worker installs each only when needed.
installFeature('settingsValidation', { validateSettings, validateSettingValue });
installFeature('synonyms', { buildExpansion, spanMatches, markSpans });
installFeature('languageTables', { STANDARD_STOP_WORDS, pluralForms });
installFeature('geo', { parseGeo, geoFilter });
installFeature('filters', { filterBits, evaluateFilter, buildOptionalFilters });
installFeature('personalization', { personalScorer, personalizationFigures });
installFeature('warmUp', { warmUp });
installFeature('browse', { browse });
installFeature('rankingInfo', { rankingInfo });
installFeature('upkeep', { addToOrder, flushOrder, insertAlpha, mergeNewSegment });
installFeature('orderWalks', { rankOneWord });
installFeature('largeIndex', largeIndex);

export { EngineError, SnapshotError } from './errors.js';
export { checkResponseFields, skippedAnswer, withResponseFields } from './response-fields.js';
export { parseSearchParams, encodeSearchParams, isSearchParameter, type SearchParams } from './params.js';
export {
  personalizationFigures,
  type PersonalizationInput,
  type PersonalizationRankingInfo,
  type SearchOptions,
} from './personalization.js';
export { defaultSettings, DEFAULT_RANKING, type IndexSettings } from './settings.js';
export { validateSettings, KNOWN_SETTINGS } from './settings-validation.js';
export { parseFilters, buildFilterTree, type FilterNode } from './filters.js';
export { normalizeText, tokenize, escapeHtml } from './normalize.js';
export {
  addDictionaries,
  Dictionaries,
  DICTIONARY_NAMES,
  LANGUAGES,
  COMPOUND_LANGUAGES,
  supportsLanguage,
  type DictionaryName,
  type DictionaryEntry,
  type EntryOf,
  type StopwordEntry,
  type PluralEntry,
  type CompoundEntry,
} from './dictionaries.js';
export { buildExpansion, SYNONYM_TYPES, type Synonym } from './synonyms.js';
export {
  applyRules,
  searchWithPins,
  type AppliedRules,
  type PinnedSearchResponse,
  type RawParams,
  type Rule,
} from './rules.js';
export { STANDARD_STOP_WORDS } from './language-tables.js';
export { fromSnapshot, SNAPSHOT_VERSION, toSnapshot, type IndexSnapshot } from './snapshot.js';
export { checkTypoWordSizes, validateSettingValue } from './settings-validation.js';
export {
  decodeBundle,
  encodeBundle,
  SVCIDX_MAGIC,
  type BundleDictionaries,
  type BundleIndex,
  type BundleRecommendations,
  type BundleRecord,
  type IndexBundle,
  type ScoredItem,
} from './bundle.js';
