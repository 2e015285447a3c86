/**
 * Public types of the search client (`src/client/`). This file is the contract between the client and
 * the layers above it; keep it in step with `docs/CONTRACTS.md`.
 */

/** One host of the service. `accept` says which calls may go to it (default `readWrite`). */
export interface HostDescriptor {
  url: string;
  accept?: 'read' | 'write' | 'readWrite';
}

export interface ClientOptions {
  appId: string;
  apiKey: string;
  /** Explicit hosts (for example `['http://127.0.0.1:8787']`); replaces the computed DSN/fallback hosts. */
  hosts?: Array<string | HostDescriptor>;
  /** Domain of the computed hosts, default `service-search.net`. */
  domain?: string;
  /** Domain of the three fallback hosts, default `service-search-net.com`. */
  fallbackDomain?: string;
  /** Host for `/1/events`; default `https://insights.{domain}`, or the first explicit host. */
  insightsHost?: string;
  /** Base timeouts in ms (defaults connect 2000, read 5000, write 30000); each retry multiplies them by the attempt number. */
  timeouts?: { connect?: number; read?: number; write?: number };
  /** Response cache for searches and Recommend (default 2 minutes TTL, 100 entries, LRU); `false` turns it off. */
  cache?: false | { ttlMs?: number; maxEntries?: number };
  /** How long a failed host is skipped, ms (default 2 minutes). */
  hostDownMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Skip the response cache for this call (in-flight sharing still applies). */
  cache?: boolean;
}

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

export interface SendEventsOptions {
  signal?: AbortSignal;
  /** Use `fetch(…, {keepalive: true})` with credentials in the URL (page unload). */
  keepalive?: boolean;
}

/** The client surface every upper layer uses. Created by `createClient(options)`. */
export interface SearchClient {
  readonly appId: string;
  readonly apiKey: string;
  search<T = Record<string, unknown>>(
    indexName: string,
    params?: SearchParams,
    options?: RequestOptions,
  ): Promise<SearchResponse<T>>;
  multiSearch<T = Record<string, unknown>>(
    requests: MultiSearchRequest[],
    options?: RequestOptions & { strategy?: 'none' | 'stopIfEnoughMatches' },
  ): Promise<{ results: Array<SearchResponse<T>> }>;
  searchForFacetValues(
    indexName: string,
    facetName: string,
    facetQuery: string,
    params?: SearchParams & { maxFacetHits?: number },
    options?: RequestOptions,
  ): Promise<SearchForFacetValuesResponse>;
  browse<T = Record<string, unknown>>(
    indexName: string,
    params?: SearchParams,
    options?: RequestOptions,
  ): AsyncIterable<Array<Hit<T>>>;
  getObjects<T = Record<string, unknown>>(
    requests: Array<{ indexName: string; objectID: string; attributesToRetrieve?: string[] }>,
    options?: RequestOptions,
  ): Promise<{ results: Array<(T & { objectID: string }) | null> }>;
  recommend<T = Record<string, unknown>>(
    requests: RecommendRequest[],
    options?: RequestOptions,
  ): Promise<{ results: Array<RecommendResult<T>> }>;
  sendEvents(events: InsightsEvent[], options?: SendEventsOptions): Promise<{ status: number; message: string }>;
  /** URL for `navigator.sendBeacon` of `/1/events` with credentials as URL parameters. */
  eventsBeaconUrl(): string;
  /** Generic call for admin/indexing use in tests and scripts; for GET and DELETE an object `body` becomes the query string. */
  request<R = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    options?: RequestOptions & { kind?: 'read' | 'write' },
  ): Promise<R>;
  clearCache(): void;
}
