import { html, nothing, type TemplateResult } from 'lit';

/**
 * What every story needs to reach the local service: dev credentials, the demo catalogue's `products`
 * index, and the host.
 *
 * - `npm start` (Storybook dev server): the service is mounted on the dev server itself
 *   (`.storybook/local-service.ts`), so the host is the page's own origin.
 * - The static catalogue (`npm run build-storybook`) has no service: it searches the demo catalogue exported at
 *   build time (`indexes/*.svcidx` beside `iframe.html`) with the engine in a Web Worker (`local-index`,
 *   `svc-search/local`), so any static file server serves a catalogue that searches. With `?svc-hosts=…` in
 *   the page URL it talks to that service instead (e.g. `npm run serve -- --demo` on `http://127.0.0.1:8787`).
 */
const DEV = (import.meta as ImportMeta & { env?: { DEV?: boolean } }).env?.DEV ?? true;

export const SERVICE = {
  appId: 'SVCLOCAL',
  searchKey: 'local-search-key',
  indexName: 'products',
  get hosts(): string {
    const location = globalThis.location;
    const given = location ? new URLSearchParams(location.search).get('svc-hosts') : null;
    if (given) return given;
    return DEV ? (location?.origin ?? 'http://127.0.0.1:6006') : 'http://127.0.0.1:8787';
  },
  /** The static build's exported indices (relative to the story's page), or none when a service answers. */
  get localIndices(): string[] {
    const location = globalThis.location;
    if (DEV || (location && new URLSearchParams(location.search).has('svc-hosts'))) return [];
    return LOCAL_INDICES.map((name) => `indexes/${name}.svcidx`);
  },
  /** The `local-index` attribute of `<svc-search>`: the exported indices in the static build, else no attribute. */
  get localIndex(): string | typeof nothing {
    return this.localIndices.length > 0 ? this.localIndices.join(',') : nothing;
  },
};

/** The indices `npm run build-storybook` exports (scripts/export-demo-indexes.ts writes the same list). */
export const LOCAL_INDICES = ['products', 'products_query_suggestions'];

/**
 * A search page around one facet element: the facet in a sidebar beside the stats and the hits (name, category
 * path, price, rating, same-day shipping), so each facet story shows what its choices do to the results.
 * `initialState` starts the search elsewhere (a query, a refinement).
 */
export function facetPage(
  facet: TemplateResult,
  options: { heading?: string; initialState?: Record<string, unknown>; aside?: TemplateResult } = {},
): TemplateResult {
  return html`<svc-search
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .initialState=${options.initialState}
  >
    <svc-configure hits-per-page="6"></svc-configure>
    <div style="display: grid; grid-template-columns: minmax(12rem, 16rem) minmax(0, 1fr); gap: 1.5rem; align-items: start">
      <section aria-label=${options.heading ?? 'Filters'} style="display: grid; gap: 1rem">
        ${options.heading ? html`<h2 style="margin: 0; font-size: 0.875rem">${options.heading}</h2>` : ''} ${facet}
        ${options.aside ?? ''}
      </section>
      <div style="display: grid; gap: 1rem">
        <svc-stats></svc-stats>
        <svc-hits>
          <template>
            <svc-highlight attribute="name"></svc-highlight>
            <div style="font-size: 0.875em; opacity: 0.75" data-text="hierarchicalCategories.lvl1"></div>
            <div>
              <strong data-text="price" data-currency="USD"></strong> · ★ <span data-text="rating"></span>
            </div>
          </template>
        </svc-hits>
      </div>
    </div>
  </svc-search>`;
}
