/**
 * `createLocalClient`: a {@link SearchClient} whose searches, facet value searches, record reads and
 * Recommend requests are answered by the engine in a Web Worker from exported `.svcidx` files — the same
 * interface the store and the elements use with the service, and the same engine code.
 */
import { ApiError } from '../client/api-errors.js';
import { createClient } from '../client/index.js';
import { serializeParams } from '../client/params.js';
import type { InsightsEvent, SearchClient } from '../client/types.js';
import { type LocalEventStore, openLocalEventStore } from './event-store.js';
import type { WorkerCall, WorkerRequest, WorkerResponse } from './messages.js';

export interface LocalClientOptions {
  /** The `.svcidx` files to load: URLs (fetched by the worker) or their bytes. */
  indices: Array<string | URL | ArrayBuffer>;
  /** The worker module (default: `worker.js` beside this module). */
  workerUrl?: string | URL;
  /**
   * Where Insights events go: a client of an Insights host, or (the default) the browser's IndexedDB
   * (`svc-search-local`, read with {@link LocalClient.storedEvents}).
   */
  insights?: Pick<SearchClient, 'sendEvents' | 'eventsBeaconUrl'>;
}

/**
 * What loading the indices gave: their names, the time the worker took (fetch, decode, restore or build), and the
 * indices whose file carried the engine's structures in a form this engine does not read, with the reason (they
 * were built from their records instead: they answer the same, only their load took longer).
 */
export interface LocalLoad {
  indices: string[];
  loadMs: number;
  rebuilt: Record<string, string>;
}

export interface LocalClient extends SearchClient {
  /** Settles when the worker has loaded every index (rejects with the reason a file could not be loaded). */
  readonly ready: Promise<LocalLoad>;
  /** The Insights events kept in IndexedDB (when no Insights host is configured), oldest first. */
  storedEvents(): Promise<InsightsEvent[]>;
  /** Stops the worker; later calls reject. */
  terminate(): void;
}

/**
 * A search client answered by the engine in a Web Worker.
 *
 * @example
 * import { createLocalClient } from 'svc-search/local';
 * const client = createLocalClient({ indices: ['/indexes/products.svcidx'] });
 * searchElement.client = client; // <svc-search index-name="products">
 */
export function createLocalClient(options: LocalClientOptions): LocalClient {
  if (!options || !Array.isArray(options.indices) || options.indices.length === 0) {
    throw new TypeError('createLocalClient: indices must list at least one .svcidx URL or its bytes');
  }
  // The literal `new Worker(new URL('./worker.js', import.meta.url))` is what bundlers (Vite) recognise and
  // emit the worker chunk for.
  const worker = options.workerUrl
    ? new Worker(options.workerUrl, { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 1;
  let stopped = false;

  worker.addEventListener('message', (event: MessageEvent<WorkerResponse>) => {
    const answer = event.data;
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(new ApiError(answer.message, answer.status));
  });
  worker.addEventListener('error', (event) => {
    const error = new Error(`svc-search/local worker: ${event.message || 'failed to start'}`);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });

  const post = <T>(request: WorkerCall, signal?: AbortSignal): Promise<T> => {
    if (stopped) return Promise.reject(new Error('svc-search/local: the client was terminated'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      signal?.addEventListener('abort', () => {
        pending.delete(id);
        reject(signal.reason);
      });
      worker.postMessage({ ...request, id } as WorkerRequest);
    });
  };

  const sources = options.indices.map((source) =>
    source instanceof ArrayBuffer ? source : new URL(String(source), location.href).href,
  );
  const ready = post<LocalLoad>({ op: 'load', sources });
  // A failed load is reported by every call (and to whoever awaits `ready`), never as an unhandled rejection.
  ready.catch(() => undefined);
  // Every call waits for the indices; a failed load fails each call with its reason.
  const call = async <T>(method: string, args: unknown[], signal?: AbortSignal): Promise<T> => {
    await ready;
    return post<T>({ op: 'call', method, args }, signal);
  };

  let events: LocalEventStore | undefined;
  const eventStore = () => {
    events ??= openLocalEventStore();
    return events;
  };

  const client: LocalClient = {
    appId: 'local',
    apiKey: '',
    ready,
    search: (indexName, params, requestOptions) =>
      call<{ results: never[] }>(
        'multiSearch',
        [[{ indexName, params: serializeParams(params) }]],
        requestOptions?.signal,
      ).then(({ results }) => results[0]!),
    multiSearch: (requests, requestOptions) =>
      call(
        'multiSearch',
        [
          requests.map((request) => ({ ...request, params: serializeParams(request.params) })),
          requestOptions?.strategy,
        ],
        requestOptions?.signal,
      ),
    searchForFacetValues: (indexName, facetName, facetQuery, { maxFacetHits, ...params } = {}, requestOptions) =>
      call(
        'searchForFacetValues',
        [indexName, facetName, { ...params, facetQuery, ...(maxFacetHits === undefined ? {} : { maxFacetHits }) }],
        requestOptions?.signal,
      ),
    browse: (indexName, params, requestOptions) => browsePages(call, indexName, params ?? {}, requestOptions?.signal),
    getObjects: (requests, requestOptions) => call('getObjects', [requests], requestOptions?.signal),
    recommend: (requests, requestOptions) => call('recommend', [requests], requestOptions?.signal),
    async sendEvents(list, sendOptions) {
      if (options.insights) return options.insights.sendEvents(list, sendOptions);
      await eventStore().add(list);
      return { status: 200, message: 'OK' };
    },
    eventsBeaconUrl() {
      if (options.insights) return options.insights.eventsBeaconUrl();
      // No host to beacon to: the sender then hands the events to sendEvents (IndexedDB).
      throw new Error('svc-search/local: no Insights host');
    },
    request: () => Promise.reject(new ApiError('svc-search/local answers search, Recommend and Insights only', 404)),
    clearCache() {
      // Nothing cached: every answer comes fresh from the worker.
    },
    storedEvents: () => eventStore().all(),
    terminate() {
      stopped = true;
      worker.terminate();
      for (const waiting of pending.values()) waiting.reject(new Error('svc-search/local: the client was terminated'));
      pending.clear();
    },
  };
  return client;
}

/**
 * One local client (one worker) per `local-index` value and Insights host, shared by every `<svc-search>` of the
 * page that names them.
 */
const shared = new Map<string, LocalClient>();

/** Where the events of a shared local client go (`<svc-search insights-host app-id api-key>`). */
export interface LocalInsightsHost {
  /** The Insights host's URL; without it, events are kept in IndexedDB. */
  host: string | undefined;
  appId?: string;
  apiKey?: string;
}

/**
 * The page's local client for a comma-separated list of `.svcidx` URLs (what `<svc-search local-index>` uses):
 * made on first use, then shared; a file that cannot be loaded is reported with `console.error`. With an
 * `insights` host and the key of its application, its events go to that host instead of IndexedDB.
 *
 * @example
 * const client = sharedLocalClient('/indexes/products.svcidx,/indexes/articles.svcidx');
 */
export function sharedLocalClient(indices: string, insights?: LocalInsightsHost): LocalClient {
  const host = insightsHostOf(insights);
  const key = host ? `${indices} ${host.host} ${host.appId} ${host.apiKey}` : indices;
  let client = shared.get(key);
  if (!client) {
    const urls = indices
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean);
    const sender = host && createClient({ appId: host.appId, apiKey: host.apiKey, hosts: [host.host] });
    client = createLocalClient({ indices: urls, insights: sender });
    client.ready.catch((error: Error) => console.error(`<svc-search> local-index: ${error.message}`));
    shared.set(key, client);
  }
  return client;
}

/**
 * An Insights host with the key of its application, the Insights API asking for both; without them, events
 * stay in IndexedDB and the console says why.
 */
function insightsHostOf(
  insights: LocalInsightsHost | undefined,
): { host: string; appId: string; apiKey: string } | undefined {
  const host = insights?.host?.trim();
  if (!host) return undefined;
  if (!(insights?.appId && insights.apiKey)) {
    console.error('<svc-search>: insights-host needs app-id and api-key; Insights events are kept in IndexedDB');
    return undefined;
  }
  return { host, appId: insights.appId, apiKey: insights.apiKey };
}

async function* browsePages(
  call: <T>(method: string, args: unknown[], signal?: AbortSignal) => Promise<T>,
  indexName: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): AsyncIterable<never[]> {
  let cursor: string | undefined;
  do {
    const page = await call<{ hits: never[]; cursor?: string }>(
      'browse',
      [indexName, cursor ? { ...params, cursor } : params],
      signal,
    );
    yield page.hits;
    cursor = page.cursor;
  } while (cursor);
}
