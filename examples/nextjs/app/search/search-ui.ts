/**
 * The search UI as a Lit template: what `renderSearch` renders on the server. The browser's elements hydrate from
 * it, so the template holds only what both render the same way (the sort choices as `.items`: a server sees no
 * light DOM).
 */
import { html } from 'lit';

export interface SearchConfig {
  appId: string;
  apiKey: string;
  /** The hosts the browser searches (comma-separated). */
  hosts: string;
  indexName: string;
}

/**
 * @example
 * const { html: body } = await renderSearch(searchUi(config), { url: '/search?q=chair', ...credentials });
 */
export function searchUi(config: SearchConfig) {
  const sorts = [
    { value: config.indexName, label: 'Most popular' },
    { value: `${config.indexName}_price_asc`, label: 'Lowest price' },
    { value: `${config.indexName}_price_desc`, label: 'Highest price' },
  ];
  return html`<svc-search
    app-id=${config.appId}
    api-key=${config.apiKey}
    index-name=${config.indexName}
    hosts=${config.hosts}
    routing
    insights-cookie
  >
    <header class="bar">
      <svc-search-box placeholder="Search products"></svc-search-box>
      <svc-sort-by hide-label .items=${sorts}>
        ${sorts.map((sort) => html`<option value=${sort.value}>${sort.label}</option>`)}
      </svc-sort-by>
    </header>
    <div class="layout">
      <aside>
        <svc-current-refinements></svc-current-refinements>
        <h2>Brand</h2>
        <svc-refinement-list attribute="brand" show-more></svc-refinement-list>
      </aside>
      <main>
        <svc-stats></svc-stats>
        <svc-hits attribute="name"></svc-hits>
        <svc-pagination></svc-pagination>
      </main>
    </div>
  </svc-search>`;
}
