/**
 * `createSearchStore`: the reactive search state of one index.
 *
 * - Named actions change the state synchronously; the search runs once per tick (a microtask), so several
 *   actions in the same tick make one request, and an action that leaves the requests unchanged makes none.
 * - All queries of a state (main + disjunctive facet queries) go in one multi-query request.
 * - Every request carries a sequence number; an answer older than the one on screen is dropped, so
 *   responses arriving out of order never overwrite newer ones.
 * - Answers are cached per request (default 2 minutes, 100 entries): a state already seen answers from
 *   the cache at once, without a request (flagged `cached: true` in `requestLog`).
 * - Status: `loading` while the newest search is pending, `stalled` once it has been pending for
 *   `stalledDelayMs` (default 200), `error` when it failed (the last results stay), else `idle`.
 */
import { LruCache } from '../client/cache.js';
import type { FacetHit, RecommendRequest, RecommendResult, SearchParams, SearchResponse } from '../client/types.js';
import { queryStringToState, stateToQueryString } from './query-string.js';
import { buildQueries, mergeNeeds, mergeResults } from './requests.js';
import * as transitions from './state.js';
import type { IndexState, Listener, Needs, RequestLogEntry, SearchResults, SearchStore, StoreOptions, StoreSnapshot } from './types.js';

/** Default delay before a pending search is reported `stalled`, ms. */
export const DEFAULT_STALLED_DELAY_MS = 200;

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'AbortError';
}

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
  if (!client || typeof client.multiSearch !== 'function') throw new TypeError('createSearchStore: `client` must be a SearchClient');
  if (typeof options.indexName !== 'string' || options.indexName === '') throw new TypeError('createSearchStore: `indexName` must be a non-empty string');
  const stalledDelayMs = options.stalledDelayMs ?? DEFAULT_STALLED_DELAY_MS;
  if (!(stalledDelayMs >= 0)) throw new RangeError('createSearchStore: `stalledDelayMs` must be ≥ 0');
  const baseIndex = options.indexName;
  const cache = options.cache === false ? undefined : new LruCache<unknown>(options.cache ?? {});

  let state =
    typeof options.initialState === 'string'
      ? queryStringToState(options.initialState, baseIndex)
      : transitions.normalizeState(options.initialState ?? {}, baseIndex);
  let snapshot: StoreSnapshot<T> = { state, results: null, status: 'idle', error: null, initialising: true };
  const listeners = new Set<Listener<T>>();
  const needs = new Map<string, Needs>();
  const requestLog: RequestLogEntry[] = [];
  const controllers = new Set<AbortController>();

  let disposed = false;
  let scheduled = false;
  let force = false;
  /** Key of the requests of the last search started (an unchanged state makes no new one). */
  let lastKey: string | undefined;
  /** Sequence number of the last search started, and of the one whose answer is on screen. */
  let sentSeq = 0;
  let shownSeq = 0;
  const pendingSeqs = new Set<number>();
  let stalledTimer: ReturnType<typeof setTimeout> | undefined;

  const log = (entry: Omit<RequestLogEntry, 'at'>) => requestLog.push({ ...entry, at: Date.now() });

  let notified: StoreSnapshot<T> | undefined;
  function notify() {
    // Nothing new since the last notification (e.g. needs re-registered unchanged): no re-render.
    if (snapshot === notified) return;
    notified = snapshot;
    for (const listener of [...listeners]) {
      if (!listeners.has(listener)) continue;
      try {
        listener(snapshot);
      } catch (error) {
        console.error('svc-search store listener failed:', error);
      }
    }
  }

  function setSnapshot(patch: Partial<StoreSnapshot<T>>) {
    snapshot = { ...snapshot, ...patch };
  }

  /** True while a search newer than the one on screen is pending. */
  const newerPending = () => [...pendingSeqs].some((seq) => seq > shownSeq);

  function settleStatus(): void {
    if (newerPending()) return;
    clearTimeout(stalledTimer);
    stalledTimer = undefined;
  }

  function commit(next: IndexState) {
    if (disposed) throw new Error('svc-search store: used after dispose()');
    if (next === state) return;
    state = next;
    setSnapshot({ state });
    schedule();
  }

  function schedule() {
    if (scheduled || disposed) return;
    scheduled = true;
    queueMicrotask(flush);
  }

  function flush() {
    scheduled = false;
    if (disposed) return;
    const sentState = state;
    const built = buildQueries(sentState, mergeNeeds(needs.values()));
    const body = { requests: built.requests };
    const key = JSON.stringify(body);
    if (!force && key === lastKey) {
      notify();
      return;
    }
    force = false;
    lastKey = key;
    const seq = ++sentSeq;
    const cached = cache?.get(`search ${key}`) as SearchResponse<T>[] | undefined;
    if (cached) {
      log({ kind: 'search', body: structuredClone(body), cached: true });
      show(seq, mergeResults(sentState, built, cached));
      return;
    }
    log({ kind: 'search', body: structuredClone(body), cached: false });
    pendingSeqs.add(seq);
    const controller = new AbortController();
    controllers.add(controller);
    if (snapshot.status !== 'loading' && snapshot.status !== 'stalled') setSnapshot({ status: 'loading' });
    // Counted from the first search of a busy spell: a user typing on does not keep postponing `stalled`.
    stalledTimer ??= setTimeout(() => {
      stalledTimer = undefined;
      if (!disposed && newerPending()) {
        setSnapshot({ status: 'stalled' });
        notify();
      }
    }, stalledDelayMs);
    notify();
    client.multiSearch<T>(built.requests, { signal: controller.signal, cache: false }).then(
      (answer) => {
        controllers.delete(controller);
        pendingSeqs.delete(seq);
        if (disposed) return;
        cache?.set(`search ${key}`, answer.results);
        show(seq, mergeResults(sentState, built, answer.results));
      },
      (error: unknown) => {
        controllers.delete(controller);
        pendingSeqs.delete(seq);
        if (disposed || isAbort(error)) return;
        // The same state may be searched again (retry by repeating the action or `refresh()`).
        if (seq === sentSeq) lastKey = undefined;
        if (seq <= shownSeq) return;
        shownSeq = seq;
        const status = newerPending() ? snapshot.status : 'error';
        settleStatus();
        setSnapshot({ status, error: error instanceof Error ? error : new Error(String(error)), initialising: false });
        notify();
      },
    );
  }

  function show(seq: number, results: SearchResults<T>) {
    // Out of order: an older answer never replaces a newer one already shown.
    if (seq <= shownSeq) return;
    shownSeq = seq;
    settleStatus();
    setSnapshot({ results, error: null, initialising: false, status: newerPending() ? snapshot.status : 'idle' });
    notify();
  }

  function sharedCacheable<R>(kind: RequestLogEntry['kind'], key: string, body: unknown, run: () => Promise<R>): Promise<R> {
    const hit = cache?.get(`${kind} ${key}`);
    if (hit !== undefined) {
      log({ kind, body, cached: true });
      return Promise.resolve(structuredClone(hit) as R);
    }
    log({ kind, body, cached: false });
    return run().then((value) => {
      cache?.set(`${kind} ${key}`, value);
      return value;
    });
  }

  // Recommend: requests of one tick go in one call; identical ones share it.
  let recommendQueue: Array<{ key: string; request: RecommendRequest; resolve: (r: RecommendResult<never>) => void; reject: (e: unknown) => void }> = [];
  const recommendInFlight = new Map<string, Promise<RecommendResult<never>>>();

  function flushRecommend() {
    const batch = recommendQueue;
    recommendQueue = [];
    if (disposed || !batch.length) return;
    const requests = batch.map((item) => item.request);
    log({ kind: 'recommend', body: structuredClone({ requests }), cached: false });
    const controller = new AbortController();
    controllers.add(controller);
    client.recommend<never>(requests, { signal: controller.signal, cache: false }).then(
      ({ results }) => {
        controllers.delete(controller);
        batch.forEach((item, i) => {
          const result = results[i];
          if (result) {
            cache?.set(`recommend ${item.key}`, result);
            item.resolve(structuredClone(result));
          } else item.reject(new Error(`recommend: no result for request ${i}`));
        });
      },
      (error: unknown) => {
        controllers.delete(controller);
        for (const item of batch) item.reject(error);
      },
    );
  }

  const store: SearchStore<T> = {
    client,
    baseIndex,
    requestLog,

    getSnapshot: () => snapshot,

    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('subscribe: listener must be a function');
      listeners.add(listener);
      listener(snapshot);
      return () => {
        listeners.delete(listener);
      };
    },

    registerNeeds(id, controllerNeeds) {
      if (typeof id !== 'string' || !id) throw new TypeError('registerNeeds: id must be a non-empty string');
      if (!controllerNeeds || typeof controllerNeeds !== 'object') throw new TypeError('registerNeeds: needs must be an object');
      needs.set(id, controllerNeeds);
      schedule();
      return () => {
        // Removing needs makes no request by itself: the results on screen are a superset of what is left.
        if (needs.get(id) === controllerNeeds) needs.delete(id);
      };
    },

    setQuery(query) {
      if (typeof query !== 'string') throw new TypeError(`setQuery: query must be a string, got ${typeof query}`);
      if (query !== state.query || state.page !== 0) commit({ ...state, query, page: 0 });
    },
    setPage(page) {
      if (!Number.isInteger(page) || page < 0) throw new RangeError(`setPage: page must be an integer ≥ 0, got ${String(page)}`);
      if (page !== state.page) commit({ ...state, page });
    },
    setHitsPerPage(hitsPerPage) {
      if (hitsPerPage !== undefined && (!Number.isInteger(hitsPerPage) || hitsPerPage < 0)) {
        throw new RangeError(`setHitsPerPage: hitsPerPage must be an integer ≥ 0 or undefined, got ${String(hitsPerPage)}`);
      }
      if (hitsPerPage === state.hitsPerPage) return;
      const { hitsPerPage: _previous, ...rest } = state;
      commit(hitsPerPage === undefined ? { ...rest, page: 0 } : { ...rest, hitsPerPage, page: 0 });
    },
    toggleRefinement(attribute, value, operator = 'and') {
      commit(transitions.toggleRefinement(state, attribute, value, operator));
    },
    isRefined: (attribute, value) => transitions.isRefined(state, attribute, value),
    addNumericRefinement(attribute, operator, value) {
      commit(transitions.addNumericRefinement(state, attribute, operator, value));
    },
    removeNumericRefinement(attribute, operator, value) {
      commit(transitions.removeNumericRefinement(state, attribute, operator, value));
    },
    toggleTag(tag) {
      commit(transitions.toggleTag(state, tag));
    },
    clearRefinements(attributes) {
      commit(transitions.clearRefinements(state, attributes));
    },
    setIndex(indexName) {
      if (typeof indexName !== 'string' || !indexName) throw new TypeError('setIndex: indexName must be a non-empty string');
      if (indexName !== state.indexName) commit({ ...state, indexName, page: 0 });
    },
    setRuleContexts(ruleContexts) {
      if (!Array.isArray(ruleContexts) || ruleContexts.some((c) => typeof c !== 'string')) throw new TypeError('setRuleContexts: expected an array of strings');
      commit({ ...state, ruleContexts: [...ruleContexts], page: 0 });
    },
    setState(partial) {
      commit(transitions.normalizeState(partial, baseIndex));
    },
    refresh() {
      if (disposed) throw new Error('svc-search store: used after dispose()');
      cache?.clear();
      client.clearCache();
      force = true;
      schedule();
    },

    searchForFacetValues(attribute, facetQuery, maxFacetHits = 10) {
      if (typeof attribute !== 'string' || !attribute) throw new TypeError('searchForFacetValues: attribute must be a non-empty string');
      if (typeof facetQuery !== 'string') throw new TypeError('searchForFacetValues: facetQuery must be a string');
      // An OR facet searches its values without its own refinements (the other refinements apply).
      const withoutOwn: IndexState = Object.hasOwn(state.disjunctiveFacetRefinements, attribute)
        ? { ...state, disjunctiveFacetRefinements: transitions.withKey(state.disjunctiveFacetRefinements, attribute, undefined) }
        : state;
      const main = buildQueries(withoutOwn, mergeNeeds(needs.values())).requests[0]!.params!;
      const { page: _p, hitsPerPage: _h, facets: _f, maxValuesPerFacet: _m, attributesToRetrieve: _r, attributesToHighlight: _ah, attributesToSnippet: _as, ...params } = main;
      const body = { indexName: state.indexName, facetName: attribute, facetQuery, maxFacetHits, params };
      return sharedCacheable('searchForFacetValues', JSON.stringify(body), structuredClone(body), () =>
        client.searchForFacetValues(state.indexName, attribute, facetQuery, { ...(params as SearchParams), maxFacetHits }, { cache: false }),
      ).then((answer) => answer.facetHits as FacetHit[]);
    },

    recommend<R>(request: RecommendRequest): Promise<RecommendResult<R>> {
      if (!request || typeof request !== 'object' || typeof request.indexName !== 'string' || typeof request.model !== 'string') {
        return Promise.reject(new TypeError('recommend: request needs at least indexName, model and threshold'));
      }
      const key = JSON.stringify(request);
      const hit = cache?.get(`recommend ${key}`);
      if (hit !== undefined) {
        log({ kind: 'recommend', body: { requests: [structuredClone(request)] }, cached: true });
        return Promise.resolve(structuredClone(hit) as RecommendResult<R>);
      }
      const shared = recommendInFlight.get(key);
      if (shared) return shared.then((r) => structuredClone(r) as RecommendResult<R>);
      const promise = new Promise<RecommendResult<never>>((resolve, reject) => {
        if (!recommendQueue.length) queueMicrotask(flushRecommend);
        recommendQueue.push({ key, request: structuredClone(request), resolve, reject });
      });
      recommendInFlight.set(key, promise);
      const forget = () => recommendInFlight.get(key) === promise && recommendInFlight.delete(key);
      promise.then(forget, forget);
      return promise.then((r) => r as RecommendResult<R>);
    },

    toQueryString: (indexState = state) => stateToQueryString(indexState, baseIndex),
    fromQueryString: (query) => queryStringToState(query, baseIndex),
    createURL(change) {
      if (typeof change !== 'function') throw new TypeError('createURL: change must be a function of the state');
      const next = transitions.normalizeState(change(structuredClone(state)), baseIndex);
      return `?${stateToQueryString(next, baseIndex)}`;
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(stalledTimer);
      for (const controller of controllers) controller.abort();
      controllers.clear();
      listeners.clear();
      needs.clear();
      for (const item of recommendQueue) item.reject(new DOMException('The store was disposed.', 'AbortError'));
      recommendQueue = [];
    },
  };

  schedule();
  return store;
}
