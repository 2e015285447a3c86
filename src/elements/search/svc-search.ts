import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ContextProvider } from '@lit/context';
import { searchContext, type SearchContextValue } from '../../controllers/context.js';
import { createClient } from '../../client/index.js';
import { createSearchStore } from '../../store/index.js';
import { createInsights, type Insights } from '../../insights/index.js';
import type { SearchClient } from '../../client/types.js';
import type { IndexState, SearchStore } from '../../store/types.js';
import { SEARCH_CONTEXT_EVENT, SvcElement } from '../base/svc-element.js';
import type { Translations } from '../base/translate.js';
import { styles } from './styles.js';

/** Delay before the URL follows the state (typing does not fill the history), as InstantSearch routing. */
const ROUTING_WRITE_DELAY_MS = 400;

/**
 * @tagname svc-search
 * @summary The root of a search UI: creates the client, the store and the insights module and provides them to
 * every `svc-*` element inside it (across shadow roots) or naming it with `search="id"`.
 *
 * @slot - The search UI: any markup with `svc-*` elements.
 *
 * The client comes from `app-id`, `api-key` and `hosts`, or the `client` property; the store from the client and
 * `index-name`, or the `store` property (then it is used as is and not disposed). Insights (click and view
 * events) is on unless `insights="false"`. With `routing`, the state is read from and written to the page URL
 * (`?q=…&page=…`), and the browser's back button restores it.
 *
 * `translations` (property) overlays the English strings of every element inside; each element documents its keys.
 *
 * @example
 * ```html
 * <svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="products" hosts="http://127.0.0.1:8787">
 *   <svc-search-box></svc-search-box>
 *   <svc-hits></svc-hits>
 * </svc-search>
 * ```
 */
export class SvcSearch extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    appId: { attribute: 'app-id' },
    apiKey: { attribute: 'api-key' },
    indexName: { attribute: 'index-name', reflect: true },
    hosts: {},
    insightsEnabled: { attribute: 'insights', converter: (value: string | null) => value != 'false' },
    routing: { type: Boolean },
    client: { attribute: false },
    initialState: { attribute: false },
  };
  protected static override consumesContext = false;

  /** Application ID of the service. */
  declare appId: string | undefined;
  /** Search-only API key. */
  declare apiKey: string | undefined;
  /** The index searched. */
  declare indexName: string | undefined;
  /** Comma-separated host URLs (e.g. `http://127.0.0.1:8787`); replaces the computed hosts. */
  declare hosts: string | undefined;
  /** Insights (automatic click and view events); attribute `insights="false"` turns it off. */
  insightsEnabled = true;
  /** Keep the search state in the page URL (read on start, written as it changes, restored on back). */
  routing = false;
  /** A search client to use instead of one built from the attributes. */
  declare client: SearchClient | undefined;
  /** Initial state of the store: a partial `IndexState` or a query string produced by `store.toQueryString`. */
  declare initialState: Partial<IndexState> | string | undefined;

  #provider = new ContextProvider(this, { context: searchContext });
  #given: SearchStore | undefined;
  #ownStore: SearchStore | undefined;
  #insights: Insights | undefined;
  #current: SearchContextValue | undefined;
  #config: unknown[] = [];
  #stopRouting: (() => void) | undefined;
  #teardownTimer: ReturnType<typeof setTimeout> | undefined;

  /** The store every element inside uses; set it to share a store you created. */
  override get store(): SearchStore | undefined {
    return this.#current?.store;
  }
  override set store(store: SearchStore | undefined) {
    this.#given = store;
    this.requestUpdate();
    if (this.isConnected) this.#build();
  }

  /** The insights module (user token, consent, `convert`), undefined when `insights="false"`. */
  override get insights(): Insights | undefined {
    return this.#insights;
  }
  /**
   * Frameworks that set a property when the element has one (React 19, Vue 3) turn `insights="false"` into
   * `el.insights = "false"`: `false` / `"false"` turns insights off and anything else on, as the attribute does
   * (without this setter React throws on the getter-only property and Vue ignores it, leaving insights on).
   */
  override set insights(value: unknown) {
    this.insightsEnabled = value !== false && value != 'false';
  }

  /** The value provided to the elements: `{ store, insights, translations }`. */
  get context(): SearchContextValue | undefined {
    return this.#current;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    clearTimeout(this.#teardownTimer);
    this.#build();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moving the element (disconnect + connect in one task) keeps its store; removing it disposes.
    this.#teardownTimer = setTimeout(() => this.isConnected || this.#teardown());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.isConnected) return;
    if (changed.has('translations') && this.#current) this.#publish({ ...this.#current, translations: this.translations });
    this.#build();
  }

  /** (Re)creates what the configuration asks for; a no-op when it has not changed. */
  #build(): void {
    const config = [this.appId, this.apiKey, this.indexName, this.hosts, this.insightsEnabled, this.routing, this.client, this.#given];
    if (this.#config.length && config.every((value, i) => value === this.#config[i])) return;
    this.#teardown();
    this.#config = config;
    try {
      let store = this.#given;
      if (!store) {
        const hosts = this.hosts?.split(',').map((host) => host.trim()).filter(Boolean);
        const client =
          this.client ?? (this.appId && this.apiKey ? createClient({ appId: this.appId, apiKey: this.apiKey, hosts: hosts?.length ? hosts : undefined }) : undefined);
        if (!client || !this.indexName) return; // not configured yet; a later attribute or property builds it
        const initialState = this.initialState ?? (this.routing && location.search.length > 1 ? location.search.slice(1) : undefined);
        store = this.#ownStore = createSearchStore({ client, indexName: this.indexName, initialState });
      }
      if (this.insightsEnabled) this.#insights = createInsights({ client: store.client, store, root: this });
      this.#publish({ store, insights: this.#insights, translations: this.translations });
      if (this.routing) this.#stopRouting = route(store);
    } catch (error) {
      // Bad configuration (an invalid host, initial state…): say so clearly rather than fail half-built.
      this.#teardown();
      this.#config = config; // not again until the configuration changes
      console.error(`<svc-search>: ${(error as Error).message}`);
    }
  }

  #publish(value: SearchContextValue | undefined): void {
    this.searchContext = this.#current = value;
    this.#provider.setValue(value);
    // Tells the elements naming this root (`search="id"`), or still waiting for a context, that it changed (internal event).
    this.dispatchEvent(new Event(SEARCH_CONTEXT_EVENT, { bubbles: true, composed: true }));
  }

  #teardown(): void {
    this.#stopRouting?.();
    this.#insights?.dispose();
    this.#ownStore?.dispose();
    this.#stopRouting = this.#insights = this.#ownStore = undefined;
    this.#config = [];
    if (this.#current) this.#publish(undefined);
  }

  override render() {
    return html`<slot></slot>`;
  }
}

export type { Translations };

/** Keeps `location.search` in step with the store (pushState after a pause) and restores it on popstate. */
function route(store: SearchStore): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = store.toQueryString(store.getSnapshot().state);
  const unsubscribe = store.subscribe(({ state }) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const query = store.toQueryString(state);
      if (query == written) return;
      written = query;
      history.pushState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
    }, ROUTING_WRITE_DELAY_MS);
  });
  const onPopState = () => {
    const state = store.fromQueryString(location.search.slice(1));
    written = store.toQueryString(state);
    store.setState(state);
  };
  addEventListener('popstate', onPopState);
  return () => {
    clearTimeout(timer);
    unsubscribe();
    removeEventListener('popstate', onPopState);
  };
}
