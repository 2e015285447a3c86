/**
 * `createClient`: one method per endpoint the library calls, over the retry strategy of `transport.ts`,
 * with a response cache and in-flight sharing for searches and Recommend.
 *
 * Runs in browsers and in Node ≥ 18 (global `fetch`); no Node-only import on this path.
 */
import { LruCache, DEFAULT_CACHE_MAX_ENTRIES, DEFAULT_CACHE_TTL_MS } from './cache.js';
import { abortError } from './errors.js';
import { serializeParams, toQueryString } from './params.js';
import { DEFAULT_HOST_DOWN_MS, DEFAULT_TIMEOUTS, Transport, type CallKind, type TransportCall } from './transport.js';
import type {
  ClientOptions,
  HostDescriptor,
  Hit,
  InsightsEvent,
  MultiSearchRequest,
  RecommendRequest,
  RecommendResult,
  RequestOptions,
  SearchClient,
  SearchForFacetValuesResponse,
  SearchParams,
  SearchResponse,
  SendEventsOptions,
} from './types.js';

/** Default domain of the computed hosts. */
export const DEFAULT_DOMAIN = 'service-search.net';
/** Default domain of the three fallback hosts. */
export const DEFAULT_FALLBACK_DOMAIN = 'service-search-net.com';

/**
 * The hosts of a client: explicit `hosts` when given, else `{appId}-dsn.{domain}` (reads),
 * `{appId}.{domain}` (writes) and `{appId}-{1,2,3}.{fallbackDomain}` in a shuffled order (both).
 *
 * @example
 * computeHosts({ appId: 'APP', apiKey: 'k' })[0] // { url: 'https://APP-dsn.service-search.net', accept: 'read' }
 */
export function computeHosts(options: ClientOptions, random: () => number = Math.random): HostDescriptor[] {
  if (options.hosts) {
    if (!Array.isArray(options.hosts) || options.hosts.length === 0) throw new TypeError('createClient: `hosts` must be a non-empty array');
    return options.hosts.map((host) => {
      const descriptor = typeof host === 'string' ? { url: host } : host;
      if (!descriptor || typeof descriptor.url !== 'string' || !descriptor.url) throw new TypeError(`createClient: invalid host ${JSON.stringify(host)}`);
      return { url: normaliseHostUrl(descriptor.url), accept: descriptor.accept ?? 'readWrite' };
    });
  }
  const domain = options.domain ?? DEFAULT_DOMAIN;
  const fallbackDomain = options.fallbackDomain ?? DEFAULT_FALLBACK_DOMAIN;
  const fallbacks: HostDescriptor[] = [1, 2, 3].map((n) => ({ url: `https://${options.appId}-${n}.${fallbackDomain}`, accept: 'readWrite' }));
  // Fisher–Yates, once per client: spreads the retry load over the fallback hosts (Hosts rule: "shuffle the list at start").
  for (let i = fallbacks.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [fallbacks[i], fallbacks[j]] = [fallbacks[j]!, fallbacks[i]!];
  }
  return [
    { url: `https://${options.appId}-dsn.${domain}`, accept: 'read' },
    { url: `https://${options.appId}.${domain}`, accept: 'write' },
    ...fallbacks,
  ];
}

function normaliseHostUrl(url: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
  return withScheme.replace(/\/+$/, '');
}

function requireName(what: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

const segment = (name: string) => encodeURIComponent(name);

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

/**
 * Creates a search client.
 *
 * Response cache (searches, multi-queries, facet value searches, Recommend): on by default, keyed by
 * the request (path and body), **2 minutes** time to live, **100 entries** (least recently used evicted);
 * change with `cache: { ttlMs, maxEntries }`, turn off with `cache: false`, skip per call with
 * `{ cache: false }`. Identical calls in flight share one network call, whatever the cache setting; an
 * aborted caller leaves the shared call running for the others. Each caller gets its own copy of the
 * answer, so mutating it cannot corrupt the cache.
 *
 * Timeouts (ms): connect 2000, read 5000, write 30000, multiplied by the attempt number on each retry.
 * A failed host is skipped for 2 minutes (`hostDownMs`).
 *
 * @example
 * const client = createClient({ appId: 'SVCLOCAL', apiKey: 'local-search-key', hosts: ['http://127.0.0.1:8787'] });
 * const { hits } = await client.search('products', { query: 'phone', hitsPerPage: 5 });
 */
export function createClient(options: ClientOptions): SearchClient {
  requireName('createClient: appId', options?.appId);
  requireName('createClient: apiKey', options.apiKey);
  const hosts = computeHosts(options);
  const explicitFirst = options.hosts ? hosts[0]!.url : undefined;
  const insightsHost: HostDescriptor = {
    url: normaliseHostUrl(options.insightsHost ?? explicitFirst ?? `https://insights.${options.domain ?? DEFAULT_DOMAIN}`),
    accept: 'readWrite',
  };
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!(typeof value === 'number' && value > 0)) throw new RangeError(`createClient: timeouts.${name} must be a positive number of ms`);
  }
  const transport = new Transport({
    appId: options.appId,
    apiKey: options.apiKey,
    hosts,
    timeouts,
    hostDownMs: options.hostDownMs ?? DEFAULT_HOST_DOWN_MS,
  });
  const cache =
    options.cache === false
      ? undefined
      : new LruCache<unknown>({ ttlMs: options.cache?.ttlMs ?? DEFAULT_CACHE_TTL_MS, maxEntries: options.cache?.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES });
  const inFlight = new Map<string, InFlight>();

  /** A read whose answer may come from the cache or be shared with an identical call in flight. */
  function sharedRead<R>(call: Omit<TransportCall, 'signal' | 'kind'>, requestOptions: RequestOptions | undefined): Promise<R> {
    const key = `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`;
    const useCache = cache !== undefined && requestOptions?.cache !== false;
    if (useCache) {
      const hit = cache.get(key);
      if (hit !== undefined) return Promise.resolve(structuredClone(hit) as R);
    }
    let entry = inFlight.get(key);
    if (!entry) {
      const controller = new AbortController();
      const promise = transport.send<unknown>({ ...call, kind: 'read', signal: controller.signal }).then(
        (value) => {
          if (useCache) cache.set(key, value);
          return value;
        },
      );
      const created: InFlight = { promise, controller, waiters: 0 };
      entry = created;
      inFlight.set(key, created);
      // Settled either way: later identical calls start afresh (or read the cache).
      promise.then(
        () => inFlight.get(key) === created && inFlight.delete(key),
        () => inFlight.get(key) === created && inFlight.delete(key),
      );
    }
    const shared = entry;
    shared.waiters++;
    const signal = requestOptions?.signal;
    return new Promise<R>((resolve, reject) => {
      let done = false;
      const onAbort = () => {
        if (done) return;
        done = true;
        shared.waiters--;
        // The last interested caller gone: stop the network call too.
        if (shared.waiters === 0) {
          shared.controller.abort(signal?.reason);
          if (inFlight.get(key) === shared) inFlight.delete(key);
        }
        reject(abortError(signal));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          if (done) return;
          done = true;
          shared.waiters--;
          signal?.removeEventListener('abort', onAbort);
          resolve(structuredClone(value) as R);
        },
        (error: unknown) => {
          if (done) return;
          done = true;
          shared.waiters--;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  const client: SearchClient = {
    appId: options.appId,
    apiKey: options.apiKey,

    search<T>(indexName: string, params?: SearchParams, requestOptions?: RequestOptions) {
      requireName('search: indexName', indexName);
      return sharedRead<SearchResponse<T>>(
        { method: 'POST', path: `/1/indexes/${segment(indexName)}/query`, body: { params: serializeParams(params) } },
        requestOptions,
      );
    },

    multiSearch<T>(requests: MultiSearchRequest[], requestOptions?: RequestOptions & { strategy?: 'none' | 'stopIfEnoughMatches' }) {
      if (!Array.isArray(requests) || requests.length === 0) throw new TypeError('multiSearch: requests must be a non-empty array');
      const body: Record<string, unknown> = {
        requests: requests.map((r) => ({ indexName: requireName('multiSearch: indexName', r?.indexName), params: serializeParams(r.params) })),
      };
      if (requestOptions?.strategy) body.strategy = requestOptions.strategy;
      return sharedRead<{ results: Array<SearchResponse<T>> }>({ method: 'POST', path: '/1/indexes/*/queries', body }, requestOptions);
    },

    searchForFacetValues(indexName, facetName, facetQuery, params, requestOptions) {
      requireName('searchForFacetValues: indexName', indexName);
      requireName('searchForFacetValues: facetName', facetName);
      const { maxFacetHits, ...rest } = params ?? {};
      const body: Record<string, unknown> = { params: serializeParams(rest), facetQuery: facetQuery ?? '' };
      if (maxFacetHits !== undefined) body.maxFacetHits = maxFacetHits;
      return sharedRead<SearchForFacetValuesResponse>(
        { method: 'POST', path: `/1/indexes/${segment(indexName)}/facets/${segment(facetName)}/query`, body },
        requestOptions,
      );
    },

    browse<T>(indexName: string, params?: SearchParams, requestOptions?: RequestOptions): AsyncIterable<Array<Hit<T>>> {
      requireName('browse: indexName', indexName);
      const path = `/1/indexes/${segment(indexName)}/browse`;
      return {
        async *[Symbol.asyncIterator]() {
          // The first call carries the params, each later one only the cursor of the previous answer.
          let body: Record<string, unknown> = { params: serializeParams(params) };
          for (;;) {
            const page = await transport.send<SearchResponse<T>>({ method: 'POST', path, body, kind: 'read', signal: requestOptions?.signal });
            yield page.hits;
            if (!page.cursor) return;
            body = { cursor: page.cursor };
          }
        },
      };
    },

    getObjects<T>(requests: Array<{ indexName: string; objectID: string; attributesToRetrieve?: string[] }>, requestOptions?: RequestOptions) {
      if (!Array.isArray(requests)) throw new TypeError('getObjects: requests must be an array');
      for (const r of requests) {
        requireName('getObjects: indexName', r?.indexName);
        requireName('getObjects: objectID', r.objectID);
      }
      return transport.send<{ results: Array<(T & { objectID: string }) | null> }>({
        method: 'POST',
        path: '/1/indexes/*/objects',
        body: { requests },
        kind: 'read',
        signal: requestOptions?.signal,
      });
    },

    recommend<T>(requests: RecommendRequest[], requestOptions?: RequestOptions) {
      if (!Array.isArray(requests) || requests.length === 0) throw new TypeError('recommend: requests must be a non-empty array');
      for (const r of requests) requireName('recommend: indexName', r?.indexName);
      return sharedRead<{ results: Array<RecommendResult<T>> }>({ method: 'POST', path: '/1/indexes/*/recommendations', body: { requests } }, requestOptions);
    },

    sendEvents(events: InsightsEvent[], sendOptions?: SendEventsOptions) {
      if (!Array.isArray(events) || events.length === 0) throw new TypeError('sendEvents: events must be a non-empty array');
      return transport.send<{ status: number; message: string }>({
        method: 'POST',
        path: '/1/events',
        body: { events },
        kind: 'write',
        signal: sendOptions?.signal,
        hosts: [insightsHost],
        keepalive: sendOptions?.keepalive,
        credentialsInUrl: sendOptions?.keepalive === true,
      });
    },

    eventsBeaconUrl() {
      return `${insightsHost.url}/1/events?x-service-application-id=${encodeURIComponent(options.appId)}&x-service-api-key=${encodeURIComponent(options.apiKey)}`;
    },

    request<R>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, requestOptions?: RequestOptions & { kind?: 'read' | 'write' }) {
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method)) throw new TypeError(`request: unsupported method ${String(method)}`);
      if (typeof path !== 'string' || !path.startsWith('/')) throw new TypeError(`request: path must start with "/", got ${JSON.stringify(path)}`);
      const kind: CallKind = requestOptions?.kind ?? (method === 'GET' ? 'read' : 'write');
      // GET and DELETE carry their parameters in the query string (wire rule 3).
      if ((method === 'GET' || method === 'DELETE') && body !== undefined && body !== null) {
        if (typeof body !== 'object' || Array.isArray(body)) throw new TypeError(`request: ${method} parameters must be an object`);
        const query = toQueryString(body as Record<string, unknown>);
        return transport.send<R>({ method, path: query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path, kind, signal: requestOptions?.signal });
      }
      return transport.send<R>({ method, path, body, kind, signal: requestOptions?.signal });
    },

    clearCache() {
      cache?.clear();
    },
  };
  return client;
}
