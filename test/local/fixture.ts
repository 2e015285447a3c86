/**
 * The index the local engine is compared with the service on (Node and browser conformance tests): records,
 * settings, rules and synonyms that exercise typo tolerance, synonyms, filters, facets, distinct, highlighting,
 * snippets, pinned and hidden records, rule edits and `userData`; and the queries asked of both.
 */
export const CONFORMANCE_INDEX = 'local_conformance';

const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli'];
const KINDS = [
  ['Chair', 'Furniture'],
  ['Sofa', 'Furniture'],
  ['Table', 'Furniture'],
  ['Television', 'Electronics'],
  ['Phone', 'Electronics'],
  ['Headphones', 'Electronics'],
  ['Lamp', 'Lighting'],
] as const;
const COLORS = ['red', 'blue', 'green', 'black', 'white', 'light grey'];
const ADJECTIVES = ['Comfortable', 'Modern', 'Classic', 'Compact', 'Deluxe', 'Wireless', 'Wooden'];

export const CONFORMANCE_RECORDS = Array.from({ length: 84 }, (_, i) => {
  const [kind, category] = KINDS[i % KINDS.length]!;
  const adjective = ADJECTIVES[(i * 3) % ADJECTIVES.length]!;
  const brand = BRANDS[(i * 7) % BRANDS.length]!;
  return {
    objectID: `p${i}`,
    name: `${adjective} ${brand} ${kind} ${i % 5 === 0 ? 'with <b>extras</b>' : ''}`.trim(),
    description: `A ${adjective.toLowerCase()} ${kind.toLowerCase()} in ${COLORS[i % COLORS.length]} by ${brand}, made to last for many years of daily use.`,
    brand,
    category,
    color: COLORS[i % COLORS.length],
    price: 20 + ((i * 37) % 480),
    popularity: (i * 13) % 100,
    group: `g${Math.floor(i / 3)}`,
    _tags: i % 4 === 0 ? ['sale'] : ['regular'],
  };
});

export const CONFORMANCE_SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category', 'unordered(description)'],
  attributesForFaceting: ['brand', 'category', 'searchable(color)', 'price'],
  customRanking: ['desc(popularity)'],
  attributeForDistinct: 'group',
  attributesToSnippet: ['description:8'],
};

export const CONFORMANCE_SYNONYMS = [
  { objectID: 'couch', type: 'synonym', synonyms: ['sofa', 'couch', 'settee'] },
  { objectID: 'tv', type: 'onewaysynonym', input: 'tv', synonyms: ['television'] },
];

export const CONFORMANCE_RULES = [
  {
    objectID: 'pin-phone',
    conditions: [{ pattern: 'phone', anchoring: 'contains' }],
    consequence: {
      promote: [{ objectID: 'p6', position: 0 }],
      hide: [{ objectID: 'p4' }],
      userData: { banner: 'phones' },
    },
  },
  {
    objectID: 'cheap',
    conditions: [{ pattern: 'cheap', anchoring: 'startsWith' }],
    consequence: { params: { query: { remove: ['cheap'] }, filters: 'price < 200' } },
  },
  {
    objectID: 'context-sale',
    conditions: [{ context: 'sale' }],
    consequence: { params: { tagFilters: ['sale'] } },
  },
];

/** The queries both answer (a multi-query each), as the store would send them. */
export const CONFORMANCE_QUERIES: Array<Record<string, unknown>> = [
  { query: '', facets: ['*'] },
  { query: 'chiar', facets: ['brand', 'category'] },
  { query: 'televison' },
  { query: 'couch' },
  { query: 'tv', hitsPerPage: 5 },
  { query: 'phone' },
  { query: 'phone', page: 1, hitsPerPage: 3 },
  { query: 'cheap chair' },
  { query: 'lamp', ruleContexts: ['sale'] },
  { query: 'modern', facetFilters: [['brand:Acme', 'brand:Globex']], facets: ['brand', 'color'] },
  { query: '', filters: 'price < 100 AND category:Furniture', facets: ['price'] },
  { query: 'modren head', numericFilters: ['price>=50'] },
  { query: 'chair', distinct: true, facets: ['brand'] },
  { query: 'extras', attributesToHighlight: ['name', 'description'] },
  { query: 'daily', attributesToSnippet: ['description:4'] },
  { query: 'acme tab', page: 2, hitsPerPage: 2, getRankingInfo: true },
  { query: 'grey', facets: ['color'], maxValuesPerFacet: 3 },
  { query: 'classic -sofa', advancedSyntax: true },
  { query: '"deluxe lamp"', advancedSyntax: true },
  { query: 'sofa', clickAnalytics: true },
  { query: 'chair', facets: ['brand'], responseFields: ['hits', 'nbHits', 'facets'] },
  { query: 'lamp', clickAnalytics: true, responseFields: ['nbHits'] },
];

/**
 * Filtered searches, each the first request of a fresh worker in the browser test (the filters are loaded by the
 * request that needs them): the `filters` grammar, the array forms and `optionalFilters`. None matches a rule.
 */
export const FIRST_FILTERED_QUERIES: Array<Record<string, unknown>> = [
  {
    query: '',
    filters: '(brand:Acme OR brand:"Globex") AND NOT category:Lighting AND price:50 TO 300',
    facets: ['brand'],
  },
  { query: 'modern', facetFilters: [['brand:Acme', 'brand:Globex'], 'category:-Lighting'], facets: ['brand', 'color'] },
  { query: 'chair', numericFilters: ['price>=50', ['popularity<30', 'popularity>90']] },
  { query: 'lamp', tagFilters: [['sale', 'regular'], '-sale'] },
  { query: 'chair', optionalFilters: ['brand:Initech', ['color:red', 'color:blue']], hitsPerPage: 6 },
];

/** Bad filters of each form both refuse with a 400 and the same message (the filter language's errors). */
export const BAD_FILTERS: Array<Record<string, unknown>> = [
  { filters: 'brand:(' },
  { filters: 'price < cheap' },
  { filters: 'brand:Acme AND' },
  { numericFilters: ['brand:Acme'] },
  { facetFilters: ['Acme'] },
  { optionalFilters: ['brand'] },
];

/** A rule whose consequence adds filters: a search with none is filtered by it. */
export const FILTER_RULE = {
  objectID: 'lamps-under-200',
  conditions: [{ pattern: 'lamp', anchoring: 'contains' }],
  consequence: { params: { filters: 'price < 200', facetFilters: [['color:blue', 'color:black']] } },
};

/** Facet value searches both answer. */
/**
 * Search parameters both sides refuse with a 400 (types, ranges, values, entry formats, unknown names, and a
 * `renderingContent`, whose check the worker loads when a request gives one): same status, same message.
 */
export const BAD_PARAMETERS: Array<Record<string, unknown>> = [
  { query: 'chair', queryType: 'prefixSome' },
  { removeWordsIfNoResults: 'most' },
  { attributesToSnippet: ['description:four'] },
  { hitsPerPage: 5000 },
  { hitPerPage: 5 },
  { typoTolerance: 'sometimes' },
  { query: 'chair', facets: ['brand'], sortFacetValuesBy: 'random' },
  { query: 'chair', responseFields: ['hit'] },
  { renderingContent: { facetOrdering: { facets: { order: 'brand' } } } },
];

export const CONFORMANCE_FACET_QUERIES = [
  { facet: 'color', facetQuery: 'gr' },
  { facet: 'color', facetQuery: 'li', params: { query: 'lamp' } },
];

/** Fields that differ between two runs of the same search (timing, a fresh queryID). */
export function comparable(response: Record<string, unknown>): Record<string, unknown> {
  const { processingTimeMS, serverTimeMS, processingTimingsMS, queryID, ...rest } = response;
  return { ...rest, queryID: typeof queryID === 'string' ? 'present' : queryID };
}
