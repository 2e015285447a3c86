/**
 * Public types of the reactive search store (`src/store/`). This file is the contract between the store
 * and the controllers, insights and recommend layers; keep it in step with `docs/CONTRACTS.md`.
 */
import type {
  MultiSearchRequest,
  RecommendRequest,
  RecommendResult,
  SearchClient,
  SearchParams,
  SearchResponse,
  FacetHit,
} from '../client/types.js';

/** The serialisable search state of one index (the URL state is built from this). */
export interface IndexState {
  /** The index searched; a sort-by replica replaces it (the main index name is kept in `baseIndex`). */
  indexName: string;
  query: string;
  page: number;
  hitsPerPage?: number;
  /** attribute → refined values (AND between values). */
  facetRefinements: Record<string, string[]>;
  /** attribute → refined values (OR between values; disjunctive faceting). */
  disjunctiveFacetRefinements: Record<string, string[]>;
  /** attribute → list of `{operator, value}` (operator one of `=`, `!=`, `<`, `<=`, `>`, `>=`). */
  numericRefinements: Record<string, Array<{ operator: '=' | '!=' | '<' | '<=' | '>' | '>='; value: number }>>;
  tagRefinements: string[];
  ruleContexts: string[];
  /**
   * (added by multi-index) The states of the indices added with `addIndex`, by index id — and of those a URL
   * or `setState` named before they were added (kept until they are). Present in what `fromQueryString`
   * returns and what `setState` / `toQueryString` / `createURL` take; never in a snapshot's `state`, which is the
   * store's own index only (so a change in another index does not look like a change of this one).
   */
  indices?: Record<string, IndexState>;
}

export type SearchStatus = 'idle' | 'loading' | 'stalled' | 'error';

/** Results of the main index, with disjunctive facet counts merged in. */
export interface SearchResults<T = Record<string, unknown>> extends SearchResponse<T> {
  /** Facet counts after merging the disjunctive queries; use this rather than the raw `facets`. */
  facets: Record<string, Record<string, number>>;
  /** Which facets were computed disjunctively. */
  disjunctiveFacets: string[];
  /** Numbers of hits of count queries (`<svc-numeric-menu show-counts>`'s ranges), by key. */
  counts?: Record<string, number>;
}

export interface StoreSnapshot<T = Record<string, unknown>> {
  state: IndexState;
  results: SearchResults<T> | null;
  status: SearchStatus;
  error: Error | null;
  /** True while the first search has not answered yet. */
  initialising: boolean;
}

/** What a controller asks of the requests (merged over all registered needs). */
export interface Needs {
  /** Facets to compute; a facet listed in `disjunctiveFacets` uses OR semantics. */
  facets?: string[];
  disjunctiveFacets?: string[];
  hitsPerPage?: number;
  maxValuesPerFacet?: number;
  /**
   * The hit attributes this need reads; the store asks for those of every need (and of `params`), and for the
   * index's default when one of them is `'*'` (a need reading hits it cannot name). Leave it out when the
   * controller reads no hit attributes.
   */
  attributesToRetrieve?: string[];
  /** The attributes this need shows highlighted, merged like `attributesToRetrieve` (`'*'`: the index's setting). */
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  /** Any other search parameters (configure element, insights `clickAnalytics`/`userToken`, …). */
  params?: SearchParams;
  /**
   * Queries a controller adds to the request of a state, and how their answers go into the results (the
   * hierarchical menu's levels, the numeric menu's counts): the store stays generic, and a page without those
   * elements carries none of their code.
   */
  queries?: ExtraQueries[];
  /**
   * Rule contexts sent with the queries (`ruleContexts`), united over every controller and the state's own:
   * a list, or a function of the state searched — so contexts that follow the refinements
   * (`<svc-query-rule-context tracked-filters>`) go in the same request as the refinement itself.
   */
  ruleContexts?: string[] | ((state: IndexState) => string[]);
  /**
   * (added for Insights across indices) These needs also apply to every index added under this store
   * (`addIndex`, at any depth), before the added index's own needs (which win on a conflicting parameter).
   * Insights registers `clickAnalytics` and `userToken` this way, so an added index's hits carry a `queryID`.
   */
  inherit?: boolean;
}

/**
 * Queries added to the request of a state by a controller (`Needs.queries`): `build` makes them from the state
 * searched — with `countsQuery`, a no-hit query of that state (analytics off, nothing retrieved) with `params`,
 * leaving out `exclude`'s own OR and numeric refinements — and each one's `merge` puts its answer into the
 * results. Builders with the same `key` are one (two controllers asking the same queries share them).
 */
export interface ExtraQueries {
  key: string;
  build(
    state: IndexState,
    countsQuery: (state: IndexState, params: SearchParams, exclude?: string) => MultiSearchRequest,
  ): Array<{ request: MultiSearchRequest; merge(results: SearchResults, answer: SearchResponse | undefined): void }>;
}

export interface StoreOptions {
  client: SearchClient;
  indexName: string;
  /** Initial state (merged over an empty state) or a URL query string produced by `toQueryString`. */
  initialState?: Partial<IndexState> | string;
  /** Delay before `loading` becomes `stalled`, ms (default 200). */
  stalledDelayMs?: number;
  /** Answers cached per request (search, facet values, Recommend): default 2 minutes, 100 entries; `false` turns it off. */
  cache?: false | { ttlMs?: number; maxEntries?: number };
  /**
   * What another store showed for the same state (a server's, `svc-search/ssr`): the store starts with these
   * results (or this error) on screen, and its first search is not sent when its requests are those that produced
   * them (the user token aside). Read it from the other store with `getInitialResults()`.
   */
  initialResults?: InitialResults<unknown>;
}

/**
 * The results a store shows and the requests that produced them, to start another store from (server-side
 * rendering: the server's store searched, the browser's starts where it stopped). Plain JSON.
 */
export interface InitialResults<T = Record<string, unknown>> {
  /** The results on screen (absent when the search failed). */
  results?: SearchResults<T>;
  /** The failed search's message (then there are no results, and the other store searches again). */
  error?: string;
  /**
   * Digest of the requests of those results, without the `userToken` (a server rarely knows the browser's):
   * the other store adopts the results while its first requests have the same digest.
   */
  requests: string;
}

/** (added by multi-index) Options of `store.addIndex`. */
export interface IndexOptions {
  /**
   * The id of the added index among its parent's (InstantSearch's `indexId`; default: the index name): the
   * same index can be added twice under one parent with two ids (each with its own refinements), and its URL
   * state keys are prefixed with the id.
   */
  indexId?: string;
  /**
   * The index's initial state (merged over an empty state with the parent's query), or a query string of it
   * (`toQueryString` of that index). A state the parent already holds for the index (from its URL or
   * `setState`) wins: it is what the user saw.
   */
  initialState?: Partial<IndexState> | string;
}

export type Listener<T = Record<string, unknown>> = (snapshot: StoreSnapshot<T>) => void;

export interface SearchStore<T = Record<string, unknown>> {
  readonly client: SearchClient;
  /** The main index name (not the sort replica). */
  readonly baseIndex: string;
  getSnapshot(): StoreSnapshot<T>;
  /**
   * Called now with the current snapshot and on every change; returns the unsubscribe function. The store
   * searches only while it has listeners: when the last one leaves, its searches in flight are aborted and
   * actions change the state without searching; the next subscriber gets a search of the current state when
   * it differs from the results on screen (then `status` is `loading` at once).
   */
  subscribe(listener: Listener<T>): () => void;
  /** Declares/updates what a controller needs; returns a function that removes the needs. */
  registerNeeds(id: string, needs: Needs): () => void;

  // Actions: each schedules one search for the tick (several in one tick make one request).
  setQuery(query: string): void;
  setPage(page: number): void;
  setHitsPerPage(hitsPerPage: number | undefined): void;
  /** Toggles a value; `operator` 'or' stores it as a disjunctive refinement. */
  toggleRefinement(attribute: string, value: string, operator?: 'and' | 'or'): void;
  isRefined(attribute: string, value: string): boolean;
  addNumericRefinement(attribute: string, operator: '=' | '!=' | '<' | '<=' | '>' | '>=', value: number): void;
  removeNumericRefinement(attribute: string, operator?: string, value?: number): void;
  toggleTag(tag: string): void;
  /** Removes refinements of the given attributes (all when omitted); keeps the query. */
  clearRefinements(attributes?: string[]): void;
  /** Switches to a replica index (sort-by); `baseIndex` resets. */
  setIndex(indexName: string): void;
  setRuleContexts(ruleContexts: string[]): void;
  /**
   * Replaces the whole state (routing); one search. An added index named in `state.indices` gets that state
   * (after following a changed query); one not named keeps its own; a name not added yet is kept for it.
   */
  setState(state: Partial<IndexState>): void;
  /** Forces a new search with the current state (e.g. after indexing). */
  refresh(): void;

  /** Search for facet values with the current state's other refinements applied. */
  searchForFacetValues(attribute: string, facetQuery: string, maxFacetHits?: number): Promise<FacetHit[]>;
  /** Recommend requests made in the same tick go in one HTTP request; answers are cached. */
  recommend<R = Record<string, unknown>>(request: RecommendRequest): Promise<RecommendResult<R>>;
  /**
   * (added by autocomplete) A search outside the state — another index, e.g. query suggestions: searches of
   * the same tick go in one multi-query (logged as `multiSearch`), identical ones in flight share it, answers
   * are cached like the others. The state, status and results of the store are not touched.
   */
  searchIndex<R = Record<string, unknown>>(request: MultiSearchRequest): Promise<SearchResponse<R>>;

  /**
   * URL query string of the state (`q`, `page` 1-based, refinements…); `fromQueryString` inverts it exactly.
   * The added indices' states follow, each key prefixed with the index name (`articles.q=tv&articles.page=2`):
   * those of `state.indices`, or the current ones when `state` has no `indices`.
   */
  toQueryString(state?: IndexState): string;
  /** The state of a query string, with the added indices' states in `indices`; `setState` takes it. */
  fromQueryString(query: string): IndexState;
  /**
   * `?` + query string of the state after applying `change` (for real links, e.g. pagination hrefs); `change`
   * gets the state with the added indices' states in `indices`. For an added index, the URL of the whole page:
   * its root's URL state with this index's state changed.
   */
  createURL(change: (state: IndexState) => IndexState): string;

  /**
   * (added by multi-index) Adds another index searched with this one (InstantSearch's `index` widget) and
   * returns its store: the same interface, sharing this store's client, cache, request log and search tick.
   * - Its query follows this store's: when this store's query changes, the added index's query is set to
   *   the same value (page reset) in the same tick; it may set its own query afterwards, kept until this
   *   store's query changes again. Nothing else is inherited (refinements name attributes of one index).
   * - The searches of this store and its added indices due in one tick go in one multi-query request (one
   *   `requestLog` entry); each store keeps its own status, out-of-order protection, cache entries and errors.
   * - Its state is part of this store's URL state (`toQueryString`, keys prefixed `<indexId>.`).
   * - When a combined request is refused (a missing index, a key restricted to other indices), each store's
   *   queries are sent again on their own: the others show their results, the refused one its error; a store
   *   refused alone is sent on its own until it succeeds.
   * Throws when an index of that id (`options.indexId`, default the index name) is already added.
   */
  addIndex<C = Record<string, unknown>>(indexName: string, options?: IndexOptions): SearchStore<C>;
  /** (added by multi-index) Disposes the added index of that id (as its `dispose()`); false when there is none. */
  removeIndex(indexId: string): boolean;
  /** (added by multi-index) The indices added to this store, by index id (a new map on each read). */
  readonly indices: ReadonlyMap<string, SearchStore>;
  /** (added by multi-index) The id of an added index among its parent's (its index name unless given); undefined for a root store. */
  readonly indexId: string | undefined;
  /** (added by multi-index) The store this one was added to (`addIndex`), undefined for a root store. */
  readonly parent: SearchStore | undefined;

  /**
   * The results on screen with the digest of their requests (or the failed search's error), to start another
   * store with (`StoreOptions.initialResults`); undefined before the first answer and while a newer search is
   * pending. Root store only (added indices' results are not carried).
   */
  getInitialResults(): InitialResults<T> | undefined;

  /** Everything the store has sent, in order (tests and benchmarks read it); shared by a root and its added indices. */
  readonly requestLog: RequestLogEntry[];
  /**
   * Stops timers and listeners; pending answers are ignored. Disposes the indices added to this store; an
   * added index disposed is removed from its parent (and from its URL state).
   */
  dispose(): void;
}

export interface RequestLogEntry {
  /** `multiSearch`: the searches outside the state (`searchIndex`). */
  kind: 'search' | 'searchForFacetValues' | 'recommend' | 'multiSearch';
  at: number;
  /** The body as sent (multi-query `requests` with their params objects, or recommend `requests`). */
  body: unknown;
  /** True when the answer came from the cache (no network call). */
  cached: boolean;
}
