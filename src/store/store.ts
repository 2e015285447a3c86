/**
 * `createSearchStore`: the reactive search state of one index.
 *
 * - Named actions change the state synchronously; the search runs once per tick (a microtask), so several
 *   actions in the same tick make one request, and an action that leaves the requests unchanged makes none.
 * - All queries of a state (main + disjunctive facet queries) go in one multi-query request.
 * - Every request carries a sequence number; an answer older than the one on screen is dropped, so
 *   responses arriving out of order never overwrite newer ones.
 * - Answers are cached per request (default 2 minutes, 100 entries): a state already seen answers from
 *   the cache at once, without a request (flagged `cached: true` in `requestLog`). The store asks its
 *   client with `cache: false`, so an answer is kept once, here.
 * - Recommend requests and searches outside the state (`searchIndex`) of one tick go in one call per kind,
 *   identical ones in flight share it, and their answers are cached the same way.
 * - Status: `loading` while the newest search is pending, `stalled` once it has been pending for
 *   `stalledDelayMs` (default 200), `error` when it failed (the last results stay), else `idle`.
 */
import { LruCache } from '../client/cache.js';
import { fail, need } from '../client/errors.js';
import type { RequestOptions, SearchParams, SearchResponse } from '../client/types.js';
import { queryStringToState, stateToQueryString } from './query-string.js';
import { buildQueries, facetCountsQuery, mergeNeeds, mergeResults } from './requests.js';
import { normalizeState, own, str, strings } from './state.js';
import type { IndexState, Listener, Needs, RequestLogEntry, SearchResults, SearchStore, StoreOptions, StoreSnapshot } from './types.js';

/** Default delay before a pending search is reported `stalled`, ms. */
export const DEFAULT_STALLED_DELAY_MS = 200;

/** The kinds of requests sent in batches, named as the client's methods. */
type Batched = 'recommend' | 'multiSearch';

const toggled = <V>(list: V[] = [], value: V) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

/**
 * Creates a store searching `indexName` through `client`. The first search is scheduled at once (in a
 * microtask, so needs registered in the same tick are part of it).
 *
 * Cache: `cache: { ttlMs, maxEntries }` (defaults 2 minutes, 100 answers) or `cache: false`.
 *
 * @example
 * const store = createSearchStore({ client, indexName: 'products' });
 * store.registerNeeds('brand-list', { disjunctiveFacets: ['brand'] });
 * store.subscribe(({ results, status }) => render(results, status));
 * store.setQuery('phone'); store.toggleRefinement('brand', 'Apple', 'or'); // one request
 */
export function createSearchStore<T = Record<string, unknown>>(options: StoreOptions): SearchStore<T> {
  const client = options?.client;
  if (typeof client?.multiSearch != 'function') fail('createSearchStore: client must be a SearchClient');
  const baseIndex = need(options.indexName, 'createSearchStore: indexName');
  const stalledDelayMs = options.stalledDelayMs ?? DEFAULT_STALLED_DELAY_MS;
  if (!(stalledDelayMs >= 0)) fail('createSearchStore: stalledDelayMs must be ≥ 0', RangeError);
  const cache = options.cache !== false && new LruCache<any>(options.cache);
  const normalize = (partial: Partial<IndexState>) => normalizeState(partial, baseIndex);
  let state = typeof options.initialState == 'string' ? queryStringToState(options.initialState, baseIndex) : normalize(options.initialState ?? {});
  let snapshot: StoreSnapshot<T> = { state, results: null, status: 'idle', error: null, initialising: true };
  let notified: StoreSnapshot<T> | undefined;
  const listeners = new Set<Listener<T>>();
  const needs = new Map<string, Needs>();
  const requestLog: RequestLogEntry[] = [];
  const controllers = new Set<AbortController>();
  /** Sequence numbers of the searches pending. */
  const pending = new Set<number>();
  let disposed = false;
  let scheduled = false;
  let force = false;
  /** Key of the requests of the last search started (an unchanged state makes no new one). */
  let lastKey: string | undefined;
  /** Sequence number of the last search started, and of the one whose answer is on screen. */
  let sent = 0;
  let shown = 0;
  let stalledTimer: ReturnType<typeof setTimeout> | undefined;
  /** Recommend requests and other searches (`searchIndex`) of this tick, per kind, and identical requests in flight (shared). */
  const queues: Partial<Record<Batched, Array<[key: string, request: object, resolve: (value: any) => void, reject: (error: unknown) => void]>>> = {};
  const shared = new Map<string, Promise<any>>();

  const log = (kind: RequestLogEntry['kind'], body: unknown, cached = false) => requestLog.push({ kind, at: Date.now(), body: structuredClone(body), cached });
  /** A cached answer (a copy), logged as such. */
  const fromCache = (kind: RequestLogEntry['kind'], key: string, body: unknown) => {
    const hit = cache && cache.get(kind + key);
    if (hit) log(kind, body, true);
    return hit && structuredClone(hit);
  };
  /** Runs `call` with an abort controller that `dispose` fires. */
  const abortable = <R>(call: (signal: AbortSignal) => Promise<R>) => {
    const controller = new AbortController();
    controllers.add(controller);
    return call(controller.signal).finally(() => controllers.delete(controller));
  };
  /** True while a search newer than the one on screen is pending. */
  const newerPending = () => [...pending].some((seq) => seq > shown);

  function notify() {
    // Nothing new since the last notification (e.g. needs re-registered unchanged): no re-render.
    if (snapshot == notified) return;
    notified = snapshot;
    for (const listener of [...listeners]) {
      try {
        if (listeners.has(listener)) listener(snapshot);
      } catch (error) {
        console.error('svc-search store listener failed:', error);
      }
    }
  }

  const update = (patch: Partial<StoreSnapshot<T>>) => (snapshot = { ...snapshot, ...patch });

  function alive() {
    if (disposed) fail('store used after dispose()', Error);
  }

  /** Makes `next` the state; a state equal to the current one changes nothing. */
  function commit(next: IndexState) {
    alive();
    if (JSON.stringify(next) == JSON.stringify(state)) return;
    update({ state: (state = next) });
    schedule();
  }

  /** The state with `patch` applied and the page back to 0 (every refinement change resets the page), validated. */
  const change = (patch: Partial<IndexState>) => commit(normalize({ ...state, page: 0, ...patch }));
  const numeric = (attribute: string, list: IndexState['numericRefinements'][string]) =>
    change({ numericRefinements: { ...state.numericRefinements, [attribute]: list } });

  function schedule() {
    if (scheduled || disposed) return;
    scheduled = true;
    queueMicrotask(search);
  }

  function search() {
    scheduled = false;
    if (disposed) return;
    const sentState = state;
    const built = buildQueries(sentState, mergeNeeds(needs.values()));
    const body = { requests: built.requests };
    const key = JSON.stringify(body);
    if (!force && key == lastKey) return notify();
    force = false;
    lastKey = key;
    const seq = ++sent;
    const hit = fromCache('search', key, body);
    if (hit) return show(seq, mergeResults(sentState, built, hit));
    log('search', body);
    pending.add(seq);
    if (snapshot.status != 'stalled') update({ status: 'loading' });
    // Counted from the first search of a busy spell: a user typing on does not keep postponing `stalled`.
    stalledTimer ??= setTimeout(() => {
      stalledTimer = undefined;
      if (!disposed && newerPending()) update({ status: 'stalled' }), notify();
    }, stalledDelayMs);
    notify();
    abortable((signal) => client.multiSearch<T>(built.requests, { signal, cache: false })).then(
      ({ results }) => {
        pending.delete(seq);
        if (disposed) return;
        if (cache) cache.set('search' + key, results);
        show(seq, mergeResults(sentState, built, results));
      },
      (error: unknown) => {
        pending.delete(seq);
        if (disposed || (error as Error)?.name == 'AbortError') return;
        // The same state may be searched again (retry by repeating the action or `refresh()`).
        if (seq == sent) lastKey = undefined;
        show(seq, undefined, error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  function show(seq: number, results?: SearchResults<T>, error?: Error) {
    // Out of order: an older answer never replaces a newer one already shown.
    if (seq <= shown) return;
    shown = seq;
    const busy = newerPending();
    if (!busy) stalledTimer = void clearTimeout(stalledTimer);
    update({ ...(error ? { error } : { results, error: null }), initialising: false, status: busy ? snapshot.status : error ? 'error' : 'idle' });
    notify();
  }

  /** Sends the requests of one kind queued this tick in one call: `recommend` or `multiSearch`, as the client's methods. */
  function flush(kind: Batched) {
    const batch = queues[kind]!;
    delete queues[kind];
    // Queued before `dispose()`: never sent.
    if (disposed) return batch.forEach((item) => item[3](new DOMException('The store was disposed.', 'AbortError')));
    const requests = batch.map((item) => item[1]);
    log(kind, { requests });
    abortable((signal) => (client[kind] as (requests: object[], options: RequestOptions) => Promise<{ results: unknown[] }>)(requests, { signal, cache: false })).then(
      ({ results }) =>
        batch.forEach(([key, , resolve, reject], i) => {
          const result = results[i];
          if (!result) return reject(new Error(`svc-search: no ${kind} result ${i}`));
          if (cache) cache.set(kind + key, result);
          resolve(result);
        }),
      (error) => batch.forEach((item) => item[3](error)),
    );
  }

  /** A request batched with the others of its kind in this tick, answered from the cache or shared with an identical one in flight. */
  function batched(kind: Batched, request: object): Promise<any> {
    const key = JSON.stringify(request);
    const hit = fromCache(kind, key, { requests: [request] });
    if (hit) return Promise.resolve(hit);
    let call = shared.get(kind + key);
    if (!call) {
      const created = (call = new Promise((resolve, reject) => {
        if ((queues[kind] ??= []).push([key, structuredClone(request), resolve, reject]) == 1) queueMicrotask(() => flush(kind));
      }));
      const forget = () => void (shared.get(kind + key) == created && shared.delete(kind + key));
      created.then(forget, forget);
      shared.set(kind + key, created);
    }
    return call.then(structuredClone);
  }

  const store: SearchStore<T> = {
    client,
    baseIndex,
    requestLog,
    getSnapshot: () => snapshot,

    subscribe(listener) {
      if (typeof listener != 'function') fail('subscribe: listener must be a function');
      listeners.add(listener);
      listener(snapshot);
      return () => void listeners.delete(listener);
    },

    registerNeeds(id, controllerNeeds) {
      need(id, 'registerNeeds: id');
      if (!controllerNeeds || typeof controllerNeeds != 'object') fail('registerNeeds: needs must be an object');
      needs.set(id, controllerNeeds);
      schedule();
      // Removing needs makes no request by itself: the results on screen are a superset of what is left.
      return () => void (needs.get(id) == controllerNeeds && needs.delete(id));
    },

    // Every action builds the next state and `normalizeState` validates it (one pass, naming the bad field).
    setQuery: (query) => change({ query }),
    setPage: (page) => commit(normalize({ ...state, page })),
    setHitsPerPage: (hitsPerPage) => change({ hitsPerPage }),
    toggleRefinement(attribute, value, operator = 'and') {
      const field = own({ and: 'facetRefinements', or: 'disjunctiveFacetRefinements' } as const, operator) ?? fail(`operator must be and or or, got ${operator}`, RangeError);
      change({ [field]: { ...state[field], [str(attribute, 'attribute')]: toggled(own(state[field], attribute), value) } });
    },
    isRefined: (attribute, value) => !!(own(state.facetRefinements, attribute)?.includes(value) || own(state.disjunctiveFacetRefinements, attribute)?.includes(value)),
    addNumericRefinement(attribute, operator, value) {
      const current = own(state.numericRefinements, str(attribute, 'attribute')) ?? [];
      if (!current.some((r) => r.operator == operator && Object.is(r.value, value))) numeric(attribute, [...current, { operator, value }]);
    },
    removeNumericRefinement(attribute, operator, value) {
      const current = own(state.numericRefinements, attribute) ?? [];
      const next = current.filter((r) => !((operator === undefined || r.operator == operator) && (value === undefined || r.value == value)));
      if (next.length < current.length) numeric(attribute, next);
    },
    toggleTag: (tag) => change({ tagRefinements: toggled(state.tagRefinements, tag) }),
    clearRefinements(attributes) {
      // Tags are the `_tags` attribute of the records.
      const drop = attributes && strings(attributes, 'attributes');
      const keep = <V>(map: Record<string, V>) => (drop ? Object.fromEntries(Object.entries(map).filter(([k]) => !drop.includes(k))) : {});
      change({
        facetRefinements: keep(state.facetRefinements),
        disjunctiveFacetRefinements: keep(state.disjunctiveFacetRefinements),
        numericRefinements: keep(state.numericRefinements),
        tagRefinements: drop && !drop.includes('_tags') ? state.tagRefinements : [],
      });
    },
    setIndex: (indexName) => change({ indexName }),
    setRuleContexts: (ruleContexts) => change({ ruleContexts }),
    setState: (partial) => commit(normalize(partial)),
    refresh() {
      alive();
      if (cache) cache.clear();
      client.clearCache();
      force = true;
      schedule();
    },

    searchForFacetValues(attribute, facetQuery, maxFacetHits = 10) {
      need(attribute, 'searchForFacetValues: attribute');
      str(facetQuery, 'searchForFacetValues: facetQuery');
      // The values of a facet are searched with the other refinements applied, an OR facet's own left out.
      const { params } = facetCountsQuery(state, mergeNeeds(needs.values()), attribute);
      const body = { indexName: state.indexName, facetName: attribute, facetQuery, maxFacetHits, params };
      const key = JSON.stringify(body);
      const hit = fromCache('searchForFacetValues', key, body);
      if (hit) return Promise.resolve(hit.facetHits);
      log('searchForFacetValues', body);
      return client.searchForFacetValues(state.indexName, attribute, facetQuery, { ...params!, maxFacetHits }, { cache: false }).then((answer) => {
        if (cache) cache.set('searchForFacetValues' + key, answer);
        return answer.facetHits;
      });
    },

    recommend(request) {
      if (typeof request?.indexName != 'string' || typeof request.model != 'string') {
        return Promise.reject(new TypeError('svc-search: recommend: request needs indexName and model'));
      }
      return batched('recommend', request);
    },

    searchIndex: (request) => (need(request?.indexName, 'searchIndex: indexName'), batched('multiSearch', request)),

    toQueryString: (indexState = state) => stateToQueryString(indexState, baseIndex),
    fromQueryString: (query) => queryStringToState(query, baseIndex),
    createURL(update) {
      if (typeof update != 'function') fail('createURL: change must be a function');
      return '?' + stateToQueryString(normalize(update(structuredClone(state))), baseIndex);
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(stalledTimer);
      for (const controller of controllers) controller.abort();
      listeners.clear();
      needs.clear();
    },
  };

  schedule();
  return store;
}
