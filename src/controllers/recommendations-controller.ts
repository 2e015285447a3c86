import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { RecommendHit, RecommendModel, RecommendRequest, RecommendResult, SearchParams, TrendingFacetHit } from '../client/types.js';
import type { HitRef } from '../insights/types.js';
import type { SearchStore } from '../store/types.js';
import type { Source } from './store-controller.js';

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

export interface RecommendControllerOptions {
  /** The store, or a function returning the current store (an element passes `() => this.store`). */
  store?: Source<SearchStore>;
}

function resolve<T extends object>(source: Source<T> | undefined): T | undefined {
  return typeof source === 'function' ? (source as () => T | undefined)() : source;
}

/**
 * Base of the Recommend controllers: before each host update it builds the request from the host's
 * configuration (`request()`), and when the request changed it asks `store.recommend` (requests of one tick
 * go out in one HTTP call, answers are cached by the store) and updates the host with the answer. An answer
 * to an older request is ignored.
 */
export abstract class RecommendRequestController<T = Record<string, unknown>> implements ReactiveController {
  status: RecommendStatus = 'idle';
  /** The last answer (kept while a new request is loading). */
  result: RecommendResult<T> | undefined;
  error: Error | undefined;

  private lastKey = '';
  private lastStore: SearchStore | undefined;
  private sequence = 0;
  private connected = false;

  constructor(
    protected readonly host: ReactiveControllerHost,
    protected readonly options: RecommendControllerOptions = {},
  ) {
    host.addController(this);
  }

  /** The store currently used. */
  get store(): SearchStore | undefined {
    return resolve(this.options.store);
  }

  /** The request to send, or undefined while the configuration is incomplete. */
  protected abstract request(): RecommendRequest | undefined;

  hostConnected(): void {
    this.connected = true;
    this.sync();
  }

  hostUpdate(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.connected = false;
    // A reconnected host asks again (the store's cache answers at once).
    this.lastKey = '';
    this.lastStore = undefined;
    this.sequence++;
  }

  /** Sends the current request when it differs from the last one sent. */
  sync(): void {
    const store = this.connected ? this.store : undefined;
    const request = store ? this.request() : undefined;
    const key = request && store ? JSON.stringify(request) : '';
    // A new store (the root was rebuilt) asks again even for the same request.
    if (key === this.lastKey && store === this.lastStore) return;
    this.lastKey = key;
    this.lastStore = store;
    const sequence = ++this.sequence;
    if (!request || !store) {
      this.status = 'idle';
      this.result = undefined;
      this.error = undefined;
      return;
    }
    this.status = 'loading';
    store.recommend<T>(request).then(
      (result) => {
        if (sequence !== this.sequence) return;
        this.status = 'ready';
        this.result = result;
        this.error = undefined;
        this.host.requestUpdate();
      },
      (error: unknown) => {
        if (sequence !== this.sequence) return;
        this.status = 'error';
        this.result = undefined;
        this.error = error instanceof Error ? error : new Error(String(error));
        this.host.requestUpdate();
      },
    );
  }

  /** True while the first answer to the current request is awaited. */
  get isLoading(): boolean {
    return this.status === 'loading';
  }

  /** True when the current request was answered with no recommendations. */
  get isEmpty(): boolean {
    return this.status === 'ready' && (this.result?.hits.length ?? 0) === 0;
  }

  /** The queryID of the answer (Insights events on its items carry it). */
  get queryID(): string | undefined {
    return this.result?.queryID;
  }

  /** The index the recommendations come from. */
  protected abstract get indexName(): string | undefined;

  /** The recommended records with positions 1..n and the answer's queryID. */
  get items(): Array<RecommendItem<T>> {
    const hits = (this.result?.hits ?? []) as Array<RecommendHit<T> | TrendingFacetHit>;
    const indexName = this.indexName ?? this.store?.baseIndex ?? '';
    const out: Array<RecommendItem<T>> = [];
    for (const hit of hits) {
      if (!('objectID' in hit)) continue;
      out.push({
        hit,
        index: out.length,
        ref: { objectID: hit.objectID, queryID: this.result?.queryID, position: out.length + 1, indexName },
      });
    }
    return out;
  }
}

/** Merges `clickAnalytics` (the answer's queryID makes Insights events attributable) over the page's parameters. */
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
  /** Minimum score, 0 to 100. */
  threshold = 0;
  /** Most recommendations (0: all the model has). */
  maxRecommendations = 0;
  /** The index (default: the store's main index). */
  index: string | undefined;
  /** Search parameters applied to the recommended records (filters…). */
  queryParameters: SearchParams | undefined;
  /** Search parameters of the search that fills up when the model has fewer than `maxRecommendations`. */
  fallbackParameters: SearchParams | undefined;

  protected override get indexName(): string | undefined {
    return this.index || this.store?.baseIndex;
  }

  protected override request(): RecommendRequest | undefined {
    const indexName = this.indexName;
    if (!this.objectID || !indexName) return undefined;
    const request: RecommendRequest = {
      indexName,
      model: this.model,
      objectID: this.objectID,
      threshold: this.threshold,
      queryParameters: withClickAnalytics(this.queryParameters),
    };
    if (this.maxRecommendations > 0) request.maxRecommendations = this.maxRecommendations;
    if (this.fallbackParameters) request.fallbackParameters = this.fallbackParameters;
    return request;
  }
}
