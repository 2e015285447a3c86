import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Needs, SearchStore, StoreSnapshot } from '../store/types.js';
import type { InsightsLike } from '../insights/types.js';

/** A value, or a function returning it (an element passes `() => this.store` so a later context is picked up). */
export type Source<T> = T | (() => T | undefined);

export interface StoreControllerOptions {
  /** The store, or a function returning the current store (undefined while there is none). */
  store?: Source<SearchStore>;
  /** The insights module (optional): controllers report user actions to it. */
  insights?: Source<InsightsLike>;
}

let sequence = 0;

/** Identities of the functions found in needs (a rule-contexts function), so a new function is a change. */
const functionIds = new WeakMap<object, number>();
let functions = 0;

/**
 * The needs as a comparable key: JSON, where each function stands for its identity (JSON alone drops them,
 * so a controller that replaces its function would not be seen to change).
 */
function needsKey(needs: Needs): string {
  return JSON.stringify(needs, (_key, value: unknown) => {
    if (typeof value !== 'function') return value;
    let id = functionIds.get(value);
    if (id === undefined) {
      functions += 1;
      id = functions;
      functionIds.set(value, id);
    }
    return `function #${id}`;
  });
}

/**
 * A host that may be present but not shown (a facet `<svc-dynamic-widgets>` leaves out): while `withholdNeeds` is
 * true, its controllers add no queries of their own to the search (a refined hierarchical menu's levels, a numeric
 * menu's counts) but keep the rest of their needs — their facet's values stay in every answer, so a later order
 * that shows the host finds them in its own answer and needs no second search (as InstantSearch's dynamic widgets
 * ask `facets: ['*']` of every search). They stay subscribed to the store.
 */
export interface NeedsGate {
  readonly withholdNeeds: boolean;
}

/** The value of a `Source`: calls it when it is a function. */
function resolve<T extends object>(source: Source<T> | undefined): T | undefined {
  return typeof source === 'function' ? (source as () => T | undefined)() : source;
}

/**
 * Base of the headless controllers: subscribes to a store while its host is connected, keeps the latest
 * snapshot in `snapshot`, registers the controller's `needs()` with the store (again whenever they change; without
 * their queries while the host withholds them, see {@link NeedsGate}), and asks the host to update on every change. The store may arrive later (an element's context): it is
 * looked up again before each host update.
 *
 * @example
 * ```ts
 * class QueryController extends StoreController {
 *   get query() { return this.snapshot?.state.query ?? ''; }
 * }
 * const query = new QueryController(host, { store });
 * ```
 */
export class StoreController implements ReactiveController {
  /** The latest snapshot of the store (undefined until subscribed). */
  snapshot: StoreSnapshot | undefined;
  /** Unique id under which the needs are registered. */
  readonly id = `svc-controller-${++sequence}`;

  #bound: SearchStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #removeNeeds: (() => void) | undefined;
  #needs = '';
  #connected = false;

  constructor(
    protected readonly host: ReactiveControllerHost,
    protected readonly options: StoreControllerOptions = {},
  ) {
    host.addController(this);
  }

  /** Whether the host is connected (the controller is bound to the store while it is). */
  protected get connected(): boolean {
    return this.#connected;
  }

  /** The store currently used. */
  get store(): SearchStore | undefined {
    return resolve(this.options.store);
  }

  /** The insights module, when there is one. */
  get insights(): InsightsLike | undefined {
    return resolve(this.options.insights);
  }

  hostConnected(): void {
    this.#connected = true;
    this.sync();
  }

  hostUpdate(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.sync();
  }

  /**
   * What the controller asks of the search requests (facets, hitsPerPage, …); override in subclasses.
   * Called before each host update; a change re-registers them (and so triggers a search).
   */
  protected needs(): Needs | undefined {
    return undefined;
  }

  /** Called with each new snapshot before the host is asked to update. */
  protected onSnapshot(_snapshot: StoreSnapshot): void {}

  /** Binds to the current store (or rebinds after a change, or unbinds once disconnected) and re-registers changed needs. */
  sync(): void {
    const store = this.#connected ? this.store : undefined;
    if (store !== this.#bound) {
      this.#unsubscribe?.();
      this.#removeNeeds?.();
      this.#removeNeeds = undefined;
      this.snapshot = undefined;
      this.#needs = '';
      this.#bound = store;
      this.#unsubscribe = store?.subscribe((snapshot) => {
        this.snapshot = snapshot;
        this.onSnapshot(snapshot);
        this.host.requestUpdate();
      });
    }
    if (!store) return;
    const own = this.needs();
    const needs =
      own && (this.host as Partial<NeedsGate>).withholdNeeds === true ? { ...own, queries: undefined } : own;
    const key = needs ? needsKey(needs) : '';
    if (key !== this.#needs || (needs && !this.#removeNeeds)) {
      this.#removeNeeds?.();
      this.#removeNeeds = needs && store.registerNeeds(this.id, needs);
      this.#needs = key;
    }
  }
}
