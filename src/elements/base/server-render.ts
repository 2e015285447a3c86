/**
 * What a server render (`svc-search/ssr`, Node only) tells the elements it is rendering. The render sets it for
 * the time of one synchronous Lit SSR pass and removes it after; elements read it only when `isServer`. It lives
 * on `globalThis` under a registered symbol, as the context key does, so two copies of the library agree.
 */
import type { InitialResults, SearchStore } from '../../store/types.js';

/** What a server render serialised for a root (`svc-search/ssr`): the state it rendered and its results. */
export interface ServerState {
  indexName: string;
  /** The state, as `store.toQueryString` writes it. */
  state: string;
  initialResults: InitialResults;
}

/** A `<svc-search>` as the server render reads it (its configuration; the render chooses the state). */
export interface ServerRoot extends Element {
  readonly indexName: string | undefined;
  readonly routing: boolean;
  readonly initialState: unknown;
  readonly insightsEnabled: boolean;
  readonly insightsConsent: boolean;
}

export interface ServerRender {
  /** The store of a root being rendered (undefined when the render cannot give one, e.g. no `index-name`). */
  store(root: ServerRoot): SearchStore | undefined;
  /** The page's language (`<html lang>`), for elements without a `lang` of their own. */
  readonly lang: string;
}

// Pure: a browser build, where nothing reads it (every use is behind `isServer`), drops it.
const SERVER_RENDER = /* @__PURE__ */ Symbol.for('svc-search.server-render');

/** The server render in progress, if any. */
export const serverRender = (): ServerRender | undefined =>
  (globalThis as { [SERVER_RENDER]?: ServerRender })[SERVER_RENDER];

/**
 * Runs `render` (synchronous) with `value` as the server render the elements see.
 *
 * @example
 * const html = withServerRender(session, () => collectResultSync(render(template)));
 */
export function withServerRender<R>(value: ServerRender, render: () => R): R {
  const global = globalThis as { [SERVER_RENDER]?: ServerRender };
  const outer = global[SERVER_RENDER];
  global[SERVER_RENDER] = value;
  try {
    return render();
  } finally {
    global[SERVER_RENDER] = outer;
  }
}
