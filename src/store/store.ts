/**
 * `createSearchStore`: the reactive search state of one index.
 *
 * - Named actions change the state synchronously; the search runs once per tick, so several actions in the
 *   same tick make one request, and an action that leaves the requests unchanged makes none. In a visible page
 *   the tick is the next animation frame (keystrokes that arrive within one frame of each other make one
 *   request, sent before that frame is painted); elsewhere (Node, a hidden tab) it is a microtask.
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
 * - A store searches only while it has listeners: the last unsubscribe aborts its searches in flight; actions
 *   change the state without searching until someone subscribes again (who gets one search of the state, if
 *   it differs from the results on screen).
 * - Several indices (`addIndex`): a root store and the stores added to it form a tree sharing one client,
 *   cache, request log and tick; the searches of the whole tree due in one tick go in one multi-query, whose
 *   answer is split back per store.
 * - A store can start from another store's results (`initialResults`, server-side rendering): they are on screen
 *   from the start, and the first search is not sent when its requests are those that produced them.
 */
import { LruCache } from '../client/cache.js';
import { fail, need } from '../client/errors.js';
import type { MultiSearchRequest, RequestOptions } from '../client/types.js';
import { queryStringToState } from './parse-query-string.js';
import { stateToQueryString } from './query-string.js';
import { buildQueries, facetCountsQuery, mergeNeeds, mergeResults, requestsDigest } from './requests.js';

export { requestsDigest } from './requests.js';
import { normalizeState, own, str, strings } from './state.js';
import { type Batched, followed, type Node, type Part, refused, type Tree, tick, type Up, whenDue } from './tree.js';
import type {
  IndexOptions,
  IndexState,
  InitialResults,
  Listener,
  Needs,
  RequestLogEntry,
  SearchResults,
  SearchStore,
  StoreOptions,
  StoreSnapshot,
} from './types.js';

/** Default delay before a pending search is reported `stalled`, ms. */
export const DEFAULT_STALLED_DELAY_MS = 200;

const toggled = <V>(list: V[] = [], value: V) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

/**
 * Creates a store searching `indexName` through `client`. The first search runs when the first listener
 * subscribes (at the next tick, so needs registered meanwhile are part of it).
 *
 * Cache: `cache: { ttlMs, maxEntries }` (defaults 2 minutes, 100 answers) or `cache: false`.
 *
 * @example
 * const store = createSearchStore({ client, indexName: 'products' });
 * store.registerNeeds('brand-list', { disjunctiveFacets: ['brand'] });
 * store.subscribe(({ results, status }) => render(results, status));
 * store.setQuery('phone'); store.toggleRefinement('brand', 'Apple', 'or'); // one request
 * const articles = store.addIndex('articles'); // follows the query; searched in the same request
 */
export function createSearchStore<T = Record<string, unknown>>(options: StoreOptions): SearchStore<T> {
  const client = options?.client;
  if (typeof client?.multiSearch !== 'function') fail('createSearchStore: client must be a SearchClient');
  const baseIndex = need(options.indexName, 'createSearchStore: indexName');
  const stalledDelayMs = options.stalledDelayMs ?? DEFAULT_STALLED_DELAY_MS;
  if (!(stalledDelayMs >= 0)) fail('createSearchStore: stalledDelayMs must be ≥ 0', RangeError);
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  const cache = options.cache !== false && new LruCache<any>(options.cache);
  const requestLog: RequestLogEntry[] = [];
  const tree: Tree = {
    client,
    cache,
    requestLog,
    stalledDelayMs,
    ticking: false,
    riders: [],
    log: (kind, body, cached = false) =>
      void requestLog.push({ kind, at: Date.now(), body: structuredClone(body), cached }),
    fromCache(kind, key, body) {
      const hit = cache ? cache.get(kind + key) : undefined;
      if (hit) tree.log(kind, body, true);
      return hit && structuredClone(hit);
    },
  };
  const initial =
    typeof options.initialState === 'string'
      ? queryStringToState(options.initialState, baseIndex)
      : normalizeState(options.initialState ?? {}, baseIndex);
  tree.root = createNode<T>(tree, baseIndex, initial, undefined, options.initialResults as InitialResults<T>);
  return tree.root.store;
}

/**
 * One store of a tree: the root (`createSearchStore`) or an added index (`addIndex`, with `parent` and the
 * `changed` / `removed` calls that keep the parent's URL state in step).
 */
function createNode<T>(tree: Tree, baseIndex: string, initial: IndexState, up?: Up, server?: InitialResults<T>): Node {
  const { client, cache, log, fromCache } = tree;
  const normalize = (partial: Partial<IndexState>) => normalizeState(partial, baseIndex);
  /** The store's own state (its added indices' states live in their stores, or in `indices` until added). */
  let { indices: initialIndices, ...state } = initial as IndexState;
  let snapshot: StoreSnapshot<T> = server
    ? {
        state,
        results: server.results ?? null,
        status: server.error === undefined ? 'idle' : 'error',
        error: server.error === undefined ? null : new Error(server.error),
        initialising: false,
      }
    : { state, results: null, status: 'idle', error: null, initialising: true };
  /** Results from another store, adopted by the first search when its requests are theirs (then it is not sent). */
  let adoptable = server?.results ? server : undefined;
  /** Started from another store's results or error: the first search has not decided yet (see `searchDue`). */
  let deciding = Boolean(server);
  /** The requests of the results (or error) on screen. */
  let shownRequests: MultiSearchRequest[] | undefined;
  let notified: StoreSnapshot<T> | undefined;
  const listeners = new Set<Listener<T>>();
  const needs = new Map<string, Needs>();
  const indices: Node['indices'] = new Map(
    Object.entries(initialIndices ?? {}).map(([name, child]) => [name, { state: child }]),
  );
  /** The searches pending, by sequence number. */
  const pending = new Map<number, Part>();
  /** The root's abort controllers of batched calls (Recommend, `searchIndex`). */
  const controllers = new Set<AbortController>();
  let disposed = false;
  let force = false;
  /** Refused on its own: searched in a request of its own until it succeeds. */
  let alone = false;
  /** Key of the requests of the last search started (an unchanged state makes no new one), and of the results on screen. */
  let lastKey: string | undefined;
  let shownKey: string | undefined;
  /** Sequence number of the last search started, and of the one whose answer is on screen. */
  let sent = 0;
  let shown = 0;
  let stalledTimer: ReturnType<typeof setTimeout> | undefined;
  /** Recommend requests and other searches (`searchIndex`) of this tick, per kind, and identical requests in flight (shared). */
  const queues: Partial<
    Record<
      Batched,
      Array<[key: string, request: object, resolve: (value: unknown) => void, reject: (error: unknown) => void]>
    >
  > = {};
  const shared = new Map<string, Promise<unknown>>();

  /** Runs `call` with an abort controller that `dispose` fires. */
  const abortable = <R>(call: (signal: AbortSignal) => Promise<R>) => {
    const controller = new AbortController();
    controllers.add(controller);
    return call(controller.signal).finally(() => controllers.delete(controller));
  };
  /** True while a search newer than the one on screen is pending. */
  const newerPending = () => [...pending.keys()].some((seq) => seq > shown);
  const busy = () => /^(loading|stalled)$/.test(snapshot.status);
  /** Its own needs after those inherited from above (its own win on a conflicting parameter). */
  const allNeeds = () => [...(up?.inherited() ?? []), ...needs.values()];
  const inherited = () => [...(up?.inherited() ?? []), ...[...needs.values()].filter((n) => n.inherit)];
  const built = () => buildQueries(state, mergeNeeds(allNeeds()));
  /** Inherited needs changed: every live added index (and theirs) searches again if its requests changed. */
  const rescanIndices = () => {
    for (const entry of indices.values()) entry.live?.rescan();
  };
  const keyOf = (requests: MultiSearchRequest[]) => JSON.stringify({ requests });
  const adopts = (requests: MultiSearchRequest[]) => adoptable?.requests === requestsDigest(requests);
  /**
   * Whether the state's requests differ from those of the results on screen. Until the first search, a store
   * started from another store's results (or error) says no: it keeps showing them as they are, its needs arrive in
   * steps (an element registers defaults when it connects, then those of its properties), and the first search
   * decides — adopt the results, or search (`loading` from then on).
   */
  const searchDue = () => force || (!deciding && keyOf(built().requests) !== lastKey);

  function notify() {
    // Nothing new since the last notification (e.g. needs re-registered unchanged): no re-render.
    if (snapshot === notified) return;
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

  /** The URL state changed in an added index (or the list of them): a new snapshot for this store's listeners (routing), and up. */
  function changed() {
    if (disposed) return;
    update({});
    schedule();
    up?.changed();
  }

  /**
   * Makes `next` the state; a state equal to the current one changes nothing. A changed query is followed by
   * the added indices; `given` (from `setState`) then replaces the states of the indices it names.
   */
  function commit(next: IndexState, given?: Record<string, IndexState>) {
    alive();
    const { indices: _, ...own } = next;
    if (JSON.stringify(own) !== JSON.stringify(state)) {
      const follow = own.query !== state.query;
      state = own;
      update({ state });
      if (follow) {
        for (const entry of indices.values()) {
          if (entry.live) entry.live.follow(own.query);
          else entry.state = followed(entry.state!, own.query);
        }
      }
      schedule();
      up?.changed();
    }
    for (const [id, child] of Object.entries(given ?? {})) {
      const entry = indices.get(id);
      if (entry?.live) {
        // A URL state names its index by the id when it has no `sortBy`: that is the added index's own.
        const base = entry.live.store.baseIndex;
        entry.live.store.setState(child.indexName === id ? { ...child, indexName: base } : child);
      } else {
        indices.set(id, { state: child });
        changed();
      }
    }
  }

  /** The state with `patch` applied and the page back to 0 (every refinement change resets the page), validated. */
  const change = (patch: Partial<IndexState>) => commit(normalize({ ...state, page: 0, ...patch }));
  const numeric = (attribute: string, list: IndexState['numericRefinements'][string]) =>
    change({ numericRefinements: { ...state.numericRefinements, [attribute]: list } });

  function schedule() {
    if (disposed) return;
    node.due = true;
    // A search is due from now on (the tick may be a frame away): listeners hear `loading` at once, as they did
    // when the tick was a microtask. Needs or actions that leave the requests as they are change nothing.
    if (listeners.size && !busy() && searchDue()) {
      update({ status: 'loading' });
      notify();
    }
    if (tree.ticking) return;
    tree.ticking = true;
    whenDue(() => tick(tree));
  }

  /** The search of this tick, if any: nothing while nobody listens or when the requests are those of the last search. */
  function prepare(): Part | undefined {
    if (disposed || !listeners.size) return;
    const sentState = state;
    const queries = built();
    const key = keyOf(queries.requests);
    if (deciding) {
      const adopted = !force && adopts(queries.requests);
      // Only the first search can be the other store's: after it, the results on screen are this store's own.
      deciding = false;
      adoptable = undefined;
      if (adopted) {
        lastKey = shownKey = key;
        shownRequests = queries.requests;
        return void notify();
      }
    }
    if (!force && key === lastKey) {
      // Subscribing reported `loading` for a search that turned out not to be needed (e.g. needs removed since).
      if (busy() && !newerPending()) update({ status: snapshot.error ? 'error' : 'idle' });
      return void notify();
    }
    force = false;
    lastKey = key;
    const seq = ++sent;
    const hit = fromCache('search', key, { requests: queries.requests });
    if (hit) return void show(seq, key, queries.requests, mergeResults(sentState, queries, hit));
    const part: Part = {
      requests: queries.requests,
      alone,
      answer(results, error, single) {
        if (!pending.delete(seq)) return; // given up (no listener left, disposed)
        if (single) alone = !results && refused(error);
        if (results) {
          if (cache) cache.set(`search${key}`, results);
          return show(seq, key, queries.requests, mergeResults(sentState, queries, results));
        }
        if ((error as Error)?.name === 'AbortError') return;
        // The same state may be searched again (retry by repeating the action or `refresh()`).
        if (seq === sent) lastKey = undefined;
        show(seq, undefined, queries.requests, undefined, error instanceof Error ? error : new Error(String(error)));
      },
    };
    pending.set(seq, part);
    if (!busy()) update({ status: 'loading' });
    // Counted from the first search of a busy spell: a user typing on does not keep postponing `stalled`.
    stalledTimer ??= setTimeout(() => {
      stalledTimer = undefined;
      if (!disposed && newerPending()) {
        update({ status: 'stalled' });
        notify();
      }
    }, tree.stalledDelayMs);
    notify();
    return part;
  }

  function show(
    seq: number,
    key: string | undefined,
    requests: MultiSearchRequest[],
    results?: SearchResults<T>,
    error?: Error,
  ) {
    // Out of order: an older answer never replaces a newer one already shown.
    if (seq <= shown) return;
    shown = seq;
    shownKey = key;
    shownRequests = requests;
    const waiting = newerPending();
    if (!waiting) stalledTimer = void clearTimeout(stalledTimer);
    update({
      ...(error ? { error } : { results, error: null }),
      initialising: false,
      status: waiting ? snapshot.status : error ? 'error' : 'idle',
    });
    notify();
  }

  /** Gives up the searches in flight (their answers are ignored; the HTTP request is aborted unless another store of the tree waits on it). */
  function abandon() {
    for (const part of pending.values()) {
      part.dropped = true;
      part.drop?.();
    }
    pending.clear();
    stalledTimer = void clearTimeout(stalledTimer);
  }

  /** Sends the requests of one kind queued this tick in one call: `recommend` or `multiSearch`, as the client's methods. */
  function flush(kind: Batched) {
    const batch = queues[kind]!;
    delete queues[kind];
    // Queued before `dispose()`: never sent.
    if (disposed) {
      for (const item of batch) item[3](new DOMException('The store was disposed.', 'AbortError'));
      return;
    }
    const requests = batch.map((item) => item[1]);
    /** Hands each caller its answer (cached), or the error. */
    const answer = (results?: unknown[], error?: unknown) => {
      for (const [i, [key, , resolve, reject]] of batch.entries()) {
        const result = results?.[i];
        if (!result) {
          reject(error ?? new Error(`svc-search: no ${kind} result ${i}`));
          continue;
        }
        if (cache) cache.set(kind + key, result);
        resolve(result);
      }
    };
    // A tick is queued (the state changed in this task too: typing with search-as-you-type): these searches ride
    // in its multi-query, one request for both rather than one each.
    if (kind === 'multiSearch' && tree.ticking) {
      tree.riders.push({ requests: requests as MultiSearchRequest[], alone: false, answer });
      return;
    }
    log(kind, { requests });
    abortable((signal) =>
      (client[kind] as (requests: object[], options: RequestOptions) => Promise<{ results: unknown[] }>)(requests, {
        signal,
        cache: false,
      }),
    ).then(
      ({ results }) => answer(results),
      (error) => answer(undefined, error),
    );
  }

  /** A request batched with the others of its kind in this tick, answered from the cache or shared with an identical one in flight. */
  function batched<R>(kind: Batched, request: object): Promise<R> {
    const key = JSON.stringify(request);
    const hit = fromCache(kind, key, { requests: [request] });
    if (hit) return Promise.resolve(hit as R);
    let call = shared.get(kind + key);
    if (!call) {
      const created = new Promise<unknown>((resolve, reject) => {
        const queue = queues[kind] ?? [];
        queues[kind] = queue;
        queue.push([key, structuredClone(request), resolve, reject]);
        if (queue.length === 1) queueMicrotask(() => flush(kind));
      });
      const forget = () => {
        if (shared.get(kind + key) === created) shared.delete(kind + key);
      };
      created.then(forget, forget);
      shared.set(kind + key, created);
      call = created;
    }
    return call.then((value) => structuredClone(value) as R);
  }

  /** The root's URL state with the state of the added index of id `name` replaced by `child`. */
  const withIndex = (name: string, child: IndexState): [IndexState, string] => {
    const current = routeState();
    const mine = {
      ...current,
      indices: Object.fromEntries(Object.entries(current.indices!).map(([n, s]) => [n, n === name ? child : s])),
    };
    return up ? up.withIndex(mine) : [mine, baseIndex];
  };
  const routeState = (): IndexState =>
    indices.size
      ? {
          ...state,
          indices: Object.fromEntries(
            [...indices].map(([name, entry]) => [name, entry.live ? entry.live.routeState() : entry.state!]),
          ),
        }
      : state;
  /** The root's store: added indices batch their Recommend requests and `searchIndex` searches with the root's. */
  const root = () => tree.root?.store ?? store;

  const store: SearchStore<T> = {
    client,
    baseIndex,
    requestLog: tree.requestLog,
    parent: up?.store,
    indexId: up?.id,
    getSnapshot: () => snapshot,
    get indices() {
      return new Map([...indices].flatMap(([name, entry]) => (entry.live ? [[name, entry.live.store] as const] : [])));
    },

    subscribe(listener) {
      if (typeof listener !== 'function') fail('subscribe: listener must be a function');
      listeners.add(listener);
      // The first listener wakes the store: it searches the state when it differs from the results on screen.
      if (listeners.size === 1 && !disposed && deciding) schedule();
      else if (listeners.size === 1 && !disposed && searchDue()) {
        if (!busy()) update({ status: 'loading' });
        schedule();
      }
      listener(snapshot);
      return () => {
        if (!listeners.delete(listener) || listeners.size || disposed) return;
        // Nobody listens: stop. The next subscriber searches again unless the results on screen match the state.
        abandon();
        lastKey = shownKey;
        if (busy()) update({ status: snapshot.error ? 'error' : 'idle' });
      };
    },

    registerNeeds(id, controllerNeeds) {
      need(id, 'registerNeeds: id');
      if (!controllerNeeds || typeof controllerNeeds !== 'object') fail('registerNeeds: needs must be an object');
      const before = needs.get(id);
      needs.set(id, controllerNeeds);
      schedule();
      if (controllerNeeds.inherit || before?.inherit) rescanIndices();
      // Removing needs makes no request by itself: the results on screen are a superset of what is left. The
      // added indices' requests are shaped by inherited needs (a root <svc-configure>'s filters): they search
      // again when theirs changed.
      return () => {
        if (needs.get(id) !== controllerNeeds) return;
        needs.delete(id);
        if (controllerNeeds.inherit) rescanIndices();
      };
    },

    // Every action builds the next state and `normalizeState` validates it (one pass, naming the bad field).
    setQuery: (query) => change({ query }),
    setPage: (page) => commit(normalize({ ...state, page })),
    setHitsPerPage: (hitsPerPage) => change({ hitsPerPage }),
    toggleRefinement(attribute, value, operator = 'and') {
      const field =
        own({ and: 'facetRefinements', or: 'disjunctiveFacetRefinements' } as const, operator) ??
        fail(`operator must be and or or, got ${operator}`, RangeError);
      change({
        [field]: { ...state[field], [str(attribute, 'attribute')]: toggled(own(state[field], attribute), value) },
      });
    },
    isRefined: (attribute, value) =>
      !!(
        own(state.facetRefinements, attribute)?.includes(value) ||
        own(state.disjunctiveFacetRefinements, attribute)?.includes(value)
      ),
    addNumericRefinement(attribute, operator, value) {
      const current = own(state.numericRefinements, str(attribute, 'attribute')) ?? [];
      if (!current.some((r) => r.operator === operator && Object.is(r.value, value)))
        numeric(attribute, [...current, { operator, value }]);
    },
    removeNumericRefinement(attribute, operator, value) {
      const current = own(state.numericRefinements, attribute) ?? [];
      const next = current.filter(
        (r) => !((operator === undefined || r.operator === operator) && (value === undefined || r.value === value)),
      );
      if (next.length < current.length) numeric(attribute, next);
    },
    toggleTag: (tag) => change({ tagRefinements: toggled(state.tagRefinements, tag) }),
    clearRefinements(attributes) {
      // Tags are the `_tags` attribute of the records.
      const drop = attributes && strings(attributes, 'attributes');
      const keep = <V>(map: Record<string, V>) =>
        drop ? Object.fromEntries(Object.entries(map).filter(([k]) => !drop.includes(k))) : {};
      change({
        facetRefinements: keep(state.facetRefinements),
        disjunctiveFacetRefinements: keep(state.disjunctiveFacetRefinements),
        numericRefinements: keep(state.numericRefinements),
        tagRefinements: drop && !drop.includes('_tags') ? state.tagRefinements : [],
      });
    },
    setIndex: (indexName) => change({ indexName }),
    setRuleContexts: (ruleContexts) => change({ ruleContexts }),
    setState(partial) {
      const next = normalize(partial);
      commit(next, next.indices);
    },
    refresh() {
      alive();
      if (cache) cache.clear();
      client.clearCache();
      node.force();
    },

    searchForFacetValues(attribute, facetQuery, maxFacetHits = 10) {
      need(attribute, 'searchForFacetValues: attribute');
      str(facetQuery, 'searchForFacetValues: facetQuery');
      // The values of a facet are searched with the other refinements applied, an OR facet's own left out.
      const { params } = facetCountsQuery(state, mergeNeeds(allNeeds()), attribute);
      const body = { indexName: state.indexName, facetName: attribute, facetQuery, maxFacetHits, params };
      const key = JSON.stringify(body);
      const hit = fromCache('searchForFacetValues', key, body);
      if (hit) return Promise.resolve(hit.facetHits);
      log('searchForFacetValues', body);
      return client
        .searchForFacetValues(state.indexName, attribute, facetQuery, { ...params!, maxFacetHits }, { cache: false })
        .then((answer) => {
          if (cache) cache.set(`searchForFacetValues${key}`, answer);
          return answer.facetHits;
        });
    },

    recommend(request) {
      if (up) return root().recommend(request);
      if (typeof request?.indexName !== 'string' || typeof request.model !== 'string') {
        return Promise.reject(new TypeError('svc-search: recommend: request needs indexName and model'));
      }
      return batched('recommend', request);
    },

    searchIndex(request) {
      if (up) return root().searchIndex(request);
      need(request?.indexName, 'searchIndex: indexName');
      return batched('multiSearch', request);
    },

    getInitialResults() {
      if (!shownRequests || newerPending()) return undefined;
      const requests = requestsDigest(shownRequests);
      return snapshot.error
        ? { error: snapshot.error.message, requests }
        : { results: structuredClone(snapshot.results!), requests };
    },

    toQueryString: (indexState = routeState()) =>
      stateToQueryString({ ...indexState, indices: indexState.indices ?? routeState().indices }, baseIndex),
    fromQueryString: (query) => queryStringToState(query, baseIndex),
    createURL(update) {
      if (typeof update !== 'function') fail('createURL: change must be a function');
      const next = normalize(update(structuredClone(routeState())));
      // An added index's links open the whole page: the root's URL state with this index's state changed.
      if (!up) return `?${store.toQueryString(next)}`;
      const [whole, rootIndex] = up.withIndex({ ...next, indices: next.indices ?? routeState().indices });
      return `?${stateToQueryString(whole, rootIndex)}`;
    },

    addIndex(indexName, { initialState, indexId }: IndexOptions = {}) {
      alive();
      need(indexName, 'addIndex: indexName');
      const id = indexId === undefined ? indexName : need(indexId, 'addIndex: indexId');
      const entry = indices.get(id);
      if (entry?.live) fail(`addIndex: an index of id ${id} is already added`, Error);
      // A state kept from a URL: read with the id as its base index, so without `sortBy` it names the id.
      const kept = entry?.state && {
        ...entry.state,
        indexName: entry.state.indexName === id ? indexName : entry.state.indexName,
      };
      const start =
        kept ??
        (typeof initialState === 'string'
          ? queryStringToState(initialState, indexName)
          : normalizeState({ query: state.query, ...initialState }, indexName));
      // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
      const child = createNode<any>(tree, indexName, start, {
        store,
        id,
        changed,
        withIndex: (state) => withIndex(id, state),
        inherited,
        removed() {
          if (indices.get(id)?.live !== child) return;
          indices.delete(id);
          changed();
        },
      });
      indices.set(id, { live: child });
      changed();
      return child.store;
    },
    removeIndex(indexId) {
      const entry = indices.get(indexId);
      if (!entry) return false;
      if (entry.live) entry.live.store.dispose();
      else {
        indices.delete(indexId);
        changed();
      }
      return true;
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      for (const entry of [...indices.values()]) entry.live?.store.dispose();
      abandon();
      for (const controller of controllers) controller.abort();
      listeners.clear();
      needs.clear();
      up?.removed();
    },
  };

  const node: Node = {
    store,
    due: false,
    indices,
    prepare,
    routeState,
    follow: (query) => void (query !== state.query && change({ query })),
    force() {
      force = true;
      schedule();
      for (const entry of indices.values()) entry.live?.force();
    },
    rescan() {
      schedule();
      rescanIndices();
    },
  };
  schedule();
  return node;
}
