/**
 * `renderSearch`: a page with `<svc-search>` and its elements rendered on a server with Lit SSR, holding the real
 * first results for the URL's state, and the state and results serialised for the browser to start from.
 *
 * It renders the template twice, as InstantSearch's `getServerState` does: the first pass lets every element say
 * what it needs (facets, hits per page, the attributes it shows…) and each root's store searches once with all of
 * it; the second pass renders the elements from stores started with those results (`initialResults`), exactly as
 * the browser's stores will start — so the browser's first render is the server's, and its first search is not
 * sent. Both passes are synchronous (`collectResultSync`): the render's state is set around each, so concurrent
 * page renders do not see each other's.
 */
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { render } from '@lit-labs/ssr/lib/render.js';
import { LitElementRenderer } from '@lit-labs/ssr/lib/lit-element-renderer.js';
import { createClient } from '../client/index.js';
import type { SearchClient } from '../client/types.js';
import { createSearchStore } from '../store/store.js';
import { queryStringToState } from '../store/parse-query-string.js';
import { stateToQueryString } from '../store/query-string.js';
import { normalizeState } from '../store/state.js';
import type { IndexState, InitialResults, SearchStore } from '../store/types.js';
import { serverUpdate } from './element-controllers.js';
import { type ServerRoot, withServerRender } from '../elements/base/server-render.js';
import type { ServerState } from '../elements/base/server-render.js';
import { isValidUserToken } from '../protocol/user-token.js';
import { escapeAttribute, scriptJson } from './serialize.js';
import '../define.js';

export interface RenderSearchOptions {
  /** The URL of the page requested (absolute, or a path with its query string): the state of roots with `routing`. */
  url: string | URL;
  /** Application ID and search-only API key the server searches with. */
  appId?: string;
  apiKey?: string;
  /** The hosts the server searches (e.g. `['http://127.0.0.1:8787']`); default: the hosted service's for `appId`. */
  hosts?: string | string[];
  /** A client to search with instead (then `appId`, `apiKey`, `hosts` are not read). */
  client?: SearchClient;
  /**
   * The Insights user token of the visitor, when the server knows it (`<svc-search insights-cookie>` keeps it in
   * the `_svc_insights_token` cookie): the search carries it, as the browser's would. Without it the server's
   * search asks for a `queryID` without a token.
   */
  userToken?: string;
  /** The page's language (`<html lang>`): numbers and plurals of elements without a `lang` of their own. Default `en`. */
  lang?: string;
  /**
   * How long the server waits for the results, ms (default 3000). Past it, the page is rendered with the
   * elements' error state, as for an unreachable host.
   */
  timeoutMs?: number;
  /** Prefix of the ids of the state scripts (default `svc-search-state`): unique per page when a page has several renders. */
  idPrefix?: string;
}

/** What was serialised for one `<svc-search>` root. */
export interface RenderedRoot extends ServerState {
  /** Id of its `<script type="application/json">` (the root's `server-state` attribute). */
  id: string;
  /** The search failed (unreachable host, timeout, refused): the page shows the elements' error state. */
  failed: boolean;
}

export interface RenderedSearch {
  /** The HTML of the template (declarative shadow DOM holding the results), then each root's state script. */
  html: string;
  /** The state and results of each root, as serialised in `html`. */
  state: RenderedRoot[];
  /** 200, or 503 when a root's search failed (the page holds the error state; the browser searches again). */
  status: 200 | 503;
  /** Bytes of the serialised state scripts (UTF-8), a part of `html`. */
  stateBytes: number;
}

const DEFAULT_TIMEOUT_MS = 3000;

/** One root of the page: its configuration and state, and the store of the pass. */
interface Root {
  id: string;
  indexName: string;
  state: string;
  /** What the search pass found (the render pass starts from it). */
  initial?: InitialResults;
  failed: boolean;
  error?: Error;
  store?: SearchStore;
  insights: boolean;
}

/** The render in progress: set while a pass runs, so the renderer options below find it. */
let collecting: Set<object> | undefined;

// Every svc-* element is connected on the server (its context, its controllers' subscriptions and needs); the
// others are rendered as Lit SSR renders them by default.
LitElementRenderer.renderOptions.push((element) => {
  if (!element.localName?.startsWith('svc-')) return undefined;
  // An element that renders from its light DOM (which a server does not see) is left to the browser.
  if ((element as unknown as { serverRenderable?: () => boolean }).serverRenderable?.() === false)
    return { disableSsr: true };
  collecting?.add(element);
  return { connectedCallback: true };
});

/** The query string of the page URL; '' for a URL that cannot be read. */
function urlQuery(url: string | URL): string {
  try {
    return new URL(url, 'http://localhost').search.slice(1);
  } catch {
    return '';
  }
}

/** The state of a root: the URL's with `routing`, else its `initialState`; the default state when unreadable. */
function rootState(element: ServerRoot, indexName: string, query: string): IndexState {
  try {
    if (element.routing) return queryStringToState(query, indexName);
    const initial = element.initialState;
    if (typeof initial === 'string') return queryStringToState(initial, indexName);
    return normalizeState((initial as Partial<IndexState>) ?? {}, indexName);
  } catch {
    return normalizeState({}, indexName);
  }
}

/**
 * Runs one Lit SSR pass of `template` with `storeFor` giving each root its store; returns the HTML. The elements'
 * controllers then run their `hostUpdate` (Lit SSR skips it), so their needs are those of their properties.
 */
function renderPass(template: unknown, lang: string, storeFor: (element: ServerRoot) => SearchStore | undefined) {
  const elements = new Set<object>();
  collecting = elements;
  try {
    const html = withServerRender({ lang, store: storeFor }, () => collectResultSync(render(template)));
    for (const element of elements) serverUpdate(element);
    return html;
  } finally {
    collecting = undefined;
  }
}

/** Waits until every store showed its first answer (or `timeoutMs` passed). */
function settle(stores: SearchStore[], timeoutMs: number): Promise<void> {
  const answered = stores.map(
    (store) =>
      new Promise<void>((resolve) => {
        const unsubscribe = store.subscribe((snapshot) => {
          if (snapshot.initialising || snapshot.status === 'loading' || snapshot.status === 'stalled') return;
          queueMicrotask(() => unsubscribe());
          resolve();
        });
      }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  return Promise.race([Promise.all(answered).then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** A search refused for what the URL asked (an unknown sort index, a bad parameter): the default page is shown. */
const refusedInput = (error: Error | undefined) => {
  const status = (error as { status?: number } | undefined)?.status;
  return error?.name === 'ApiError' && typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * Renders `template` (a Lit `html` template with `<svc-search>` roots and their elements) with the first results of
 * the state of `options.url`, searched from the server.
 *
 * - A root with `routing` renders the URL's state (query, refinements, page, sort, hits per page); other roots their
 *   `initialState`. A URL that cannot be read renders the default state; a state the service refuses (a sort
 *   index that does not exist…) renders the default state too (status 200).
 * - A search that fails (unreachable host, a 5xx, `timeoutMs`) renders the elements' error state with status 503
 *   (the browser's store starts in that state and searches again).
 * - `html` ends with one `<script type="application/json" id="…">` per root (record data escaped for a script);
 *   the root carries `server-state="<id>"`. Serve the page with the loader (`dist/svc-search.js`) or
 *   `svc-search/hydrate` first: the elements hydrate from it without searching again.
 *
 * @example
 * ```ts
 * import { html } from 'lit';
 * import { renderSearch } from 'svc-search/ssr';
 * const page = html`<svc-search app-id="APP" api-key="KEY" index-name="products" routing>
 *   <svc-search-box></svc-search-box><svc-hits attribute="name"></svc-hits><svc-pagination></svc-pagination>
 * </svc-search>`;
 * const { html: body, status } = await renderSearch(page, { url: request.url, appId: 'APP', apiKey: 'KEY' });
 * ```
 */
export async function renderSearch(template: unknown, options: RenderSearchOptions): Promise<RenderedSearch> {
  const lang = options.lang ?? 'en';
  const prefix = options.idPrefix ?? 'svc-search-state';
  const hosts = typeof options.hosts === 'string' ? options.hosts.split(',').map((host) => host.trim()) : options.hosts;
  const client =
    options.client ??
    createClient({
      appId: options.appId ?? '',
      apiKey: options.apiKey ?? '',
      hosts: hosts?.filter(Boolean).length ? hosts.filter(Boolean) : undefined,
      cache: false,
    });
  const query = urlQuery(options.url);
  // A token read from a cookie is the visitor's input: used only when it is a valid token.
  const userToken = isValidUserToken(options.userToken) ? options.userToken : undefined;
  const roots: Root[] = [];

  // Pass 1: each root's store searches once, with the needs of every element.
  renderPass(template, lang, (element) => {
    const indexName = element.indexName;
    if (!indexName) return undefined;
    const id = `${prefix}-${roots.length}`;
    const state = stateToQueryString(rootState(element, indexName, query), indexName);
    const insights = element.insightsEnabled && element.insightsConsent;
    const store = createSearchStore({ client, indexName, initialState: state, cache: false });
    if (insights) {
      const params = { clickAnalytics: true, ...(userToken ? { userToken } : {}) };
      store.registerNeeds('insights', { params, inherit: true });
    }
    roots.push({ id, indexName, state, store, insights, failed: false });
    return store;
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  await settle(
    roots.map((root) => root.store!),
    timeoutMs,
  );
  for (const root of roots) {
    const snapshot = root.store!.getSnapshot();
    root.error = snapshot.status === 'error' ? (snapshot.error ?? undefined) : undefined;
    // Refused for what the URL asked: the default state, searched again with the same needs.
    if (root.error && refusedInput(root.error) && root.state !== '') {
      root.state = '';
      root.store!.setState(normalizeState({}, root.indexName));
    }
  }
  const retried = roots.filter((root) => root.state === '' && root.error);
  if (retried.length) {
    await settle(
      retried.map((root) => root.store!),
      timeoutMs,
    );
  }
  for (const root of roots) {
    const store = root.store!;
    root.initial = store.getInitialResults() ?? {
      error: `The search did not answer within ${timeoutMs} ms.`,
      requests: '',
    };
    root.failed = root.initial.results === undefined;
    store.dispose();
  }

  // Pass 2: the elements render from stores started with those results (as the browser's will start).
  let index = 0;
  const rendered: SearchStore[] = [];
  const body = renderPass(template, lang, (element) => {
    const root = roots[index];
    index += 1;
    if (!root || element.indexName !== root.indexName) return undefined;
    element.setAttribute('server-state', root.id);
    const store = createSearchStore({
      client,
      indexName: root.indexName,
      initialState: root.state,
      initialResults: root.initial,
    });
    rendered.push(store);
    return store;
  });
  for (const store of rendered) store.dispose();

  const state: RenderedRoot[] = roots.map((root) => ({
    id: root.id,
    indexName: root.indexName,
    state: root.state,
    initialResults: root.initial!,
    failed: root.failed,
  }));
  const scripts = state
    .map(
      ({ id, indexName, state: rootState, initialResults }) =>
        `<script type="application/json" id="${escapeAttribute(id)}">${scriptJson({ indexName, state: rootState, initialResults })}</script>`,
    )
    .join('');
  return {
    html: body + scripts,
    state,
    status: state.some((root) => root.failed) ? 503 : 200,
    stateBytes: new TextEncoder().encode(scripts).length,
  };
}
