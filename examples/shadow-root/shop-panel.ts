/**
 * The elements inside your own web component's shadow root. Nothing special is needed: each element finds
 * the `<svc-search>` around the host through the context (it crosses shadow roots), or names one with
 * `search="id"` — in its own shadow root first, then in the document; clicks on hits are still seen by
 * insights (`event.composedPath()`).
 *
 * ```html
 * <svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="products" hosts="http://127.0.0.1:8787">
 *   <shop-panel></shop-panel>
 * </svc-search>
 * <svc-search id="main-search" …></svc-search>
 * <side-results></side-results>
 * <search-widget app-id="SVCLOCAL" api-key="local-search-key" index-name="products" hosts="…"></search-widget>
 * ```
 */
import 'svc-search/elements/search/define';
import 'svc-search/elements/search-box/define';
import 'svc-search/elements/refinement-list/define';
import 'svc-search/elements/hits/define';

/** Your component: the search UI in its shadow root, inside the `<svc-search>` that holds the host. */
export class ShopPanel extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = `
      <style>:host { display: grid; grid-template-columns: 12rem 1fr; gap: 1rem } svc-search-box { grid-column: 1 / -1 }</style>
      <svc-search-box placeholder="Search products"></svc-search-box>
      <svc-refinement-list attribute="brand"></svc-refinement-list>
      <svc-hits></svc-hits>`;
  }
}

/** A component elsewhere on the page: its hits name the search by id. */
export class SideResults extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = `<svc-hits search="main-search"></svc-hits>`;
  }
}

/**
 * A self-contained component: its own `<svc-search id="search">` in its shadow root, and results outside that
 * root's subtree naming it. Ids are scoped to the shadow root, so several widgets on one page each find their
 * own search. The host's `app-id`, `api-key`, `index-name` and `hosts` are passed to the `<svc-search>`.
 */
export class SearchWidget extends HTMLElement {
  connectedCallback(): void {
    if (this.shadowRoot) return;
    const shadow = this.attachShadow({ mode: 'open' });
    const search = document.createElement('svc-search');
    search.id = 'search';
    for (const name of ['app-id', 'api-key', 'index-name', 'hosts'])
      search.setAttribute(name, this.getAttribute(name) ?? '');
    search.innerHTML = '<svc-search-box placeholder="Search products"></svc-search-box>';
    shadow.innerHTML = '<aside><svc-hits search="search"></svc-hits></aside>';
    shadow.prepend(search);
  }
}

if (!customElements.get('shop-panel')) customElements.define('shop-panel', ShopPanel);
if (!customElements.get('side-results')) customElements.define('side-results', SideResults);
if (!customElements.get('search-widget')) customElements.define('search-widget', SearchWidget);
