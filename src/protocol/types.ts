/**
 * The wire of the search API: the request and response types of the API documents, as the browser
 * library sends and reads them and the service answers them. Types only; one definition for both packages
 * (`svc-search/protocol`).
 */

/** Search parameters as sent on the wire (a subset is typed; any other parameter passes through). */
export interface SearchParams {
  query?: string;
  page?: number;
  hitsPerPage?: number;
  offset?: number;
  length?: number;
  filters?: string;
  facetFilters?: Array<string | string[]> | string;
  numericFilters?: Array<string | string[]> | string;
  tagFilters?: Array<string | string[]> | string;
  facets?: string[] | string;
  maxValuesPerFacet?: number;
  attributesToRetrieve?: string[];
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  getRankingInfo?: boolean;
  typoTolerance?: boolean | 'min' | 'strict';
  ignorePlurals?: boolean;
  distinct?: boolean | number;
  clickAnalytics?: boolean;
  analytics?: boolean;
  analyticsTags?: string[];
  userToken?: string;
  enablePersonalization?: boolean;
  ruleContexts?: string[];
  [parameter: string]: unknown;
}

export interface HighlightResult {
  value: string;
  matchLevel: 'none' | 'partial' | 'full';
  fullyHighlighted?: boolean;
  matchedWords: string[];
}

export interface SnippetResult {
  value: string;
  matchLevel: 'none' | 'partial' | 'full';
}

export interface RankingInfo {
  nbTypos: number;
  firstMatchedWord: number;
  proximityDistance: number;
  userScore: number;
  geoDistance: number;
  geoPrecision: number;
  nbExactWords: number;
}

export type Hit<T = Record<string, unknown>> = T & {
  objectID: string;
  _highlightResult?: Record<string, HighlightResult | HighlightResult[] | Record<string, unknown>>;
  _snippetResult?: Record<string, SnippetResult | SnippetResult[] | Record<string, unknown>>;
  _rankingInfo?: RankingInfo;
};

export interface FacetStats {
  min: number;
  max: number;
  avg: number;
  sum: number;
}

export interface SearchResponse<T = Record<string, unknown>> {
  hits: Array<Hit<T>>;
  page: number;
  nbHits: number;
  nbPages: number;
  hitsPerPage: number;
  processingTimeMS: number;
  query: string;
  parsed_query?: string;
  params: string;
  index?: string;
  processed?: boolean;
  exhaustiveNbHits?: boolean;
  facets?: Record<string, Record<string, number>>;
  facets_stats?: Record<string, FacetStats>;
  queryID?: string;
  cursor?: string;
  offset?: number;
  length?: number;
  /** The `userData` of each rule applied, in order (rule consequences). */
  userData?: unknown[];
  /** The rules applied. */
  appliedRules?: Array<{ objectID: string }>;
  /**
   * What the front end should show (facet order, value order, redirect): the index setting, or the query's or
   * a rule's — the hosted API's field, beyond the API documents.
   */
  renderingContent?: RenderingContent;
}

/** `renderingContent` of a setting, a query, a rule consequence or an answer (beyond the API documents). */
export interface RenderingContent {
  facetOrdering?: {
    /** The facets to show, in order; `*` stands for the others. */
    facets?: { order?: string[] };
    /** Per attribute: these values first, the others by `count` or `alpha` (or `hidden`); `hide` drops values. */
    values?: Record<string, { order?: string[]; sortRemainingBy?: 'count' | 'alpha' | 'hidden'; hide?: string[] }>;
  };
  redirect?: { url: string };
}

export interface MultiSearchRequest {
  indexName: string;
  params?: SearchParams;
}

export interface FacetHit {
  value: string;
  highlighted: string;
  count: number;
}

export interface SearchForFacetValuesResponse {
  facetHits: FacetHit[];
  exhaustiveFacetsCount?: boolean;
  processingTimeMS?: number;
}

export type RecommendModel = 'related-products' | 'bought-together' | 'trending-items' | 'trending-facets';

export interface RecommendRequest {
  indexName: string;
  model: RecommendModel;
  threshold: number;
  maxRecommendations?: number;
  objectID?: string;
  facetName?: string;
  facetValue?: string;
  queryParameters?: SearchParams;
  fallbackParameters?: SearchParams;
}

export type RecommendHit<T = Record<string, unknown>> = Hit<T> & { _score: number };
/** trending-facets hits: `{facetName, facetValue, _score}`. */
export interface TrendingFacetHit {
  facetName: string;
  facetValue: string;
  _score: number;
}

export interface RecommendResult<T = Record<string, unknown>> {
  hits: Array<RecommendHit<T> | TrendingFacetHit>;
  nbHits: number;
  queryID?: string;
}

export interface InsightsEvent {
  eventType: 'click' | 'view' | 'conversion';
  eventName: string;
  index: string;
  userToken: string;
  timestamp?: number;
  queryID?: string;
  objectIDs?: string[];
  filters?: string[];
  positions?: number[];
}
