/**
 * The search page of the server-side rendering example: one Lit template, rendered on the server by
 * `renderSearch` (the elements with their results in declarative shadow DOM), or — for the client-only page the
 * benchmark compares it with — as plain tags that the browser renders after its own first search.
 */
import { html } from 'lit';

export interface PageConfig {
  appId: string;
  apiKey: string;
  /** The hosts the browser searches (comma-separated). */
  hosts: string;
  indexName: string;
}

/**
 * The search UI. `<svc-sort-by>` gets its choices twice, on purpose: a server sees no light DOM, so `.items` is
 * what it renders; the browser reads the same choices from the `<option>`s (the two must agree).
 *
 * @example
 * const { html: body } = await renderSearch(searchUi(config), { url: request.url, ...credentials });
 */
export function searchUi(config: PageConfig) {
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

const STYLE = `
  body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; }
  .bar { display: flex; gap: 1rem; align-items: center; }
  .bar svc-search-box { flex: 1; }
  .layout { display: grid; grid-template-columns: 14rem 1fr; gap: 2rem; margin-block-start: 1rem; }
  h2 { font-size: 1rem; margin: 1rem 0 .5rem; }
`;

/**
 * The whole document around a rendered body: the loader (which loads Lit's hydration support first on a
 * server-rendered page) and the page's language, which the server render must be told (`lang`).
 */
export function pageDocument(body: string, options: { title: string; script: string; lang?: string }): string {
  const title = options.title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<script type="module" src="${options.script}"></script>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
