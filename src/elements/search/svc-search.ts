import { html, isServer, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ContextProvider } from '@lit/context';
import { searchContext, type SearchContextValue } from '../../controllers/context.js';
import { createClient } from '../../client/index.js';
import { createSearchStore } from '../../store/index.js';
import type { PrepaintHandoff } from '../../prepaint/handoff.js';
import { takePrepaint } from '../../prepaint/takeover.js';
import { isValidUserToken } from '../../protocol/user-token.js';
import { createLazyInsights } from '../../insights/lazy.js';
import type { Insights } from '../../insights/types.js';
import type { SearchClient } from '../../client/types.js';
import type { IndexState, SearchStore } from '../../store/types.js';
import { hydration, SEARCH_CONTEXT_EVENT, SvcElement } from '../base/svc-element.js';
import type { Translations } from '../base/translate.js';
import { serverRender } from '../base/server-render.js';
import { consentFrom, insightsEnabledFrom } from './insights-attributes.js';
import { styles } from './styles.js';

/** The client of a `local-index` value (undefined while its module loads; no indices without the attribute). */
interface LocalEntry {
  indices: string | undefined;
  /** The `insights-host` it was made with, and the `app-id` and `api-key` sent there. */
  insights: string | undefined;
  client?: SearchClient;
}

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
 * `index-name`, or the `store` property (then it is used as is and not disposed). With `routing`, the state is
 * read from and written to the page URL (`?q=…&page=…`), and the browser's back button restores it.
 *
 * Insights (automatic click, view and conversion events) is on unless `insights="false"`. While it is on,
 * `insights-consent="false"` withholds consent: nothing is sent, no token is created or kept, searches ask for
 * no `queryID` — and what an earlier page kept (token, queue, conversion window) is forgotten. Setting it to
 * `"true"` (or removing it) at run time starts sending with a new anonymous token; setting it back to `"false"`
 * stops and forgets again. While a consent banner has not answered yet, keep `insights="false"` instead (nothing
 * is created, nothing forgotten) and set both once the answer is known. `insights-cookie` keeps the anonymous
 * token in a first-party cookie (`_svc_insights_token`, six months; readable by the site's server) instead of
 * local storage. `insights-user-token` is the authenticated user token after login (kept across rebuilds).
 *
 * `translations` (property) overlays the English strings of every element inside; each element documents its keys.
 *
 * Rendered on a server (`svc-search/ssr`), the root carries `server-state="<id>"`, the id of the `<script
 * type="application/json">` holding the state and results the server rendered: the store starts from them, and
 * does not search again for that state.
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
    insightsEnabled: { attribute: 'insights', converter: insightsEnabledFrom },
    insightsCookie: { attribute: 'insights-cookie', type: Boolean },
    routing: { type: Boolean },
    client: { attribute: false },
    localIndex: { attribute: 'local-index' },
    insightsHost: { attribute: 'insights-host' },
    initialState: { attribute: false },
    // Their own accessors (below) apply a change to Insights at once; Lit observes the attributes, restores a value
    // set before the element was defined (at the first update, run in `connectedCallback`) and reflects nothing.
    insightsConsent: { attribute: 'insights-consent', converter: consentFrom, noAccessor: true },
    insightsUserToken: { attribute: 'insights-user-token', noAccessor: true },
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
  /** Keep the anonymous user token in a first-party cookie instead of local storage (changing it recreates insights). */
  insightsCookie = false;
  /** Keep the search state in the page URL (read on start, written as it changes, restored on back). */
  routing = false;
  /** A search client to use instead of one built from the attributes. */
  declare client: SearchClient | undefined;
  /**
   * Search with no server: comma-separated URLs of `.svcidx` files (`svc-search-service export`), searched by the
   * engine in a Web Worker (`svc-search/local`, loaded only by pages that set this). It wins over `app-id`/`hosts`
   * (nothing is asked of a host, even while the worker loads); a `client` property wins over it. Roots naming the
   * same files share one worker; Insights events are kept in IndexedDB, or sent to `insights-host`.
   */
  declare localIndex: string | undefined;
  /**
   * With `local-index`: the URL of an Insights host the events go to (with the `app-id` and `api-key` of that
   * application) instead of being kept in IndexedDB. Without `local-index`, events go to `hosts` as searches do.
   */
  declare insightsHost: string | undefined;
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
  #store: SearchStore | undefined;
  #insightsConfig: unknown[] = [];
  #consent = true;
  #userToken: string | undefined;
  /**
   * The clicks on the hits the first-paint script painted for this root's store: handed to each Insights made for
   * that store (a second one, its configuration changed, takes them from then on) until `<svc-hits>` replaces them.
   */
  #paintedClicks: PrepaintHandoff['takeClicks'];
  /** The local client of `local-index` (undefined while its module loads), and the value it was made for. */
  #local: LocalEntry | undefined;
  /** The accessors Lit does not manage, set on the element before it was defined: applied at its first connection. */
  #beforeUpgrade: { store?: unknown; insights?: unknown } = {};

  constructor() {
    super();
    // The upgrade-property pattern: a page (a framework, a script) that set `store` or `insights` before the element
    // was defined left an own property shadowing the accessor. It is taken off and applied at the first connection:
    // after the attributes, as Lit applies the properties it declares (the property set before wins), and before the
    // store and Insights are created, so that both follow it from the start. Lit itself takes off the properties it
    // declares (`insightsConsent` and `insightsUserToken` too) and sets them back at the first update (see
    // `connectedCallback`).
    const own = this as unknown as Record<string, unknown>;
    for (const name of ['store', 'insights'] as const) {
      if (!Object.hasOwn(own, name)) continue;
      this.#beforeUpgrade[name] = own[name];
      delete own[name];
    }
  }

  /**
   * Whether the user agreed to analytics (default `true`; attribute `insights-consent`, where only absent, `""`,
   * `"true"` or `"granted"` mean yes). Takes effect at once: `false` stops sending and forgets the anonymous
   * token, its cookie, the conversion window and the queue; `true` starts again with a new anonymous token.
   */
  get insightsConsent(): boolean {
    return this.#consent;
  }
  set insightsConsent(value: boolean) {
    const old = this.#consent;
    this.#consent = consentFrom(value);
    // At once, not at the next update: a search scheduled in this tick must already go without a token.
    this.#insights?.setConsent(this.#consent);
    this.requestUpdate('insightsConsent', old);
  }

  /**
   * The authenticated user token (after login; attribute `insights-user-token`), sent instead of the anonymous
   * one; `undefined` goes back to the anonymous token. Must match `[a-zA-Z0-9_-=/+]{1,128}`: an invalid one is
   * reported with `console.error` and not used.
   */
  get insightsUserToken(): string | undefined {
    return this.#userToken;
  }
  set insightsUserToken(value: string | undefined) {
    const old = this.#userToken;
    this.#userToken = value ?? undefined;
    if (this.#userToken !== undefined && !isValidUserToken(this.#userToken))
      console.error(
        `<svc-search>: invalid insights-user-token ${JSON.stringify(value)}, expected [a-zA-Z0-9_-=/+]{1,128}`,
      );
    this.#insights?.setUserToken(this.#validUserToken());
    this.requestUpdate('insightsUserToken', old);
  }

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
    this.insightsEnabled = value !== false && value !== 'false';
  }

  /** The value provided to the elements: `{ store, insights, translations }`. */
  get context(): SearchContextValue | undefined {
    return this.#current;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    clearTimeout(this.#teardownTimer);
    const before = this.#beforeUpgrade;
    this.#beforeUpgrade = {};
    if ('insights' in before) this.insights = before.insights;
    // Not through the setter, which builds at once: the properties Lit restores below count too.
    if ('store' in before) this.#given = before.store as SearchStore | undefined;
    // The properties Lit declares (`client`, `initialState`, `index-name`, `insightsConsent`, `insightsUserToken`…)
    // set before the element was defined are restored by Lit at its first update only, a microtask from now: built
    // here from the attributes alone, the store would miss them (`initialState` is no part of its configuration, so
    // it would never count) or be built, handed the first paint's results and clicks, and torn down at that update
    // for another, and Insights would start with the attribute's consent and token. The first update is therefore
    // run now (`performUpdate`, Lit's way to update synchronously): Lit restores them, and `willUpdate` builds the
    // one store and its Insights with all of them, so `store` is there as soon as the element is connected, as it was.
    if (!this.hasUpdated && this.isUpdatePending && !isServer) this.performUpdate();
    this.#build();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moving the element (disconnect + connect in one task) keeps its store; removing it disposes.
    this.#teardownTimer = setTimeout(() => this.isConnected || this.#teardown());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.isConnected) return;
    if (changed.has('translations') && this.#current)
      this.#publish({ ...this.#current, translations: this.translations });
    this.#build();
  }

  /**
   * (Re)creates what the configuration asks for: the store when its configuration changed, the insights module
   * when its own did (`insights`, `insights-cookie`; the store and the search state stay); a no-op otherwise.
   * Consent and the user token are applied to the module as they change, without recreating it.
   */
  #build(): void {
    const local = this.#localClient();
    const config = [this.appId, this.apiKey, this.indexName, this.hosts, this.routing, this.client, local, this.#given];
    const same = (a: unknown[], b: unknown[]) => a.length > 0 && a.every((value, i) => value === b[i]);
    try {
      if (!same(this.#config, config)) {
        this.#teardown();
        this.#config = config;
        let store = this.#given ?? (isServer ? serverRender()?.store(this) : undefined);
        if (!store && !isServer) {
          const hosts = this.hosts
            ?.split(',')
            .map((host) => host.trim())
            .filter(Boolean);
          // With `local-index`, only the local client: nothing is asked of a host while its worker loads.
          const client =
            this.client ??
            local ??
            (this.#local?.indices === undefined && this.appId && this.apiKey
              ? createClient({ appId: this.appId, apiKey: this.apiKey, hosts: hosts?.length ? hosts : undefined })
              : undefined);
          if (!client || !this.indexName) return; // not configured yet; a later attribute or property builds it
          // A server rendered the page: its state (that of the URL it rendered) and results.
          const server = hydration()?.serverState(this, this.indexName);
          // The first-paint script searched for this root (src/prepaint): its answer, adopted when the store's
          // first requests are the same.
          const prepaint = server ? undefined : takePrepaint(this);
          this.#paintedClicks = prepaint?.takeClicks;
          const initialState =
            server?.state ??
            this.initialState ??
            (this.routing && location.search.length > 1 ? location.search.slice(1) : undefined);
          store = createSearchStore({
            client,
            indexName: this.indexName,
            initialState,
            initialResults: server?.initialResults ?? prepaint?.initialResults,
          });
          this.#ownStore = store;
        }
        if (!store) return;
        this.#store = store;
        if (this.routing && !isServer) this.#stopRouting = route(store);
      }
      const store = this.#store;
      const insightsConfig = [store, this.insightsEnabled, this.insightsCookie];
      if (!store || same(this.#insightsConfig, insightsConfig)) return;
      this.#insightsConfig = insightsConfig;
      this.#insights?.dispose();
      // Created before the store's first search (a frame away), so that search already follows the consent and
      // carries the token; the module itself loads once the first results are painted (see insights/lazy.ts).
      this.#insights =
        this.insightsEnabled && !isServer
          ? createLazyInsights(
              {
                client: store.client,
                store,
                root: this,
                consent: this.#consent,
                useCookie: this.insightsCookie,
                userToken: this.#validUserToken(),
                paintedClicks: this.#paintedClicks,
              },
              () => import('../../insights/index.js'),
            )
          : undefined;
      this.#publish({ store, insights: this.#insights, translations: this.translations });
    } catch (error) {
      // Bad configuration (an invalid host, initial state…): say so clearly rather than fail half-built.
      this.#teardown();
      this.#config = config; // not again until the configuration changes
      console.error(`<svc-search>: ${(error as Error).message}`);
    }
  }

  /**
   * The client of `local-index`: made once its module (and the worker) loaded, then {@link #build} runs again.
   * Undefined without `local-index`, with a `client` property, or while loading. The module is imported here
   * only: pages without `local-index` never load it, its worker or the engine.
   */
  #localClient(): SearchClient | undefined {
    // A server renders no local search (there is no worker there): the browser's root searches once hydrated.
    const indices = this.client || isServer ? undefined : this.localIndex?.trim() || undefined;
    const insightsHost = indices ? this.insightsHost?.trim() || undefined : undefined;
    const insights = insightsHost && `${insightsHost} ${this.appId} ${this.apiKey}`;
    if (this.#local?.indices !== indices || this.#local?.insights !== insights) {
      const entry: LocalEntry = { indices, insights };
      this.#local = entry;
      // A module that fails to load rejects unhandled: the browser reports it, as it does a failed chunk.
      if (indices) {
        // The Insights host's client is made in the local module: pages without `local-index` carry none of it.
        const host = { host: insightsHost, appId: this.appId, apiKey: this.apiKey };
        import('../../local/client.js').then(({ sharedLocalClient }) => {
          if (this.#local !== entry) return;
          entry.client = sharedLocalClient(indices, host);
          this.#build();
        });
      }
    }
    return this.#local?.client;
  }

  #publish(value: SearchContextValue | undefined): void {
    this.searchContext = this.#current = value;
    this.#provider.setValue(value);
    // Tells the elements naming this root (`search="id"`), or still waiting for a context, that it changed (internal event).
    this.dispatchEvent(new Event(SEARCH_CONTEXT_EVENT, { bubbles: true, composed: true }));
  }

  #validUserToken(): string | undefined {
    return isValidUserToken(this.#userToken) ? this.#userToken : undefined;
  }

  #teardown(): void {
    this.#stopRouting?.();
    this.#insights?.dispose();
    this.#ownStore?.dispose();
    this.#stopRouting = this.#insights = this.#ownStore = this.#store = this.#paintedClicks = undefined;
    this.#config = this.#insightsConfig = [];
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
      if (query === written) return;
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
