/**
 * The engine's optional features: code a search needs only when a request or an index uses it — synonyms (an index with
 * synonyms), the standard stop words and plural rules (`removeStopWords`, `ignorePlurals`), geo search (a request with
 * a geo area), filters (`filter-bits.ts` and the filter language of `filters.ts`: a request, or a rule's consequence,
 * that filters), personalisation (a search given a user's profile), the warm-up and the search path's speed-ups of a
 * large index, browsing (`browse`)
 * and the hits' `_rankingInfo` (`getRankingInfo`), the settings validation (`settings-validation.ts`: settings given
 * in code, a request's `renderingContent`; a `.svcidx`'s were validated by the service) — and the upkeep of sorted structures on later writes (`upkeep.ts`),
 * which an index built in one write never needs. They are installed here by whoever loads them: `svc-search/engine`
 * (`index.ts`, what the service imports) installs every one, the browser worker of `svc-search/local` each one when a
 * file or a request needs it (its calls are asynchronous: `LocalEngine.load` and `LocalEngine.prepare`), so a page pays
 * only for what its index uses. A request that needs a feature nobody installed is an error naming it, never a silent
 * skip; the warm-up only makes the first searches faster and the upkeep later writes, so without them those are
 * slower, not wrong.
 */
import type { browse } from './browse.js';
import type { evaluateFilter, filterBits } from './filter-bits.js';
import type { buildOptionalFilters } from './filters.js';
import type { geoFilter, parseGeo } from './geo.js';
import type { pluralForms, STANDARD_STOP_WORDS } from './language-tables.js';
import type { rankingInfo } from './ranking-info.js';
import type { validateSettings, validateSettingValue } from './settings-validation.js';
import type { SearchParams } from './params.js';
import type { personalizationFigures, personalScorer } from './personalization.js';
import type * as LargeIndex from './large-index.js';
import type { rankOneWord } from './one-word.js';
import type { markSpans, spanMatches } from './spans.js';
import type { buildExpansion, Expansion } from './synonyms.js';
import type { addToOrder, flushOrder, insertAlpha, mergeNewSegment } from './upkeep.js';
import type { warmUp } from './warm-up.js';

export interface EngineFeatures {
  synonyms: { buildExpansion: typeof buildExpansion; spanMatches: typeof spanMatches; markSpans: typeof markSpans };
  languageTables: { STANDARD_STOP_WORDS: typeof STANDARD_STOP_WORDS; pluralForms: typeof pluralForms };
  geo: { parseGeo: typeof parseGeo; geoFilter: typeof geoFilter };
  filters: {
    filterBits: typeof filterBits;
    evaluateFilter: typeof evaluateFilter;
    buildOptionalFilters: typeof buildOptionalFilters;
  };
  personalization: { personalScorer: typeof personalScorer; personalizationFigures: typeof personalizationFigures };
  warmUp: { warmUp: typeof warmUp };
  browse: { browse: typeof browse };
  rankingInfo: { rankingInfo: typeof rankingInfo };
  settingsValidation: { validateSettings: typeof validateSettings; validateSettingValue: typeof validateSettingValue };
  upkeep: {
    addToOrder: typeof addToOrder;
    flushOrder: typeof flushOrder;
    insertAlpha: typeof insertAlpha;
    mergeNewSegment: typeof mergeNewSegment;
  };
  /** The walks in the custom order of a large index: one-word queries on bits, queries of several words (`many-words.ts`). */
  orderWalks: { rankOneWord: typeof rankOneWord };
  /** The search path's speed-ups for large indices (`large-index.ts`): the same answers, faster. */
  largeIndex: typeof LargeIndex;
}

const installed: Partial<EngineFeatures> = {};

/** The expansion of an index without synonyms (what `buildExpansion([])` gives): nothing to expand. */
export const NO_SYNONYMS: Expansion = { words: new Map(), spans: new Map(), size: 0 };

/** An index this large has its first write end with the warm-up (once per process; `warm-up.ts`). */
export const WARM_UP_AT = 50_000;

/**
 * An index this large has the browser worker load the search path's speed-ups (`large-index.ts`); below it they save
 * less than their loading costs.
 */
export const LARGE_INDEX_AT = 10_000;

/** The search parameters that ask for geo search (the areas; `aroundRadius` and `aroundPrecision` refine one). */
export const GEO_PARAMETERS = ['aroundLatLng', 'insideBoundingBox', 'insidePolygon'] as const;

/**
 * The search parameters that filter the records (`filter-bits.ts` reads them); `optionalFilters`, which only scores
 * them, is read by the same code.
 */
export const FILTER_PARAMETERS = ['filters', 'facetFilters', 'numericFilters', 'tagFilters'] as const;

/**
 * Installs a feature's code.
 *
 * @example
 * installFeature('geo', await import('./geo.js'));
 */
export function installFeature<K extends keyof EngineFeatures>(name: K, code: EngineFeatures[K]): void {
  installed[name] = code;
}

/**
 * A feature's code; an error naming it when nobody installed it.
 *
 * @example
 * const geo = feature('geo').parseGeo(params);
 */
export function feature<K extends keyof EngineFeatures>(name: K): EngineFeatures[K] {
  const code = installed[name];
  if (!code) throw new Error(`The engine’s ${name} feature is not loaded (svc-search/engine installs it)`);
  return code;
}

/**
 * A feature's code, or undefined when nobody installed it (for what is an optimisation only: the warm-up, the
 * upkeep, the one-word path on bits and the walk of several words, the search path's speed-ups of a large index).
 *
 * @example
 * optionalFeature('warmUp')?.warmUp(Index);
 */
export function optionalFeature<K extends keyof EngineFeatures>(name: K): EngineFeatures[K] | undefined {
  return installed[name];
}

/**
 * Whether parameters ask for geo search: a geo area that is not empty (`parseGeo` reads it).
 *
 * @example
 * asksForGeo({ aroundLatLng: '48.85, 2.35' }) // true
 */
export function asksForGeo(params: SearchParams | Record<string, unknown>): boolean {
  return GEO_PARAMETERS.some((name) => {
    const value = params[name];
    return value !== undefined && value !== null && value !== '';
  });
}

/**
 * Whether parameters give a filter (`filters`, `facetFilters`, `numericFilters` or `tagFilters`, even an empty one):
 * without one, a search has no filter to evaluate (what `filterBits` would answer: null), so it needs none of the
 * filters feature's code.
 *
 * @example
 * asksForFilters({ facetFilters: [['brand:Acme']] }) // true
 * asksForFilters({ query: 'chair' }) // false
 */
export function asksForFilters(params: SearchParams | Record<string, unknown>): boolean {
  return FILTER_PARAMETERS.some((name) => params[name] !== undefined && params[name] !== null);
}
