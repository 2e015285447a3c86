/**
 * What the elements do on a page a server rendered (`svc-search/ssr`), installed by `installHydration()`: by
 * `svc-search/hydrate`, by `svc-search.all.js`, and by the loader when the page has a root with `server-state`.
 * A page no server rendered never loads this module, and its elements carry none of it (they ask the hook
 * `hydration()` of `svc-element.ts`, which is then absent).
 *
 * - A root (`<svc-search server-state="id">`) starts its store from the state and results in the script `#id`.
 * - A server-rendered element (its shadow root came from the server as declarative shadow DOM) waits for its store
 *   before its first update: Lit's hydration adopts the server's DOM as that first render's, so it must render
 *   what the server rendered (the server's results), not an empty state.
 * - When the first render differs in structure from the server's (a server that could not see the light DOM, e.g.
 *   a hit list's `<template>` child), Lit's hydration throws: the element renders afresh in its shadow root (the
 *   server's styles kept) rather than stay broken, and says so once in the console.
 */
import { render } from 'lit';
import type { ServerState } from './server-render.js';
import { type Hydration, setHydration, type SvcElement } from './svc-element.js';

/** The members of an element hydration uses (`render` is protected in Lit). */
interface Rendering {
  render(): unknown;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly renderOptions: object;
}

/** Elements whose shadow root came from the server and which have not updated yet. */
const serverRendered = new WeakSet<SvcElement>();
/** Roots that took their server state (a store rebuilt later starts afresh). */
const stateTaken = new WeakSet<Element>();

const hydration: Hydration = {
  connected(element) {
    if (!element.hasUpdated && element.shadowRoot) serverRendered.add(element);
  },

  waits(element, consumesContext) {
    return serverRendered.has(element) && consumesContext && !element.store;
  },

  update(element, update) {
    if (!serverRendered.delete(element)) {
      update();
      return;
    }
    try {
      update();
    } catch (error) {
      console.warn(`<${element.localName}>: rendered again in the browser (the server rendered other content)`, error);
      const { renderRoot, renderOptions } = element as unknown as Rendering;
      for (const node of [...renderRoot.childNodes]) if ((node as Element).localName !== 'style') node.remove();
      render((element as unknown as Rendering).render(), renderRoot, renderOptions);
    }
  },

  serverState(root, indexName) {
    const id = root.getAttribute('server-state');
    if (!id || stateTaken.has(root)) return undefined;
    stateTaken.add(root);
    const scope = root.getRootNode() as Document | ShadowRoot;
    const script = scope.getElementById?.(id) ?? document.getElementById(id);
    try {
      const value = JSON.parse(script?.textContent ?? '') as ServerState;
      if (value.indexName === indexName && typeof value.state === 'string') return value;
    } catch {
      // Reported below.
    }
    console.error(`<svc-search>: no server state in #${id}; searching instead`);
    return undefined;
  },
};

/**
 * Makes the elements hydrate from a server's render (see above). Call it before the first element connects; Lit's
 * own hydration support must be in place before an element class is defined (`svc-search/hydrate` does both).
 *
 * @example
 * ```ts
 * import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
 * import { installHydration } from './elements/base/hydration.js';
 * installHydration();
 * ```
 */
export function installHydration(): void {
  setHydration(hydration);
}
