/**
 * Public types of the search client (`src/client/`). This file is the contract between the client and
 * the layers above it; keep it in step with `docs/CONTRACTS.md`. The wire types (requests and responses of
 * the API documents) are defined once in `src/protocol/types.ts` and re-exported here.
 */
import type {
  Hit,
  InsightsEvent,
  MultiSearchRequest,
  RecommendRequest,
  RecommendResult,
  SearchForFacetValuesResponse,
  SearchParams,
  SearchResponse,
} from '../protocol/types.js';

export type * from '../protocol/types.js';

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
