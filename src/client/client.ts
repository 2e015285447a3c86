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
 * Wire: every call the library makes (searches, multi-queries, facet values, browse, objects, Recommend,
 * Insights events) is a CORS simple request — the credentials as URL parameters under the header names
 * (`X-Service-Application-Id`, `X-Service-API-Key`), the JSON body as `text/plain;charset=UTF-8`, no custom
 * header — so a page on another origin than the service sends no preflight (`OPTIONS`) before it, as the official
 * browser clients do. `request()` (any call, writes included) keeps the credential headers and a JSON content type.
 *
 * Runs in browsers and in Node ≥ 18 (global `fetch`); no Node-only import on this path.
 */
import { LruCache } from './cache.js';
import { ApiError, RetryError, type HostAttempt } from './api-errors.js';
import { fail, list, need } from './errors.js';
import { DEFAULT_DOMAIN, DEFAULT_TIMEOUTS, computeHosts, hostUrl } from './hosts.js';
import { multiSearchBody, serializeParams, toQueryString, urlCredentials } from './params.js';

export { computeHosts, DEFAULT_DOMAIN, DEFAULT_FALLBACK_DOMAIN, DEFAULT_TIMEOUTS } from './hosts.js';
import type { ClientOptions, HostDescriptor, RequestOptions, SearchClient } from './types.js';

/** Default time a failed host is skipped, ms. */
export const DEFAULT_HOST_DOWN_MS = 120_000;

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
  // URL credentials (simple requests, Insights beacons): the services accept them under the header names.
  const credentials = urlCredentials(appId, apiKey);
  const cache = options.cache !== false && new LruCache<unknown>(options.cache);
  /** host url → time until which it is skipped. */
  const downUntil = new Map<string, number>();
  interface SharedCall {
    promise: Promise<unknown>;
    controller: AbortController;
    /** Callers still waiting for it; the network call is aborted when the last one gives up. */
    waiters: number;
  }
  const inFlight = new Map<string, SharedCall>();

  /** How one call travels. */
  interface Call {
    method: Method;
    path: string;
    body?: unknown;
    kind: 'read' | 'write';
    signal?: AbortSignal;
    /**
     * A CORS simple request: credentials in the URL, the JSON body as `text/plain`, no custom header — so a page
     * on another origin sends no preflight (`OPTIONS`) first. Every call but `request()` travels so.
     */
    simple?: boolean;
    /** Insights on unload: a keepalive request (also simple). */
    keepalive?: boolean;
    hosts?: Array<Required<HostDescriptor>>;
  }

  /** The `fetch` options of one attempt (the timeout signal joined to the caller's). */
  function init({ method, body, simple, keepalive }: Call, text: string | undefined, signal: AbortSignal): RequestInit {
    if (simple || keepalive) {
      return {
        method,
        body: text,
        signal,
        // Browsers refuse keepalive bodies over 64 KiB; such a batch goes as an ordinary request.
        keepalive: Boolean(keepalive) && new Blob([text ?? '']).size <= 65_536,
        headers: text === undefined ? {} : { 'Content-Type': 'text/plain;charset=UTF-8' },
      };
    }
    const headers: Record<string, string> = { 'X-Service-Application-Id': appId, 'X-Service-API-Key': apiKey };
    if (body) headers['Content-Type'] = 'application/json; charset=UTF-8';
    return { method, body: text, signal, headers };
  }

  /** One call with retries across hosts. */
  async function send<T>(call: Call): Promise<T> {
    const { path, body, kind, signal, hosts: list = hosts } = call;
    signal?.throwIfAborted();
    const eligible = list.filter((host) => host.accept !== (kind === 'read' ? 'write' : 'read'));
    const up = eligible.filter((host) => !(downUntil.get(host.url)! > Date.now()));
    const text = body ? JSON.stringify(body) : undefined;
    // Credentials under the header names, as URL parameters (the API documents accept both).
    const query = call.simple || call.keepalive ? (path.includes('?') ? '&' : '?') + credentials : '';
    const attempts: HostAttempt[] = [];
    for (const [i, { url }] of (up.length ? up : eligible).entries()) {
      const ms = (timeouts.connect + timeouts[kind]) * (i + 1);
      const timeout = AbortSignal.timeout(ms);
      let attempt: HostAttempt;
      try {
        const response = await fetch(
          url + path + query,
          init(call, text, signal ? AbortSignal.any([signal, timeout]) : timeout),
        );
        const raw = await response.text();
        const { status } = response;
        let json: { message?: string } | undefined;
        try {
          json = JSON.parse(raw || '{}');
        } catch {
          json = undefined;
        }
        const message = json?.message ?? (raw.slice(0, 200) || response.statusText);
        if (status < 300 && json) return json as T;
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

  /** Starts a read shared by the identical calls made while it is in flight (and caches its answer). */
  function start(key: string, path: string, body: unknown, useCache: boolean | LruCache<unknown>): SharedCall {
    const controller = new AbortController();
    const promise = send({ method: 'POST', path, body, kind: 'read', signal: controller.signal, simple: true });
    const call: SharedCall = { promise, controller, waiters: 0 };
    inFlight.set(key, call);
    // Settled either way: later identical calls start afresh (or read the cache).
    const forget = () => {
      if (inFlight.get(key) === call) inFlight.delete(key);
    };
    promise.then((value) => {
      if (useCache && cache) cache.set(key, value);
      forget();
    }, forget);
    return call;
  }

  /** A read whose answer may come from the cache or be shared with an identical call in flight. */
  async function read<T>(path: string, body: unknown, requestOptions?: RequestOptions): Promise<T> {
    const signal = requestOptions?.signal;
    signal?.throwIfAborted();
    const key = path + JSON.stringify(body);
    const useCache = cache && requestOptions?.cache !== false;
    const hit = useCache && cache.get(key);
    if (hit) return structuredClone(hit) as T;
    const call = inFlight.get(key) ?? start(key, path, body, useCache);
    const forget = () => {
      if (inFlight.get(key) === call) inFlight.delete(key);
    };
    call.waiters++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(signal!.reason);
        call.waiters--;
        // The last interested caller gone: stop the network call too.
        if (call.waiters === 0) {
          call.controller.abort();
          forget();
        }
      };
      signal?.addEventListener('abort', onAbort);
      call.promise
        .finally(() => signal?.removeEventListener('abort', onAbort))
        .then((value) => resolve(structuredClone(value) as T), reject);
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
        multiSearchBody(
          list(requests, 'multiSearch: requests').map((r) => ({
            indexName: need(r?.indexName, 'multiSearch: indexName'),
            params: r.params,
          })),
          requestOptions?.strategy,
        ),
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
        const page = await send<{ hits: never[]; cursor?: string }>({
          method: 'POST',
          path: index(indexName, 'browse'),
          body,
          kind: 'read',
          signal: requestOptions?.signal,
          simple: true,
        });
        yield page.hits;
        if (!page.cursor) return;
        body = { cursor: page.cursor };
      }
    },
    getObjects: (requests, requestOptions) =>
      send({
        method: 'POST',
        path: '/1/indexes/*/objects',
        body: { requests: list(requests, 'getObjects: requests') },
        kind: 'read',
        signal: requestOptions?.signal,
        simple: true,
      }),
    recommend: (requests, requestOptions) =>
      read(
        '/1/indexes/*/recommendations',
        {
          requests: list(requests, 'recommend: requests').map((request) => {
            need(request?.indexName, 'recommend: indexName');
            return request;
          }),
        },
        requestOptions,
      ),
    sendEvents: (events, sendOptions) =>
      send({
        method: 'POST',
        path: '/1/events',
        body: { events: list(events, 'sendEvents: events') },
        kind: 'write',
        signal: sendOptions?.signal,
        simple: true,
        keepalive: sendOptions?.keepalive,
        hosts: insightsHost,
      }),
    eventsBeaconUrl: () => `${insightsHost[0]!.url}/1/events?${credentials}`,
    request(method, path, body, requestOptions) {
      if (!/^(GET|POST|PUT|DELETE) \//.test(`${method} ${path}`))
        fail(`request: needs GET, POST, PUT or DELETE and a path starting with "/", got ${method} ${path}`);
      // GET and DELETE carry their parameters in the query string (wire rule 3).
      const inQuery = method === 'GET' || method === 'DELETE';
      const query = inQuery && body != null ? toQueryString(body, true) : '';
      // Any call of the API, writes included: credentials as headers (a page calling it pays a preflight).
      return send({
        method,
        path: query ? path + (path.includes('?') ? '&' : '?') + query : path,
        body: inQuery ? undefined : body,
        kind: requestOptions?.kind ?? (method === 'GET' ? 'read' : 'write'),
        signal: requestOptions?.signal,
      });
    },
    clearCache: () => {
      if (cache) cache.clear();
    },
  };
}
