/**
 * `renderSearch` (`svc-search/ssr`) against the real service (demo catalogue) on a loopback port: the elements come
 * out as declarative shadow DOM holding the results of the URL's state, links are real, the serialised state is
 * escaped for a `<script>`, bad URLs render the default page (200), an unreachable or silent host renders the error
 * state (503), and every element renders on a server or is left to the browser.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { html } from 'lit';
import { createClient } from '../../src/client/index.js';
import type { SearchClient } from '../../src/client/types.js';
import { renderSearch, scriptJson } from '../../src/ssr/index.js';
import type { RenderSearchOptions } from '../../src/ssr/index.js';
import {
  closedPort,
  startHangingServer,
  startProxy,
  waitTask,
  type Proxy as CountingProxy,
} from '../client/fixture.js';

let url: string;
let close: () => Promise<void>;
let admin: SearchClient;
let dataDir: string;
let searchKey: string;
let appId: string;

const HOSTILE = '</script><script>window.__svcPwned=1</script> <!-- \u2028\u2029 & Chair';

before(async () => {
  const { createService, DEV_CREDENTIALS } = await import('../../service/src/index.js');
  dataDir = mkdtempSync(join(tmpdir(), 'svc-ssr-'));
  const service = await createService({ dataDir, demo: true });
  ({ url } = await service.listen(0, '127.0.0.1'));
  close = () => service.close();
  ({ appId, searchKey } = DEV_CREDENTIALS);
  admin = createClient({ appId, apiKey: DEV_CREDENTIALS.adminKey, hosts: [url], cache: false });
  const { taskID } = await admin.request<{ taskID: number }>('POST', '/1/indexes/products/batch', {
    requests: [{ action: 'addObject', body: { objectID: 'hostile', name: HOSTILE, brand: 'Hostile', price: 1 } }],
  });
  await waitTask(admin, 'products', taskID);
});
after(async () => {
  await close?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const page = (inner: unknown = html`<svc-hits attribute="name"></svc-hits>`) =>
  html`<svc-search app-id="SVCLOCAL" api-key="browser-key" index-name="products" routing>${inner}</svc-search>`;

const options = (extra: Partial<RenderSearchOptions> = {}): RenderSearchOptions => ({
  url: '/search',
  appId,
  apiKey: searchKey,
  hosts: url,
  ...extra,
});

/** The content of the declarative shadow root of the first `<tag>` (its own template, nested ones included). */
function shadowOf(markup: string, tag: string): string {
  const start = markup.indexOf(`<${tag}`);
  assert.ok(start >= 0, `<${tag}> is in the HTML`);
  const open = markup.indexOf('<template shadowroot="open" shadowrootmode="open"', start);
  const end = markup.indexOf(`</${tag}>`, open);
  assert.ok(open >= 0 && open < end, `<${tag}> has a declarative shadow root`);
  return markup.slice(open, end);
}

/** The objectIDs of the hit items of markup, in order. */
const objectIDs = (markup: string) => [...markup.matchAll(/data-svc-object-id="([^"]*)"/g)].map((m) => m[1]);

/** The text of markup (tags and Lit's comment markers dropped, entities decoded). */
const text = (markup: string) =>
  markup
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->|<\/?mark[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

async function search(params: Record<string, unknown>, indexName = 'products') {
  const client = createClient({ appId, apiKey: searchKey, hosts: [url], cache: false });
  return client.search<{ name: string }>(indexName, params);
}

describe('renderSearch', () => {
  test('the hits of the URL’s state (query, refinement, page, sort) are text in the declarative shadow roots', async () => {
    const query = 'q=chair&refinementList%5Bbrand%5D=Global&page=2&sortBy=products_price_asc';
    const rendered = await renderSearch(
      page(html`<svc-search-box></svc-search-box><svc-refinement-list attribute="brand"></svc-refinement-list>
        <svc-hits attribute="name"></svc-hits><svc-pagination></svc-pagination>`),
      options({ url: `http://shop.example/search?${query}` }),
    );
    assert.equal(rendered.status, 200);
    const expected = await search(
      { query: 'chair', facetFilters: [['brand:Global']], page: 1, hitsPerPage: 20 },
      'products_price_asc',
    );
    assert.ok(expected.hits.length > 5);
    const hits = shadowOf(rendered.html, 'svc-hits');
    assert.deepEqual(
      objectIDs(hits),
      expected.hits.map((hit) => hit.objectID),
    );
    for (const hit of expected.hits) assert.ok(text(hits).includes(hit.name), `hit ${hit.name} is text in the HTML`);
    // Positions are absolute (page 2 of 20), with the search's queryID.
    const queryID = rendered.state[0]!.initialResults.results!.queryID!;
    assert.match(queryID, /^[0-9a-f]{32}$/);
    assert.match(rendered.html, new RegExp(`data-svc-position="21"\\s+data-svc-query-id="${queryID}"`));
    assert.match(shadowOf(rendered.html, 'svc-search-box'), /value="chair"/);
    assert.match(shadowOf(rendered.html, 'svc-refinement-list'), /value="Global"\s+checked/);
    // The state serialised is the one rendered (the store's form of the URL's), and the root names its script.
    assert.equal(rendered.state[0]!.state, 'q=chair&page=2&sortBy=products_price_asc&refinementList[brand]=Global');
    assert.match(rendered.html, /<svc-search [^>]*server-state="svc-search-state-0"/);
    assert.equal(rendered.state[0]!.failed, false);
  });

  test('links are real: pagination, rating and hierarchical menu hrefs are the pages’ URLs', async () => {
    const rendered = await renderSearch(
      page(html`<svc-hits attribute="name"></svc-hits><svc-pagination></svc-pagination>
        <svc-rating-menu attribute="rating"></svc-rating-menu>
        <svc-hierarchical-menu attributes="hierarchicalCategories.lvl0,hierarchicalCategories.lvl1"></svc-hierarchical-menu>`),
      options({ url: '/search?q=chair' }),
    );
    const pagination = shadowOf(rendered.html, 'svc-pagination');
    assert.match(pagination, /<a part="link page"[^>]*href="\?q=chair&amp;page=2"/);
    assert.match(pagination, /aria-current="page"/);
    assert.match(
      shadowOf(rendered.html, 'svc-rating-menu'),
      /href="\?q=chair&amp;numeric\[rating\]=%3E%3D4&amp;numeric\[rating\]=%3C%3D5"/,
    );
    assert.match(
      shadowOf(rendered.html, 'svc-hierarchical-menu'),
      /href="\?q=chair&amp;facets\[hierarchicalCategories\.lvl0\]=Furniture"/,
    );
  });

  test('links are real: the breadcrumb of a refined category links Home and each level above the current one', async () => {
    const rendered = await renderSearch(
      page(
        html`<svc-breadcrumb attributes="hierarchicalCategories.lvl0,hierarchicalCategories.lvl1"></svc-breadcrumb>`,
      ),
      options({ url: '/search?q=chair&facets%5BhierarchicalCategories.lvl1%5D=Furniture+%3E+Chairs' }),
    );
    const breadcrumb = shadowOf(rendered.html, 'svc-breadcrumb');
    assert.deepEqual(
      [...breadcrumb.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => match[1]),
      ['?q=chair', '?q=chair&amp;facets[hierarchicalCategories.lvl0]=Furniture'],
    );
    assert.match(breadcrumb, /<span part="current" aria-current="location">(<!--[^>]*-->)*Chairs/);
  });

  test('record values are escaped in the state script: no </script>, no <!--, no U+2028/2029; JSON reads back', async () => {
    const rendered = await renderSearch(page(), options({ url: '/search?q=Hostile' }));
    const script = /<script type="application\/json" id="svc-search-state-0">([\s\S]*?)<\/script>/.exec(rendered.html);
    assert.ok(script, 'one state script, ended by its own </script>');
    const content = script[1]!;
    assert.ok(!/<\/?script|<!--|[\u2028\u2029]/i.test(content), content.slice(0, 200));
    const state = JSON.parse(content);
    assert.equal(state.initialResults.results.hits[0].name, HOSTILE);
    assert.equal(state.state, 'q=Hostile');
    // After the state script, the page is what the template made of it (nothing the record injected).
    assert.equal(rendered.html.match(/<script/g)?.length, 1);
    assert.ok(rendered.stateBytes > 0 && rendered.stateBytes < rendered.html.length);
    assert.equal(scriptJson({ a: '</script>\u2028' }), '{"a":"\\u003c/script\\u003e\\u2028"}');
  });

  test('a URL that cannot be read, or a state the service refuses, renders the default page (200)', async () => {
    const defaults = await search({ query: '', hitsPerPage: 20 });
    for (const bad of [
      'http://[::1',
      '/search?page=abc&hitsPerPage=-3&numeric%5Bprice%5D=%3E%3Dabc&q=%E0%A4%A',
      '/search?sortBy=no_such_index&q=chair',
      '/search?hitsPerPage=100000',
    ]) {
      const rendered = await renderSearch(page(), options({ url: bad }));
      assert.equal(rendered.status, 200, bad);
      assert.equal(rendered.state[0]!.failed, false, bad);
      const hits = objectIDs(shadowOf(rendered.html, 'svc-hits'));
      assert.ok(hits.length > 0, `${bad}: hits rendered`);
      if (bad.includes('sortBy') || bad.startsWith('http://[')) {
        assert.equal(rendered.state[0]!.state, '', `${bad}: the default state`);
        assert.deepEqual(
          hits,
          defaults.hits.map((hit) => hit.objectID),
          bad,
        );
      }
    }
  });

  test('an unreachable host: the error state and 503; a silent host: the same after timeoutMs', async () => {
    const closed = await renderSearch(page(), options({ hosts: await closedPort() }));
    assert.equal(closed.status, 503);
    assert.equal(closed.state[0]!.failed, true);
    assert.ok(closed.state[0]!.initialResults.error);
    assert.match(shadowOf(closed.html, 'svc-hits'), /<p part="error">[\s\S]*The search is unavailable/);

    const hanging = await startHangingServer();
    try {
      const started = performance.now();
      const silent = await renderSearch(page(), options({ hosts: hanging.url, timeoutMs: 300 }));
      assert.ok(performance.now() - started < 2000, 'answered after the timeout, not the client’s');
      assert.equal(silent.status, 503);
      assert.match(silent.state[0]!.initialResults.error!, /300 ms/);
      assert.match(shadowOf(silent.html, 'svc-hits'), /part="error"/);
    } finally {
      await hanging.close();
    }
  });

  test('one search per root, with every element’s needs, the visitor’s token (a valid one only)', async () => {
    const proxy: CountingProxy = await startProxy(url);
    try {
      const ui = page(html`<svc-refinement-list attribute="brand"></svc-refinement-list>
        <svc-configure hits-per-page="7"></svc-configure><svc-hits attribute="name"></svc-hits>`);
      const rendered = await renderSearch(ui, options({ hosts: proxy.url, userToken: 'visitor-1' }));
      const searches = proxy.requests.filter((request) => request.url.includes('/queries'));
      assert.equal(searches.length, 1, 'one multi-query for the page');
      const params = new URLSearchParams(
        (searches[0]!.json as { requests: Array<{ params: string }> }).requests[0]!.params,
      );
      assert.equal(params.get('hitsPerPage'), '7');
      assert.equal(params.get('facets'), '["brand"]');
      assert.equal(params.get('attributesToRetrieve'), '["name"]', 'the hit list’s own attributes (its willUpdate)');
      assert.equal(params.get('clickAnalytics'), 'true');
      assert.equal(params.get('userToken'), 'visitor-1');
      assert.equal(objectIDs(shadowOf(rendered.html, 'svc-hits')).length, 7);

      await renderSearch(ui, options({ hosts: proxy.url, userToken: 'bad token <script>' }));
      const second = new URLSearchParams(
        (proxy.requests.at(-1)!.json as { requests: Array<{ params: string }> }).requests[0]!.params,
      );
      assert.equal(second.get('userToken'), null, 'an invalid cookie token is not sent');
      assert.equal(second.get('clickAnalytics'), 'true');

      const before = proxy.requests.length;
      await renderSearch(
        html`<svc-search index-name="products" insights="false"><svc-hits attribute="name"></svc-hits></svc-search>`,
        options({ hosts: proxy.url, userToken: 'visitor-1' }),
      );
      const off = new URLSearchParams(
        (proxy.requests[before]!.json as { requests: Array<{ params: string }> }).requests[0]!.params,
      );
      assert.equal(off.get('clickAnalytics'), null, 'insights="false": no queryID asked');

      // The server reads `insights-consent` as the browser does (a Lit attribute of the root): denied, the search
      // asks no queryID and carries no token, as the browser's first search would not.
      const denied = proxy.requests.length;
      await renderSearch(
        html`<svc-search index-name="products" insights-consent="false"><svc-hits attribute="name"></svc-hits></svc-search>`,
        options({ hosts: proxy.url, userToken: 'visitor-1' }),
      );
      const withheld = new URLSearchParams(
        (proxy.requests[denied]!.json as { requests: Array<{ params: string }> }).requests[0]!.params,
      );
      assert.equal(withheld.get('clickAnalytics'), null, 'insights-consent="false": no queryID asked');
      assert.equal(withheld.get('userToken'), null, 'insights-consent="false": no token sent');
    } finally {
      await proxy.close();
    }
  });

  test('concurrent renders keep their own state', async () => {
    const [chairs, tables] = await Promise.all([
      renderSearch(page(), options({ url: '/search?q=chair' })),
      renderSearch(page(), options({ url: '/search?q=table' })),
    ]);
    assert.equal(chairs.state[0]!.state, 'q=chair');
    assert.equal(tables.state[0]!.state, 'q=table');
    assert.match(text(shadowOf(chairs.html, 'svc-hits')), /Chair/);
    assert.match(text(shadowOf(tables.html, 'svc-hits')), /Table/);
  });

  test('every element renders on a server, or is left to the browser (no shadow root)', async () => {
    const elements: Array<[string, unknown, boolean]> = [
      ['svc-search-box', html`<svc-search-box></svc-search-box>`, true],
      ['svc-autocomplete', html`<svc-autocomplete></svc-autocomplete>`, true],
      ['svc-hits', html`<svc-hits attribute="name"></svc-hits>`, true],
      ['svc-infinite-hits', html`<svc-infinite-hits attribute="name"></svc-infinite-hits>`, true],
      [
        'svc-refinement-list',
        html`<svc-refinement-list attribute="brand" searchable show-more></svc-refinement-list>`,
        true,
      ],
      ['svc-menu', html`<svc-menu attribute="brand"></svc-menu>`, true],
      ['svc-pagination', html`<svc-pagination></svc-pagination>`, true],
      ['svc-stats', html`<svc-stats></svc-stats>`, true],
      ['svc-current-refinements', html`<svc-current-refinements></svc-current-refinements>`, true],
      ['svc-clear-refinements', html`<svc-clear-refinements></svc-clear-refinements>`, true],
      ['svc-sort-by', html`<svc-sort-by .items=${[{ value: 'products', label: 'Featured' }]}></svc-sort-by>`, true],
      ['svc-hits-per-page', html`<svc-hits-per-page .items=${[{ value: 20, label: '20' }]}></svc-hits-per-page>`, true],
      ['svc-range-input', html`<svc-range-input attribute="price"></svc-range-input>`, true],
      ['svc-range-slider', html`<svc-range-slider attribute="price"></svc-range-slider>`, true],
      ['svc-configure', html`<svc-configure hits-per-page="5"></svc-configure>`, true],
      [
        'svc-hierarchical-menu',
        html`<svc-hierarchical-menu attributes="hierarchicalCategories.lvl0"></svc-hierarchical-menu>`,
        true,
      ],
      ['svc-breadcrumb', html`<svc-breadcrumb attributes="hierarchicalCategories.lvl0"></svc-breadcrumb>`, true],
      [
        'svc-toggle-refinement',
        html`<svc-toggle-refinement attribute="sameDayShipping"></svc-toggle-refinement>`,
        true,
      ],
      ['svc-rating-menu', html`<svc-rating-menu attribute="rating"></svc-rating-menu>`, true],
      ['svc-query-rule-custom-data', html`<svc-query-rule-custom-data></svc-query-rule-custom-data>`, true],
      ['svc-query-rule-context', html`<svc-query-rule-context contexts="shop"></svc-query-rule-context>`, true],
      ['svc-highlight', html`<svc-highlight attribute="name"></svc-highlight>`, true],
      ['svc-snippet', html`<svc-snippet attribute="name"></svc-snippet>`, true],
      ['svc-index', html`<svc-index index-name="products"></svc-index>`, true],
      // From their light DOM (options, child facets) or from Recommend: rendered in the browser.
      ['svc-sort-by', html`<svc-sort-by><option value="products">Featured</option></svc-sort-by>`, false],
      [
        'svc-numeric-menu',
        html`<svc-numeric-menu attribute="price"><option value=":100">Under 100</option></svc-numeric-menu>`,
        false,
      ],
      ['svc-dynamic-widgets', html`<svc-dynamic-widgets></svc-dynamic-widgets>`, false],
      ['svc-panel', html`<svc-panel header="Brand"></svc-panel>`, false],
      [
        'svc-recommendations',
        html`<svc-recommendations model="related-products" object-id="x"></svc-recommendations>`,
        false,
      ],
      ['svc-trending', html`<svc-trending></svc-trending>`, false],
    ];
    for (const [tag, inner, renders] of elements) {
      const rendered = await renderSearch(page(inner), options({ url: '/search?q=chair' }));
      assert.equal(rendered.status, 200, tag);
      const start = rendered.html.indexOf(`<${tag}`);
      const shadow = rendered.html.slice(start, rendered.html.indexOf(`</${tag}>`, start)).includes('shadowrootmode');
      assert.equal(shadow, renders, `${tag} ${renders ? 'rendered on the server' : 'left to the browser'}`);
    }
  });
});
