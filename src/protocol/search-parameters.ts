/**
 * The search parameters of the hosted API and their types: the one table both sides read. The browser's
 * `<svc-configure>` reads attribute strings by it; the service's engine validates requests by it (400 naming
 * the parameter). A name missing here is not a search parameter: the service refuses it (400 `Unknown
 * parameter: <name>`, as the hosted API answers); `<svc-configure>` reads it as JSON or text and sends it, so
 * the service's answer names the typo.
 *
 * The API document names a few parameters and says the full list is not shown; the others and their types
 * are those of the hosted API and its official clients.
 */

/**
 * How a parameter's value is written:
 * - `string`; `integer` (within {@link SEARCH_PARAMETER_RANGES} when listed there); `number` (finite);
 * - `boolean`;
 * - `strings`: a list of strings (a JSON array, or comma-separated in a URL-encoded string);
 * - `filters`: `facetFilters` and its kin, a string or an array of strings and arrays of strings (OR groups);
 * - `typoTolerance`: `true`, `false`, `'min'` or `'strict'`;
 * - `booleanOrStrings`: a boolean or a list of language codes (`ignorePlurals`, `removeStopWords`);
 * - `booleanOrInteger`: a boolean or an integer within its range (`distinct`);
 * - `numberOrAll`: a number or `'all'` (`aroundRadius`);
 * - `json`: any JSON value, checked where it is used (geo areas: `insideBoundingBox`, `insidePolygon`; rule
 *   and rendering objects); from a URL-encoded string, a JSON-looking value is decoded.
 */
export type SearchParameterType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'strings'
  | 'filters'
  | 'typoTolerance'
  | 'booleanOrStrings'
  | 'booleanOrInteger'
  | 'numberOrAll'
  | 'json';

/**
 * The type of every known search parameter, by name.
 *
 * @example
 * SEARCH_PARAMETERS.hitsPerPage // 'integer'
 * SEARCH_PARAMETERS.facetFilters // 'filters'
 */
export const SEARCH_PARAMETERS: Readonly<Record<string, SearchParameterType>> = {
  query: 'string',
  similarQuery: 'string',
  filters: 'string',
  facetQuery: 'string',
  highlightPreTag: 'string',
  highlightPostTag: 'string',
  snippetEllipsisText: 'string',
  aroundLatLng: 'string',
  userToken: 'string',
  queryType: 'string',
  removeWordsIfNoResults: 'string',
  exactOnSingleWordQuery: 'string',
  sortFacetValuesBy: 'string',
  page: 'integer',
  hitsPerPage: 'integer',
  offset: 'integer',
  length: 'integer',
  maxValuesPerFacet: 'integer',
  maxFacetHits: 'integer',
  minWordSizefor1Typo: 'integer',
  minWordSizefor2Typos: 'integer',
  minProximity: 'integer',
  minimumAroundRadius: 'integer',
  relevancyStrictness: 'integer',
  personalizationImpact: 'integer',
  aroundPrecision: 'number',
  aroundRadius: 'numberOrAll',
  getRankingInfo: 'boolean',
  clickAnalytics: 'boolean',
  analytics: 'boolean',
  enablePersonalization: 'boolean',
  enableRules: 'boolean',
  enableABTest: 'boolean',
  enableReRanking: 'boolean',
  restrictHighlightAndSnippetArrays: 'boolean',
  advancedSyntax: 'boolean',
  allowTyposOnNumericTokens: 'boolean',
  aroundLatLngViaIP: 'boolean',
  synonyms: 'boolean',
  replaceSynonymsInHighlight: 'boolean',
  percentileComputation: 'boolean',
  sumOrFiltersScores: 'boolean',
  facetingAfterDistinct: 'boolean',
  attributeCriteriaComputedByMinProximity: 'boolean',
  decompoundQuery: 'boolean',
  typoTolerance: 'typoTolerance',
  ignorePlurals: 'booleanOrStrings',
  removeStopWords: 'booleanOrStrings',
  distinct: 'booleanOrInteger',
  attributesToRetrieve: 'strings',
  attributesToHighlight: 'strings',
  attributesToSnippet: 'strings',
  facets: 'strings',
  restrictSearchableAttributes: 'strings',
  analyticsTags: 'strings',
  ruleContexts: 'strings',
  disableTypoToleranceOnAttributes: 'strings',
  disableTypoToleranceOnWords: 'strings',
  responseFields: 'strings',
  advancedSyntaxFeatures: 'strings',
  alternativesAsExact: 'strings',
  optionalWords: 'strings',
  queryLanguages: 'strings',
  naturalLanguages: 'strings',
  facetFilters: 'filters',
  numericFilters: 'filters',
  tagFilters: 'filters',
  optionalFilters: 'filters',
  reRankingApplyFilter: 'filters',
  ranking: 'strings',
  disableExactOnAttributes: 'strings',
  mode: 'string',
  attributeCriteriaComputedBy: 'string',
  insideBoundingBox: 'json',
  insidePolygon: 'json',
  semanticSearch: 'json',
  renderingContent: 'json',
  automaticFacetFilters: 'json',
  automaticOptionalFacetFilters: 'json',
};

/**
 * Inclusive bounds of the integer parameters that have them (`hitsPerPage` and `length`: at most 1,000 per
 * page; `maxFacetHits`: at most 100, as the API document says; `distinct`: 0 to 4). An integer parameter not
 * listed takes any integer from 0.
 *
 * @example
 * const [min, max] = SEARCH_PARAMETER_RANGES.hitsPerPage; // [0, 1000]
 */
export const SEARCH_PARAMETER_RANGES: Readonly<Record<string, readonly [min: number, max: number]>> = {
  page: [0, Number.MAX_SAFE_INTEGER],
  hitsPerPage: [0, 1000],
  offset: [0, Number.MAX_SAFE_INTEGER],
  length: [0, 1000],
  maxValuesPerFacet: [0, 1000],
  maxFacetHits: [1, 100],
  minWordSizefor1Typo: [1, 100],
  minWordSizefor2Typos: [1, 100],
  minProximity: [1, 7],
  minimumAroundRadius: [1, Number.MAX_SAFE_INTEGER],
  relevancyStrictness: [0, 100],
  personalizationImpact: [0, 100],
  distinct: [0, 4],
};

/**
 * The values a string parameter may take: for one that overrides a setting of that name, the same lists the settings'
 * validation names (`settings-validation.ts`), so a search parameter and a setting are refused alike; and
 * `sortFacetValuesBy`, the order of the facet values (by count, or alphabetical).
 *
 * @example
 * SEARCH_PARAMETER_VALUES.queryType // ['prefixLast', 'prefixAll', 'prefixNone']
 */
export const SEARCH_PARAMETER_VALUES: Readonly<Record<string, readonly string[]>> = {
  queryType: ['prefixLast', 'prefixAll', 'prefixNone'],
  removeWordsIfNoResults: ['none', 'lastWords', 'firstWords', 'allOptional'],
  sortFacetValuesBy: ['count', 'alpha'],
};

/**
 * The form each entry of a list parameter must have, with its description for the 400 (shared with the settings'
 * validation): `attributesToSnippet` entries are `attribute` or `attribute:N` (N words).
 *
 * @example
 * SEARCH_PARAMETER_FORMATS.attributesToSnippet[0].test('description:20') // true
 */
export const SEARCH_PARAMETER_FORMATS: Readonly<Record<string, readonly [format: RegExp, description: string]>> = {
  attributesToSnippet: [/^[^:]+(:\d+)?$/, 'attribute or attribute:N entries'],
};

/**
 * The list of allowed values as a 400 names them: `'a', 'b' or 'c'`.
 *
 * @example
 * listOfValues(['none', 'lastWords']) // "'none' or 'lastWords'"
 */
export function listOfValues(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}
