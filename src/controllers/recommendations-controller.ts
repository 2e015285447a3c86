import { initialState, Task, TaskStatus } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import type { RecommendHit, RecommendModel, RecommendRequest, RecommendResult, SearchParams } from '../client/types.js';
import type { HitRef } from '../insights/types.js';
import type { SearchStore } from '../store/types.js';
import { StoreController, type StoreControllerOptions } from './store-controller.js';

/** Where a request stands: nothing to ask yet, waiting for the answer, answered, or failed. */
export type RecommendStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A recommended record with where it stands in the answer (for rendering and Insights). */
export interface RecommendItem<T = Record<string, unknown>> {
  hit: RecommendHit<T>;
  /** 0-based index in the answer. */
  index: number;
  /** What Insights needs: objectID, the answer's queryID, position 1..n, index name. */
  ref: HitRef;
}

/** The store (a value, or a function returning the current store: an element passes `() => this.store`). */
export type RecommendControllerOptions = StoreControllerOptions;

/**
 * Base of the Recommend controllers: before each host update it builds the request from the host's
 * configuration (`request()`), and when the request changed it asks `store.recommend` (requests of one tick
 * go out in one HTTP call, answers are cached by the store) through a `@lit/task`, which keeps the last answer
 * while the next loads and drops an answer to an older request. As every `StoreController` it also follows the
 * store's state (trending facet values show whether they refine the search).
 */
export abstract class RecommendRequestController<T = Record<string, unknown>> extends StoreController {
  /** The index (default: the store's main index). */
  index: string | undefined;
  /** Minimum score, 0 to 100. */
  threshold = 0;
  /** Most recommendations (0: all the model has). */
  maxRecommendations = 0;
  /** Search parameters applied to the recommended records (filters…). */
  queryParameters: SearchParams | undefined;
  /** Search parameters of the search that fills up when the model has fewer than `maxRecommendations`. */
  fallbackParameters: SearchParams | undefined;

  #key = '';
  #store: SearchStore | undefined;
  #connecting = false;
  readonly #ask: Task<[SearchStore | undefined, RecommendRequest | undefined], RecommendResult<T>>;

  constructor(host: ReactiveControllerHost, options?: RecommendControllerOptions) {
    super(host, options);
    this.#ask = new Task(host, {
      autoRun: false,
      task: ([store, request]) => (store && request ? store.recommend<T>(request) : initialState),
    });
  }

  /** The model-specific fields of the request, or undefined while the configuration is incomplete. */
  protected abstract request(): Partial<RecommendRequest> | undefined;

  /** Where the current request stands: nothing to ask yet, waiting for the answer, answered, or failed. */
  get status(): RecommendStatus {
    // No request (an incomplete configuration): idle at once, not after the task's reset.
    return this.#key ? STATUSES[this.#ask.status] : 'idle';
  }

  /** The last answer (kept while a new request is loading; undefined after an error or without a request). */
  get result(): RecommendResult<T> | undefined {
    const status = this.#ask.status;
    if (!this.#key || status === TaskStatus.INITIAL || status === TaskStatus.ERROR) return undefined;
    return this.#ask.value;
  }

  /** Why the current request failed (status `error`). */
  get error(): Error | undefined {
    const error = this.#ask.status === TaskStatus.ERROR ? this.#ask.error : undefined;
    return error === undefined || error instanceof Error ? error : new Error(String(error));
  }

  /**
   * Binds to the store, and asks the host for an update instead of sending at once: the host configures the
   * controller before it updates (an element's `willUpdate`), so a request of the defaults never goes out.
   */
  override hostConnected(): void {
    this.#connecting = true;
    super.hostConnected();
    this.#connecting = false;
    this.host.requestUpdate();
  }

  /** Sends the current request when it differs from the last one sent (or the store changed). */
  override sync(): void {
    super.sync();
    if (this.#connecting) return;
    if (!this.connected) {
      // A reconnected host asks again (the store's cache answers at once).
      this.#store = undefined;
      this.#key = '';
      return;
    }
    const store = this.store;
    const indexName = this.indexName;
    const fields = store && indexName ? this.request() : undefined;
    const request = fields && ({ indexName, threshold: this.threshold, ...fields } as RecommendRequest);
    if (request) {
      if (this.maxRecommendations > 0) request.maxRecommendations = this.maxRecommendations;
      // The answer's queryID makes Insights events attributable.
      if (request.model !== 'trending-facets') request.queryParameters = withClickAnalytics(this.queryParameters);
      if (request.queryParameters && this.fallbackParameters) request.fallbackParameters = this.fallbackParameters;
    }
    const key = request ? JSON.stringify(request) : '';
    // A new store (the root was rebuilt) asks again even for the same request.
    if (key === this.#key && store === this.#store) return;
    this.#key = key;
    this.#store = store;
    void this.#ask.run([store, request]);
  }

  /** True while the first answer to the current request is awaited. */
  get isLoading(): boolean {
    return this.status === 'loading';
  }

  /** True when the current request was answered with no recommendations. */
  get isEmpty(): boolean {
    return this.status === 'ready' && !this.result?.hits.length;
  }

  /** The queryID of the answer (Insights events on its items carry it). */
  get queryID(): string | undefined {
    return this.result?.queryID;
  }

  /** The index the recommendations come from. */
  protected get indexName(): string | undefined {
    return this.index || this.store?.baseIndex;
  }

  /** The recommended records with positions 1..n and the answer's queryID. */
  get items(): Array<RecommendItem<T>> {
    const indexName = this.indexName ?? '';
    const queryID = this.queryID;
    return ((this.result?.hits ?? []) as Array<RecommendHit<T>>)
      .filter((hit) => 'objectID' in hit)
      .map((hit, index) => ({ hit, index, ref: { objectID: hit.objectID, queryID, position: index + 1, indexName } }));
  }
}

const STATUSES: Record<TaskStatus, RecommendStatus> = {
  [TaskStatus.INITIAL]: 'idle',
  [TaskStatus.PENDING]: 'loading',
  [TaskStatus.COMPLETE]: 'ready',
  [TaskStatus.ERROR]: 'error',
};

/**
 * Merges `clickAnalytics` (the answer's queryID makes Insights events attributable) over the page's parameters.
 * @example withClickAnalytics({ filters: 'brand:Hon' }) // { filters: 'brand:Hon', clickAnalytics: true }
 */
export function withClickAnalytics(params: SearchParams | undefined): SearchParams {
  return { ...params, clickAnalytics: true };
}

/**
 * Headless logic of `<svc-recommendations>`: related products or frequently bought together for one
 * record, as items with positions 1..n and the answer's queryID for Insights.
 *
 * @example
 * ```ts
 * class AlsoBought extends LitElement {
 *   private recommendations = new RecommendationsController(this, { store });
 *   constructor() { super(); Object.assign(this.recommendations, { model: 'bought-together', objectID: 'FUR-CH-10000454', maxRecommendations: 4 }); }
 *   render() {
 *     return html`<ol>${this.recommendations.items.map(({ hit }) => html`<li>${hit.name}</li>`)}</ol>`;
 *   }
 * }
 * ```
 */
export class RecommendationsController<T = Record<string, unknown>> extends RecommendRequestController<T> {
  model: Extract<RecommendModel, 'related-products' | 'bought-together'> = 'related-products';
  /** The record the recommendations are for (nothing is asked without it). */
  objectID: string | undefined;

  protected override request(): Partial<RecommendRequest> | undefined {
    return this.objectID ? { model: this.model, objectID: this.objectID } : undefined;
  }
}
