/**
 * The first paint without Lit (src/prepaint), in Chromium, the page on another origin than the service, every
 * element chunk held until the test releases it (`prepaint-fixture.ts`). What is painted, and the takeover; the
 * clicks on the painted hits and the root's Insights attributes are `prepaint-insights.node.test.ts`.
 *
 * - The painted shadow DOM equals `<svc-hits>`' own render of the same answer (comments, Lit's markers, aside), with
 *   the same stylesheets; the page makes one search (the store adopts the script's answer). The same with a
 *   `<template>` child (`data-text`, `data-href`, `data-attr-alt`, a price with `data-currency`, a `<style>`,
 *   `<svc-highlight>` and `<svc-snippet>`, whose shadow roots are compared too).
 * - A record's markup is text in the painted hits (no element made of it, no script run), with or without a template.
 * - A state in the URL with `routing` (query, OR refinements, page, hits per page, and values the store drops): the
 *   script searches that state (one request: the store adopts it) and paints its hits as the element renders them;
 *   a hostile query stays text.
 * - A page whose store asks something else than the script did (an element added meanwhile): the store searches
 *   itself, and the page shows its answer.
 * - Not painted (the chunks requested at once, nothing in `<svc-hits>` before they run): a `<template>` holding a
 *   custom element it does not know.
 * - A host that never answers holds the elements back no longer than the client's first attempt (7 s).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { catalogue } from '../client/fixture.js';
import { SIX_ELEMENTS, loaderPage } from '../size/pages.js';
import {
  type PrepaintSite,
  SHADOW_STATE,
  type ShadowState,
  firstSearchParams,
  insightsLoaded,
  painted,
  paintedThenRendered,
  rootWith,
  startPrepaintSite,
  upgraded,
  waitForChunkRequest,
  withPage,
} from './prepaint-fixture.js';

const HOSTILE_INDEX = 'prepaint_hostile';
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">Evil & <b>bold</b>';
/** A hit template using every kind of field the prepaint fills, highlights and snippets included. */
const HIT_TEMPLATE = `<template>
  <style>.price { font-weight: 600 }</style>
  <a part="link" data-href="objectID" data-attr-title="name"><svc-highlight attribute="name"></svc-highlight></a>
  <img data-attr-alt="name" width="1" height="1">
  <p><span data-text="brand"></span> <span class="price" data-text="price" data-currency="USD"></span></p>
  <svc-snippet attribute="name" words="2"></svc-snippet>
</template>`;
/** A template showing the hostile name in each way: text, highlight, link and attribute. */
const HOSTILE_TEMPLATE = `<template>
  <p data-text="name"></p><svc-highlight attribute="name"></svc-highlight>
  <a data-href="name" data-attr-title="name"></a>
</template>`;
/**
 * A routed state: laptops of two brands (OR refinements: a facet query more in the same request), page 2 of 3 hits
 * (the first hit painted is the 4th), and values the store drops (a page that is no number, a numeric refinement
 * without a number, an unknown key).
 */
const ROUTED_STATE =
  '?q=laptop&refinementList%5Bbrand%5D=Acme&refinementList%5Bbrand%5D=Bolt&page=2&hitsPerPage=3&page=two&numeric%5Bprice%5D=%3E%3Dcheap&utm_source=mail';
/** The painted hits' texts, their elements and whether a record's markup ran (`window.__pwned`). */
const HOSTILE_STATE = `(() => {
  const root = document.querySelector('svc-hits').shadowRoot;
  return {
    texts: [...root.querySelectorAll('li')].map((li) => li.textContent),
    elements: [...root.querySelectorAll('li *')].map((element) => element.localName),
    pwned: window.__pwned ?? null,
  };
})()`;
type HostileState = { texts: string[]; elements: string[]; pwned: unknown };

describe('first paint without Lit: what is painted (loader build, cross-origin, Chromium)', () => {
  let prepaint: PrepaintSite;
  /** A host that accepts requests and never answers them. */
  let silent: Server;
  const silentSockets = new Set<Socket>();

  before(async () => {
    silent = createServer(() => undefined);
    silent.on('connection', (socket) => silentSockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentHost = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const hostile = catalogue(3).map((product, i) => (i === 0 ? { ...product, name: HOSTILE_NAME } : product));
    prepaint = await startPrepaintSite(
      {
        '/six': loaderPage(SIX_ELEMENTS),
        '/hostile': loaderPage('<svc-hits></svc-hits>', HOSTILE_INDEX),
        '/template': loaderPage(`<svc-search-box></svc-search-box><svc-hits>${HIT_TEMPLATE}</svc-hits>`),
        '/hostile-template': loaderPage(`<svc-hits>${HOSTILE_TEMPLATE}</svc-hits>`, HOSTILE_INDEX),
        '/unknown-element': loaderPage(
          '<svc-hits><template><my-card data-text="name"></my-card></template></svc-hits>',
        ),
        '/routed': rootWith('routing'),
        '/routed-hostile': loaderPage('<svc-hits></svc-hits>', HOSTILE_INDEX).replace(
          '<svc-search ',
          '<svc-search routing ',
        ),
        '/silent': loaderPage('<svc-hits></svc-hits>').replace('{{service}}', silentHost),
      },
      { [HOSTILE_INDEX]: hostile },
    );
  });

  after(async () => {
    await prepaint?.close();
    for (const socket of silentSockets) socket.destroy();
    silent?.close();
  });

  for (const [name, path] of [
    ['the default rendering', '/six'],
    ['a <template> child', '/template'],
  ] as const) {
    test(`the painted hits equal <svc-hits>’ own render of the same answer; the page makes one search: ${name}`, async () => {
      await withPage(prepaint, path, async (page) => {
        await painted(page);
        const state = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
        assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, 'painted before Lit');
        assert.match(
          state.markup,
          /<li part="item" data-svc-object-id="[^"]+" data-svc-position="1" data-svc-query-id="[0-9a-f]+"/,
        );
        if (path === '/template') {
          // The template filled: its style once, a link, an attribute, a formatted price, highlights painted.
          assert.match(state.markup, /^<style>\.price \{ font-weight: 600 \}<\/style><div role="status"/);
          assert.match(
            state.markup,
            /<a part="link" data-href="objectID" data-attr-title="name" href="p\d+" title="[^"]+"><svc-highlight attribute="name">/,
          );
          assert.match(state.markup, /<img data-attr-alt="name" width="1" height="1" alt="[^"]+">/);
          assert.match(state.markup, /<span class="price" data-text="price" data-currency="USD">\$\d+\.00<\/span>/);
          assert.equal(state.highlights.length, 2 * 20, 'a highlight and a snippet per hit');
          assert.ok(
            state.highlights.every((highlight) => highlight.markup),
            'each painted with its text',
          );
        }
        page.release();
        await upgraded(page.tab);
        await page.tab.evaluate(
          `Promise.all([...document.querySelector('svc-hits').shadowRoot.querySelectorAll('svc-highlight, svc-snippet')].map((element) => element.updateComplete))`,
        );
        const rendered = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
        assert.equal(rendered.markup, state.markup);
        assert.deepEqual(rendered.styles, state.styles);
        assert.deepEqual(rendered.highlights, state.highlights, 'highlights and snippets as painted');
        assert.deepEqual(rendered.boxes, state.boxes, 'every hit where it was painted');
        // Insights loads after the first results: wait for it, then count the searches of the load.
        await insightsLoaded(page);
        assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
      });
    });
  }

  test("a record's markup is text in the painted hits", async () => {
    await withPage(prepaint, '/hostile', async (page) => {
      await painted(page);
      const found = (await page.tab.evaluate(HOSTILE_STATE)) as HostileState;
      assert.ok(found.texts.includes(HOSTILE_NAME), `the name as text: ${found.texts}`);
      assert.deepEqual(found.elements, [], 'no element made of record values');
      assert.equal(found.pwned, null);
    });
  });

  test("a record's markup is text in hits painted from a <template>: text, highlight, link, attribute", async () => {
    await withPage(prepaint, '/hostile-template', async (page) => {
      await painted(page);
      const found = (await page.tab.evaluate(`(() => {
        const root = document.querySelector('svc-hits').shadowRoot;
        const li = [...root.querySelectorAll('li')].find((item) => item.dataset.svcObjectId === 'p0');
        const highlight = li.querySelector('svc-highlight').shadowRoot;
        return {
          text: li.querySelector('p').textContent,
          highlighted: highlight.textContent,
          title: li.querySelector('a').getAttribute('title'),
          elements: [...root.querySelectorAll('li *')].map((element) => element.localName),
          inHighlight: [...highlight.querySelectorAll('*')].map((element) => element.localName),
          pwned: window.__pwned ?? null,
        };
      })()`)) as Record<string, unknown>;
      assert.equal(found.text, HOSTILE_NAME);
      assert.equal(found.highlighted, HOSTILE_NAME);
      assert.equal(found.title, HOSTILE_NAME);
      assert.deepEqual(
        [...new Set(found.elements as string[])],
        ['p', 'svc-highlight', 'a'],
        'only the template’s elements',
      );
      assert.deepEqual(found.inHighlight, [], 'no element made of record values in the highlight');
      assert.equal(found.pwned, null);
    });
  });

  test('a store asking something else than the script searches itself, and shows its answer', async () => {
    await withPage(prepaint, '/six', async (page) => {
      await painted(page);
      await page.tab.evaluate(
        `document.querySelector('svc-search').insertAdjacentHTML('beforeend', '<svc-refinement-list attribute="color"></svc-refinement-list>')`,
      );
      page.release();
      await upgraded(page.tab);
      await page.tab.waitForFunction(
        `[...document.querySelectorAll('svc-refinement-list')].every((list) => list.shadowRoot?.querySelector('[part~=checkbox]'))`,
      );
      assert.equal(page.searches(), 2, 'the script’s search, then the store’s own');
    });
  });

  for (const [name, path] of [
    ['a <template> holding a custom element it does not know', '/unknown-element'],
  ] as const) {
    test(`not painted: ${name} (the chunks are requested at once, nothing painted before them)`, async () => {
      await withPage(prepaint, path, async (page) => {
        await waitForChunkRequest(page);
        assert.equal(await page.tab.evaluate(`document.querySelector('svc-hits').shadowRoot`), null);
        page.release();
        await page.tab.waitForFunction(
          `document.querySelector('svc-hits').shadowRoot?.querySelector('li[data-svc-object-id]')`,
        );
        assert.equal(page.searches(), 1);
      });
    });
  }

  test('a routed URL state is painted: the state the store reads, one search, the store adopts it', async () => {
    await withPage(prepaint, `/routed${ROUTED_STATE}`, async (page) => {
      const state = await paintedThenRendered(page);
      // Page 2 of 3 hits: one hit left (4 laptops of Acme or Bolt among 40 products), the 4th.
      const items = [
        ...state.markup.matchAll(/<li part="item" data-svc-object-id="(p\d+)" data-svc-position="(\d+)"/g),
      ];
      assert.deepEqual(
        items.map((item) => item[2]),
        ['4'],
        state.markup,
      );
      assert.ok(['p0', 'p4', 'p20', 'p24'].includes(items[0]![1]!), `a laptop of Acme or Bolt: ${items[0]![1]}`);
      const [main, brandCounts] = firstSearchParams(page);
      assert.equal(main!.query, 'laptop');
      assert.equal(main!.page, '1');
      assert.equal(main!.hitsPerPage, '3');
      assert.deepEqual(JSON.parse(main!.facetFilters!), [['brand:Acme', 'brand:Bolt']]);
      assert.equal(main!.numericFilters, undefined, 'the numeric refinement without a number is dropped');
      assert.equal(brandCounts!.facets, '["brand"]', "the OR facet's own counts query, in the same request");
      const storeState = (await page.tab.evaluate(
        `document.querySelector('svc-search').store.getSnapshot().state`,
      )) as {
        query: string;
        page: number;
        hitsPerPage: number;
        disjunctiveFacetRefinements: Record<string, string[]>;
        numericRefinements: Record<string, unknown>;
      };
      assert.deepEqual(
        {
          query: storeState.query,
          page: storeState.page,
          hitsPerPage: storeState.hitsPerPage,
          disjunctive: storeState.disjunctiveFacetRefinements,
          numeric: storeState.numericRefinements,
        },
        { query: 'laptop', page: 1, hitsPerPage: 3, disjunctive: { brand: ['Acme', 'Bolt'] }, numeric: {} },
      );
      await insightsLoaded(page);
      assert.equal(page.searches(), 1, 'one search: the store adopted the routed answer');
    });
  });

  test("a routed hostile query stays text: in the request, in the painted hit's highlight", async () => {
    await withPage(prepaint, `/routed-hostile?q=${encodeURIComponent(HOSTILE_NAME)}`, async (page) => {
      await painted(page);
      const found = (await page.tab.evaluate(HOSTILE_STATE)) as HostileState;
      assert.equal(firstSearchParams(page)[0]!.query, HOSTILE_NAME);
      assert.ok(found.texts.includes(HOSTILE_NAME), `the name as text: ${found.texts}`);
      assert.deepEqual(
        [...new Set(found.elements)],
        ['mark'],
        'the query words highlighted, no element made of the query',
      );
      page.release();
      await upgraded(page.tab);
      await insightsLoaded(page);
      assert.equal(await page.tab.evaluate(`window.__pwned ?? null`), null);
      assert.equal(found.pwned, null);
      assert.equal(page.searches(), 1);
    });
  });

  test('a host that never answers holds the elements back no longer than the client’s first attempt', async () => {
    await withPage(prepaint, '/silent', async (page) => {
      const started = Date.now();
      // Without a bound on the script's search the chunks would never be requested: 15 s is twice the bound.
      for (let i = 0; i < 750 && !page.chunksRequested().length; i++) await new Promise((r) => setTimeout(r, 20));
      const waited = Date.now() - started;
      assert.ok(page.chunksRequested().length, 'the element chunks were requested');
      assert.ok(waited >= 6_000, `the script waited for its search (${waited} ms)`);
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-hits').shadowRoot`), null, 'nothing painted');
    });
  });
});
