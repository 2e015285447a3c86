/**
 * `createClient`: one method per endpoint the library calls, over one retry strategy, with a response
 * cache and in-flight sharing for searches and Recommend.
 *
 * Retry strategy:
 * - Reads try the read hosts, writes the write hosts, in the order given (computed hosts: DSN or main
 *   host first, then the three fallback hosts shuffled once per client).
 * - A network error, a timeout or a 5xx moves the call to the next host and marks the failed host down
 *   for `hostDownMs`; down hosts are skipped until then (when every host is down, all are tried again).
 * - A 4xx ends the call with an {@link ApiError} (never retried); an aborted signal ends it with the
 *   signal's reason (an `AbortError`), and does not mark the host down.
 * - Timeouts grow with each retry: attempt n waits n × (connect + read|write) for the whole answer.
 *
 * Runs in browsers and in Node ≥ 18 (global `fetch`); no Node-only import on this path.
 */
import { LruCache } from './cache.js';
import { ApiError, RetryError, fail, list, need, type HostAttempt } from './errors.js';
import { serializeParams, toQueryString } from './params.js';
import type { ClientOptions, HostDescriptor, RequestOptions, SearchClient } from './types.js';

/** Default domain of the computed hosts. */
export const DEFAULT_DOMAIN = 'service-search.net';
/** Default domain of the three fallback hosts. */
export const DEFAULT_FALLBACK_DOMAIN = 'service-search-net.com';
/** Default base timeouts, ms (the values of the hosted API's official clients). */
export const DEFAULT_TIMEOUTS = { connect: 2_000, read: 5_000, write: 30_000 };
/** Default time a failed host is skipped, ms. */
export const DEFAULT_HOST_DOWN_MS = 120_000;

const hostUrl = (url: string) => (/^[a-z][a-z\d+.-]*:\/\//i.test(url) ? url : `https://${url}`).replace(/\/+$/, '');

/**
 * The hosts of a client: explicit `hosts` when given, else `{appId}-dsn.{domain}` (reads),
 * `{appId}.{domain}` (writes) and `{appId}-{1,2,3}.{fallbackDomain}` in a shuffled order (both).
 *
 * @example
 * computeHosts({ appId: 'APP', apiKey: 'k' })[0] // { url: 'https://APP-dsn.service-search.net', accept: 'read' }
 */
export function computeHosts(options: ClientOptions, random = Math.random): Array<Required<HostDescriptor>> {
  const { appId, hosts, domain = DEFAULT_DOMAIN } = options;
  if (hosts) {
    return list(hosts, 'createClient: hosts').map((host) => {
      const { url, accept = 'readWrite' } = (typeof host === 'string' ? { url: host } : host) ?? {};
      return { url: hostUrl(need(url, 'createClient: host url')), accept };
    });
  }
  const fallbacks = [1, 2, 3].map((n) => ({
    url: `https://${appId}-${n}.${options.fallbackDomain ?? DEFAULT_FALLBACK_DOMAIN}`,
    accept: 'readWrite' as const,
  }));
  // Fisher–Yates, once per client: spreads the retry load over the fallback hosts ("shuffle the list at start").
  for (let i = 2; i; i--) {
    const j = Math.floor(random() * (i + 1));
    [fallbacks[i], fallbacks[j]] = [fallbacks[j]!, fallbacks[i]!];
  }
  return [
    { url: `https://${appId}-dsn.${domain}`, accept: 'read' },
    { url: `https://${appId}.${domain}`, accept: 'write' },
    ...fallbacks,
  ];
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  const appId = need(options?.appId, 'createClient: appId');
  const apiKey = need(options.apiKey, 'createClient: apiKey');
  const hosts = computeHosts(options);
  const insightsHost = [
    {
      url: hostUrl(
        options.insightsHost ??
          (options.hosts ? hosts[0]!.url : `https://insights.${options.domain ?? DEFAULT_DOMAIN}`),
      ),
      accept: 'readWrite' as const,
    },
  ];
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  for (const [name, ms] of Object.entries(timeouts))
    if (!(ms > 0)) fail(`createClient: timeouts.${name} must be > 0`, RangeError);
  const hostDownMs = options.hostDownMs ?? DEFAULT_HOST_DOWN_MS;
  // URL credentials (Insights beacons): document 2 accepts them under the header names, case-sensitive.
  const credentials = `X-Service-Application-Id=${encodeURIComponent(appId)}&X-Service-API-Key=${encodeURIComponent(apiKey)}`;
  const cache = options.cache !== false && new LruCache<unknown>(options.cache);
  /** host url → time until which it is skipped. */
  const downUntil = new Map<string, number>();
  const inFlight = new Map<string, { promise: Promise<unknown>; controller: AbortController; waiters: number }>();

  /** One call with retries across hosts. `keepalive` (Insights on unload) also puts the credentials in the URL. */
  async function send(
    method: Method,
    path: string,
    body: unknown,
    kind: 'read' | 'write',
    signal?: AbortSignal,
    keepalive?: boolean,
    list = hosts,
  ): Promise<any> {
    signal?.throwIfAborted();
    const eligible = list.filter((host) => host.accept !== (kind === 'read' ? 'write' : 'read'));
    const up = eligible.filter((host) => !(downUntil.get(host.url)! > Date.now()));
    const text = body ? JSON.stringify(body) : undefined;
    const attempts: HostAttempt[] = [];
    for (const [i, { url }] of (up.length ? up : eligible).entries()) {
      const ms = (timeouts.connect + timeouts[kind]) * (i + 1);
      const timeout = AbortSignal.timeout(ms);
      let attempt: HostAttempt;
      try {
        const response = await fetch(url + path + (keepalive ? (path.includes('?') ? '&' : '?') + credentials : ''), {
          method,
          body: text,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          // keepalive calls avoid a CORS preflight (like sendBeacon): a safelisted content type, no custom headers.
          // Browsers refuse keepalive bodies over 64 KiB; such a batch goes as an ordinary request.
          keepalive: keepalive && new Blob([text ?? '']).size <= 65_536,
          headers: keepalive
            ? { 'Content-Type': 'text/plain; charset=UTF-8' }
            : {
                'X-Service-Application-Id': appId,
                'X-Service-API-Key': apiKey,
                ...(text && { 'Content-Type': 'application/json; charset=UTF-8' }),
              },
        });
        const raw = await response.text();
        const { status } = response;
        let json: any;
        try {
          json = JSON.parse(raw || '{}');
        } catch {}
        const message = json?.message ?? (raw.slice(0, 200) || response.statusText);
        if (status < 300 && json) return json;
        if (status < 500 && status > 399) throw new ApiError(message, status);
        // A 5xx, or an answer that is not JSON (a proxy's error page…).
        attempt = { host: url, reason: status < 300 ? 'network' : 'status', message, ...(status > 299 && { status }) };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        signal?.throwIfAborted();
        const { message, cause } = error as Error & { cause?: { code?: string } };
        attempt = {
          host: url,
          reason: timeout.aborted ? 'timeout' : 'network',
          message: timeout.aborted ? `no answer within ${ms} ms` : message + (cause?.code ? ` (${cause.code})` : ''),
        };
      }
      attempts.push(attempt);
      downUntil.set(url, Date.now() + hostDownMs);
    }
    throw new RetryError(attempts);
  }

  /** A read whose answer may come from the cache or be shared with an identical call in flight. */
  async function read(path: string, body: unknown, requestOptions?: RequestOptions): Promise<any> {
    const signal = requestOptions?.signal;
    signal?.throwIfAborted();
    const key = path + JSON.stringify(body);
    const useCache = cache && requestOptions?.cache !== false;
    const hit = useCache && cache.get(key);
    if (hit) return structuredClone(hit);
    let shared = inFlight.get(key)!;
    const forget = () => inFlight.get(key) === shared && inFlight.delete(key);
    if (!shared) {
      const controller = new AbortController();
      const promise = send('POST', path, body, 'read', controller.signal);
      inFlight.set(key, (shared = { promise, controller, waiters: 0 }));
      // Settled either way: later identical calls start afresh (or read the cache).
      promise.then((value) => {
        if (useCache) cache.set(key, value);
        forget();
      }, forget);
    }
    shared.waiters++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(signal!.reason);
        // The last interested caller gone: stop the network call too.
        if (!--shared.waiters) shared.controller.abort(), forget();
      };
      signal?.addEventListener('abort', onAbort);
      shared.promise
        .finally(() => signal?.removeEventListener('abort', onAbort))
        .then((value) => resolve(structuredClone(value)), reject);
    });
  }

  const index = (name: string, rest: string) => `/1/indexes/${encodeURIComponent(need(name, 'indexName'))}/${rest}`;

  return {
    appId,
    apiKey,
    search: (indexName, params, requestOptions) =>
      read(index(indexName, 'query'), { params: serializeParams(params) }, requestOptions),
    multiSearch: (requests, requestOptions) =>
      read(
        '/1/indexes/*/queries',
        {
          requests: list(requests, 'multiSearch: requests').map((r) => ({
            indexName: need(r?.indexName, 'multiSearch: indexName'),
            params: serializeParams(r.params),
          })),
          strategy: requestOptions?.strategy,
        },
        requestOptions,
      ),
    searchForFacetValues(indexName, facetName, facetQuery, { maxFacetHits, ...params } = {}, requestOptions) {
      const path = index(indexName, `facets/${encodeURIComponent(need(facetName, 'facetName'))}/query`);
      return read(
        path,
        { params: serializeParams(params), facetQuery: facetQuery ?? '', maxFacetHits },
        requestOptions,
      );
    },
    async *browse(indexName, params, requestOptions) {
      // The first call carries the params, each later one only the cursor of the previous answer.
      let body: object = { params: serializeParams(params) };
      for (;;) {
        const page = await send('POST', index(indexName, 'browse'), body, 'read', requestOptions?.signal);
        yield page.hits;
        if (!page.cursor) return;
        body = { cursor: page.cursor };
      }
    },
    getObjects: (requests, requestOptions) =>
      send(
        'POST',
        '/1/indexes/*/objects',
        { requests: list(requests, 'getObjects: requests') },
        'read',
        requestOptions?.signal,
      ),
    recommend: (requests, requestOptions) =>
      read(
        '/1/indexes/*/recommendations',
        { requests: list(requests, 'recommend: requests').map((r) => (need(r?.indexName, 'recommend: indexName'), r)) },
        requestOptions,
      ),
    sendEvents: (events, sendOptions) =>
      send(
        'POST',
        '/1/events',
        { events: list(events, 'sendEvents: events') },
        'write',
        sendOptions?.signal,
        sendOptions?.keepalive,
        insightsHost,
      ),
    eventsBeaconUrl: () => `${insightsHost[0]!.url}/1/events?${credentials}`,
    request(method, path, body, requestOptions) {
      if (!/^(GET|POST|PUT|DELETE) \//.test(`${method} ${path}`))
        fail(`request: needs GET, POST, PUT or DELETE and a path starting with "/", got ${method} ${path}`);
      // GET and DELETE carry their parameters in the query string (wire rule 3).
      const inQuery = method === 'GET' || method === 'DELETE';
      const query = inQuery && body != null ? toQueryString(body, true) : '';
      return send(
        method,
        query ? path + (path.includes('?') ? '&' : '?') + query : path,
        inQuery ? undefined : body,
        requestOptions?.kind ?? (method === 'GET' ? 'read' : 'write'),
        requestOptions?.signal,
      );
    },
    clearCache: () => {
      if (cache) cache.clear();
    },
  };
}
