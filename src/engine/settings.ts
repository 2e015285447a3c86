/**
 * Index settings: their defaults and the parsed forms the engine works with (searchable attribute specs, facet
 * specs, ranking criteria). Their validation is `settings-validation.ts`.
 */

export type TypoTolerance = boolean | 'min' | 'strict';
export type QueryType = 'prefixLast' | 'prefixAll' | 'prefixNone';
export type RemoveWordsIfNoResults = 'none' | 'lastWords' | 'firstWords' | 'allOptional';

/** The settings of an index (`GET/PUT /1/indexes/{indexName}/settings`). Unknown keys are kept as given. */
export interface IndexSettings {
  /** Attributes searched, in order of importance; `unordered(attr)`; `a,b` for equal rank. Empty: all. */
  searchableAttributes: string[];
  /** Facetable attributes, with `searchable(attr)`, `filterOnly(attr)` or `afterDistinct(attr)`. */
  attributesForFaceting: string[];
  /** `asc(attr)` / `desc(attr)`, applied by the `custom` criterion. */
  customRanking: string[];
  /** Tie-breaking criteria in order. */
  ranking: string[];
  attributesToRetrieve: string[];
  unretrievableAttributes: string[];
  /** `null`: all searchable attributes. */
  attributesToHighlight: string[] | null;
  /** `attr` or `attr:N` (N words, default 10). */
  attributesToSnippet: string[];
  highlightPreTag: string;
  highlightPostTag: string;
  snippetEllipsisText: string;
  hitsPerPage: number;
  maxValuesPerFacet: number;
  paginationLimitedTo: number;
  typoTolerance: TypoTolerance;
  minWordSizefor1Typo: number;
  minWordSizefor2Typos: number;
  ignorePlurals: boolean | string[];
  distinct: boolean | number;
  attributeForDistinct: string | null;
  queryType: QueryType;
  removeWordsIfNoResults: RemoveWordsIfNoResults;
  optionalWords: string[];
  /** Quoted phrases and `-word` exclusions in the query. */
  advancedSyntax: boolean;
  /** Stop words left out of the query: `true` (the query languages) or a list of languages. */
  removeStopWords: boolean | string[];
  /** Query words matched without typos. */
  disableTypoToleranceOnWords: string[];
  /** Languages of the queries (`ignorePlurals`/`removeStopWords` set to `true` use them); empty: English. */
  queryLanguages: string[];
  /** Languages of the records (compound words are split in them); empty: `queryLanguages`. */
  indexLanguages: string[];
  /** Split the query's compound words (custom compound entries of the query and index languages). */
  decompoundQuery: boolean;
  [setting: string]: unknown;
}

export const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

/**
 * A fresh copy of the default settings.
 * @example defaultSettings().hitsPerPage // 20
 */
export function defaultSettings(): IndexSettings {
  return {
    searchableAttributes: [],
    attributesForFaceting: [],
    customRanking: [],
    ranking: [...DEFAULT_RANKING],
    attributesToRetrieve: ['*'],
    unretrievableAttributes: [],
    attributesToHighlight: null,
    attributesToSnippet: [],
    highlightPreTag: '<em>',
    highlightPostTag: '</em>',
    snippetEllipsisText: '…',
    hitsPerPage: 20,
    maxValuesPerFacet: 100,
    paginationLimitedTo: 1000,
    typoTolerance: true,
    minWordSizefor1Typo: 4,
    minWordSizefor2Typos: 8,
    ignorePlurals: false,
    distinct: false,
    attributeForDistinct: null,
    queryType: 'prefixLast',
    removeWordsIfNoResults: 'none',
    optionalWords: [],
    advancedSyntax: false,
    removeStopWords: false,
    disableTypoToleranceOnWords: [],
    queryLanguages: [],
    indexLanguages: [],
    decompoundQuery: true,
  };
}

/** `asc(attr)` / `desc(attr)`. */
export const RANK_FN = /^(asc|desc)\(([^()]+)\)$/;

/** One searchable attribute of `searchableAttributes`, parsed. */
export interface SearchableSpec {
  path: string[];
  name: string;
  /** Rank of importance (equal for comma-grouped attributes). */
  rank: number;
  unordered: boolean;
}

/**
 * Parses `searchableAttributes`; an empty list means every attribute (decided per record).
 * @example parseSearchable(['title,alt', 'unordered(body)']) // title and alt rank 0, body rank 1 unordered
 */
export function parseSearchable(list: string[]): SearchableSpec[] {
  const specs: SearchableSpec[] = [];
  list.forEach((entry, rank) => {
    const m = /^unordered\((.+)\)$/.exec(entry.trim());
    const unordered = !!m;
    const body = m ? m[1]! : entry;
    for (const raw of body.split(',')) {
      const name = raw.trim();
      if (name) specs.push({ path: name.split('.'), name, rank, unordered });
    }
  });
  return specs;
}

export interface FacetSpec {
  name: string;
  path: string[];
  searchable: boolean;
  filterOnly: boolean;
}

/**
 * Parses `attributesForFaceting` into specs by attribute name.
 * @example parseFacets(['searchable(brand)']).get('brand')!.searchable // true
 */
export function parseFacets(list: string[]): Map<string, FacetSpec> {
  const out = new Map<string, FacetSpec>();
  for (const entry of list) {
    const m = /^(searchable|filterOnly|afterDistinct)\((.+)\)$/.exec(entry.trim());
    const name = (m ? m[2]! : entry).trim();
    out.set(name, {
      name,
      path: name.split('.'),
      searchable: m?.[1] === 'searchable',
      filterOnly: m?.[1] === 'filterOnly',
    });
  }
  return out;
}

export interface SortSpec {
  attr: string;
  path: string[];
  desc: boolean;
}

/**
 * Parses `asc(attr)` / `desc(attr)`; `null` for anything else.
 * @example parseSort('desc(popularity)') // { attr: 'popularity', path: ['popularity'], desc: true }
 */
export function parseSort(entry: string): SortSpec | null {
  const m = RANK_FN.exec(entry.trim());
  if (!m) return null;
  const attr = m[2]!.trim();
  return { attr, path: attr.split('.'), desc: m[1] === 'desc' };
}
