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
}

export type SearchStatus = 'idle' | 'loading' | 'stalled' | 'error';

/** Results of the main index, with disjunctive facet counts merged in. */
export interface SearchResults<T = Record<string, unknown>> extends SearchResponse<T> {
  /** Facet counts after merging the disjunctive queries; use this rather than the raw `facets`. */
  facets: Record<string, Record<string, number>>;
  /** Which facets were computed disjunctively. */
  disjunctiveFacets: string[];
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
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  /** Any other search parameters (configure element, insights `clickAnalytics`/`userToken`, …). */
  params?: SearchParams;
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
}

export type Listener<T = Record<string, unknown>> = (snapshot: StoreSnapshot<T>) => void;

export interface SearchStore<T = Record<string, unknown>> {
  readonly client: SearchClient;
  /** The main index name (not the sort replica). */
  readonly baseIndex: string;
  getSnapshot(): StoreSnapshot<T>;
  /** Called now with the current snapshot and on every change; returns the unsubscribe function. */
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
  /** Replaces the whole state (routing); one search. */
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

  /** URL query string of the state (`q`, `page` 1-based, refinements…); `fromQueryString` inverts it exactly. */
  toQueryString(state?: IndexState): string;
  fromQueryString(query: string): IndexState;
  /** `?` + query string of the state after applying `change` (for real links, e.g. pagination hrefs). */
  createURL(change: (state: IndexState) => IndexState): string;

  /** Everything the store has sent, in order (tests and benchmarks read it). */
  readonly requestLog: RequestLogEntry[];
  /** Stops timers and listeners; pending answers are ignored. */
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
