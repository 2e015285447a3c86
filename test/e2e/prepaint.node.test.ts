/**
 * The first paint without Lit (src/prepaint), in Chromium, the page on another origin than the service, the loader
 * built from the sources (`vite build --mode loader` when older than them; `SVC_E2E_REBUILD=1` forces it).
 *
 * The page server holds every element chunk until the test releases it, so the state painted by the script alone
 * is observed for as long as needed, and the takeover after it; nothing is raced.
 *
 * - The painted shadow DOM equals `<svc-hits>`' own render of the same answer (comments, Lit's markers, aside), with
 *   the same stylesheets; the page makes one search (the store adopts the script's answer). The same with a
 *   `<template>` child (`data-text`, `data-href`, `data-attr-alt`, a price with `data-currency`, a `<style>`,
 *   `<svc-highlight>` and `<svc-snippet>`, whose shadow roots are compared too).
 * - A record's markup is text in the painted hits (no element made of it, no script run), with or without a template.
 * - A click on a painted hit before the elements exist reaches Insights with its queryID and position; a click on a
 *   `data-svc-conversion` button in a painted hit is the conversion the element sends after the takeover.
 * - With `<svc-hits>`' chunk held and the root defined first (the window between Insights and the takeover held
 *   open): a click, a middle click and a `data-svc-conversion` click on painted hits each reach `/1/events` once with
 *   their queryID, position and name, and a painted hit put back after the takeover reaches no recorder; a second
 *   Insights made in that window (`insights-cookie` set) takes the later click, each click sent once.
 * - A state in the URL with `routing` (query, OR refinements, page, hits per page, and values the store drops): the
 *   script searches that state (one request: the store adopts it) and paints its hits as the element renders them;
 *   a hostile query stays text.
 * - The root's Insights attributes: `insights-consent="false"` (no clickAnalytics nor token in the search, no
 *   cookie, no stored token, no event for a click before or after the takeover), `insights-cookie` (the token of the
 *   cookie), `insights-user-token` (the search and an early click carry it), `insights="false"` (no Insights
 *   parameter, no event): each painted, with one search. Consent granted after the paint and before the takeover:
 *   no event for a click made before it, one (without a queryID) for a click made after it, and the store searches
 *   again with a token.
 * - A page whose store asks something else than the script did (an element added meanwhile): the store searches
 *   itself, and the page shows its answer.
 * - Not painted (the chunks requested at once, nothing in `<svc-hits>` before they run): a `<template>` holding a
 *   custom element it does not know.
 * - A host that never answers holds the elements back no longer than the client's first attempt (7 s).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { catalogue, indexProducts } from '../client/fixture.js';
import { FIRST_PAINT_INDEX, SIX_ELEMENTS, loaderPage } from '../size/pages.js';
import { type CrossOrigin, startCrossOrigin } from './cross-origin.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
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
/** A hit template with a conversion button. */
const CONVERSION_TEMPLATE = `<template>
  <span data-text="name"></span> <button type="button" data-svc-conversion="Added to cart">Add</button>
</template>`;
/**
 * A routed state: laptops of two brands (OR refinements: a facet query more in the same request), page 2 of 3 hits
 * (the first hit painted is the 4th), and values the store drops (a page that is no number, a numeric refinement
 * without a number, an unknown key).
 */
const ROUTED_STATE =
  '?q=laptop&refinementList%5Bbrand%5D=Acme&refinementList%5Bbrand%5D=Bolt&page=2&hitsPerPage=3&page=two&numeric%5Bprice%5D=%3E%3Dcheap&utm_source=mail';
/** A page of the six mission elements whose root carries `attributes`. */
const rootWith = (attributes: string, elements = SIX_ELEMENTS) =>
  loaderPage(elements).replace('<svc-search ', `<svc-search ${attributes} `);

function newestSourceTime(dir = join(root, 'src')): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function ensureBundle(): void {
  const bundle = join(root, 'dist/svc-search.js');
  const stale = !existsSync(bundle) || statSync(bundle).mtimeMs < newestSourceTime();
  if (!stale && !process.env.SVC_E2E_REBUILD) return;
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'loader', '--logLevel', 'error'],
    { cwd: root, encoding: 'utf8' },
  );
  assert.equal(result.status, 0, `vite build failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * `<svc-hits>`' shadow root as markup without comments (Lit's markers), the text of its stylesheets, and each hit's
 * box within the element (a takeover that moved the layout would show here; the elements above it appear meanwhile).
 */
const SHADOW_STATE = `(() => {
  const root = document.querySelector('svc-hits').shadowRoot;
  if (!root) return null;
  return {
    markup: root.innerHTML.replace(/<!--[^]*?-->/g, ''),
    styles: root.adoptedStyleSheets.map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join('\\n')),
    highlights: [...root.querySelectorAll('svc-highlight, svc-snippet')].map((element) => ({
      markup: element.shadowRoot?.innerHTML.replace(/<!--[^]*?-->/g, ''),
      styles: element.shadowRoot?.adoptedStyleSheets.map((sheet) =>
        [...sheet.cssRules].map((rule) => rule.cssText).join('\\n'),
      ),
    })),
    boxes: [...root.querySelectorAll('li')].map((li) => {
      const host = root.host.getBoundingClientRect();
      const box = li.getBoundingClientRect();
      return [box.x - host.x, box.y - host.y, box.width, box.height].join();
    }),
  };
})()`;
type ShadowState = {
  markup: string;
  styles: string[];
  highlights: Array<{ markup?: string; styles?: string[] }>;
  boxes: string[];
};

describe('first paint without Lit (loader build, cross-origin, Chromium)', () => {
  let site: CrossOrigin;
  /** A host that accepts requests and never answers them. */
  let silent: Server;
  const silentSockets = new Set<Socket>();
  /** The paths the open tab requested, and the release of the held chunks. */
  const requested: string[] = [];
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  /** `<svc-hits>`' chunk: released with the others, or on its own (`open(path, { holdHits: true })`). */
  let releaseHits: () => void = () => undefined;
  let heldHits = Promise.resolve();

  /**
   * Opens `path` with every element chunk held until `release()` (`<svc-hits>`' until `releaseHits()` with
   * `holdHits`).
   */
  async function open(
    path: string,
    options: { holdHits?: boolean } = {},
  ): Promise<{
    tab: Page;
    searches: () => number;
    /** The multi-search bodies the tab sent, and the Insights events. */
    bodies: Array<{ requests: Array<{ indexName: string; params: string }> }>;
    events: Array<Record<string, unknown>>;
    close: () => Promise<void>;
  }> {
    held = new Promise((resolve) => {
      release = resolve;
    });
    heldHits = options.holdHits
      ? new Promise((resolve) => {
          releaseHits = resolve;
        })
      : held;
    requested.length = 0;
    const context = await site.browser.newContext();
    const tab = await context.newPage();
    // Counted from the tab, not from the server: a request of the previous test's page could reach the server
    // after this reset, and count as this page's (one CI run saw the silent page's chunks "requested" at 0 ms).
    tab.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const bodies: Array<{ requests: Array<{ indexName: string; params: string }> }> = [];
    const events: Array<Record<string, unknown>> = [];
    tab.on('request', (request) => {
      if (request.url().includes('/1/indexes/*/queries')) bodies.push(JSON.parse(request.postData() ?? '{}'));
      if (request.url().includes('/1/events')) events.push(...(JSON.parse(request.postData() ?? '{}').events ?? []));
    });
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    const start = site.requests.length;
    await tab.goto(site.pageOrigin + path);
    const searches = () =>
      site.requests
        .slice(start)
        .filter((request) => request.method === 'POST' && request.url.startsWith('/1/indexes/*/queries')).length;
    return {
      tab,
      searches,
      bodies,
      events,
      close: async () => {
        release();
        releaseHits();
        await context.close();
        assert.deepEqual(errors, [], 'no page error');
      },
    };
  }

  const chunksRequested = () => requested.filter((path) => path.startsWith('/dist/chunks/'));
  const waitForChunkRequest = async () => {
    for (let i = 0; i < 500 && !chunksRequested().length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(chunksRequested().length, 'a chunk was requested');
  };
  const upgraded = (tab: Page) =>
    tab.waitForFunction(
      `customElements.get('svc-hits') && customElements.get('svc-search') &&
       !document.querySelector('svc-hits').shadowRoot[Symbol.for('svc-search.prepaint')] &&
       document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-object-id]')`,
    );

  before(async () => {
    ensureBundle();
    silent = createServer(() => undefined);
    silent.on('connection', (socket) => silentSockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentHost = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    site = await startCrossOrigin({
      dist: join(root, 'dist'),
      pages: {
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
        '/consent-denied': rootWith('insights-consent="false"'),
        '/cookie': rootWith('insights-cookie'),
        '/user-token': rootWith('insights-user-token="user-42"'),
        '/insights-off': rootWith('insights="false"'),
        '/conversion': loaderPage(`<svc-hits>${CONVERSION_TEMPLATE}</svc-hits>`),
        '/silent': loaderPage('<svc-hits></svc-hits>').replace('{{service}}', silentHost),
      },
      beforeServe(path) {
        if (/^\/dist\/chunks\/hits-[\w-]{6}\.js$/.test(path)) return heldHits;
        return path.startsWith('/dist/chunks/') ? held : undefined;
      },
    });
    await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(40));
    const hostile = catalogue(3).map((product, i) => (i === 0 ? { ...product, name: HOSTILE_NAME } : product));
    await indexProducts(site.admin, HOSTILE_INDEX, hostile);
  });

  after(async () => {
    release();
    releaseHits();
    await site?.close();
    for (const socket of silentSockets) socket.destroy();
    silent?.close();
  });

  for (const [name, path] of [
    ['the default rendering', '/six'],
    ['a <template> child', '/template'],
  ] as const) {
    test(`the painted hits equal <svc-hits>’ own render of the same answer; the page makes one search: ${name}`, async () => {
      const page = await open(path);
      try {
        await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
        const painted = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
        assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, 'painted before Lit');
        assert.match(
          painted.markup,
          /<li part="item" data-svc-object-id="[^"]+" data-svc-position="1" data-svc-query-id="[0-9a-f]+"/,
        );
        if (path === '/template') {
          // The template filled: its style once, a link, an attribute, a formatted price, highlights painted.
          assert.match(painted.markup, /^<style>\.price \{ font-weight: 600 \}<\/style><div role="status"/);
          assert.match(
            painted.markup,
            /<a part="link" data-href="objectID" data-attr-title="name" href="p\d+" title="[^"]+"><svc-highlight attribute="name">/,
          );
          assert.match(painted.markup, /<img data-attr-alt="name" width="1" height="1" alt="[^"]+">/);
          assert.match(painted.markup, /<span class="price" data-text="price" data-currency="USD">\$\d+\.00<\/span>/);
          assert.equal(painted.highlights.length, 2 * 20, 'a highlight and a snippet per hit');
          assert.ok(
            painted.highlights.every((highlight) => highlight.markup),
            'each painted with its text',
          );
        }
        release();
        await upgraded(page.tab);
        await page.tab.evaluate(
          `Promise.all([...document.querySelector('svc-hits').shadowRoot.querySelectorAll('svc-highlight, svc-snippet')].map((element) => element.updateComplete))`,
        );
        const rendered = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
        assert.equal(rendered.markup, painted.markup);
        assert.deepEqual(rendered.styles, painted.styles);
        assert.deepEqual(rendered.highlights, painted.highlights, 'highlights and snippets as painted');
        assert.deepEqual(rendered.boxes, painted.boxes, 'every hit where it was painted');
        // Insights loads after the first results: wait for it, then count the searches of the load.
        await page.tab.waitForFunction(
          `performance.getEntriesByType('resource').some((e) => e.name.includes('/chunks/insights-'))`,
        );
        assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
      } finally {
        await page.close();
      }
    });
  }

  test("a record's markup is text in the painted hits", async () => {
    const page = await open('/hostile');
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
      const found = (await page.tab.evaluate(`(() => {
        const root = document.querySelector('svc-hits').shadowRoot;
        return {
          texts: [...root.querySelectorAll('li')].map((li) => li.textContent),
          elements: [...root.querySelectorAll('li *')].map((element) => element.localName),
          pwned: window.__pwned ?? null,
        };
      })()`)) as { texts: string[]; elements: string[]; pwned: unknown };
      assert.ok(found.texts.includes(HOSTILE_NAME), `the name as text: ${found.texts}`);
      assert.deepEqual(found.elements, [], 'no element made of record values');
      assert.equal(found.pwned, null);
    } finally {
      await page.close();
    }
  });

  test("a record's markup is text in hits painted from a <template>: text, highlight, link, attribute", async () => {
    const page = await open('/hostile-template');
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
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
    } finally {
      await page.close();
    }
  });

  test('a click on a painted hit before the elements exist is sent to Insights with its queryID and position', async () => {
    const page = await open('/six');
    const events: Array<Record<string, unknown>> = [];
    page.tab.on('request', (request) => {
      if (request.url().includes('/1/events')) events.push(...(JSON.parse(request.postData() ?? '{}').events ?? []));
    });
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
      const second = (await page.tab.evaluate(`(() => {
        const li = document.querySelector('svc-hits').shadowRoot.querySelectorAll('li')[1];
        return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
      })()`)) as { objectID: string; queryID: string };
      await page.tab.click('svc-hits li[data-svc-position="2"]');
      release();
      await upgraded(page.tab);
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      const click = events.find((event) => event.eventType === 'click');
      assert.ok(click, `a click event among ${JSON.stringify(events)}`);
      assert.deepEqual(click.objectIDs, [second.objectID]);
      assert.deepEqual(click.positions, [2]);
      assert.equal(click.queryID, second.queryID);
    } finally {
      await page.close();
    }
  });

  test('a store asking something else than the script searches itself, and shows its answer', async () => {
    const page = await open('/six');
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
      await page.tab.evaluate(
        `document.querySelector('svc-search').insertAdjacentHTML('beforeend', '<svc-refinement-list attribute="color"></svc-refinement-list>')`,
      );
      release();
      await upgraded(page.tab);
      await page.tab.waitForFunction(
        `[...document.querySelectorAll('svc-refinement-list')].every((list) => list.shadowRoot?.querySelector('[part~=checkbox]'))`,
      );
      assert.equal(page.searches(), 2, 'the script’s search, then the store’s own');
    } finally {
      await page.close();
    }
  });

  for (const [name, path] of [
    ['a <template> holding a custom element it does not know', '/unknown-element'],
  ] as const) {
    test(`not painted: ${name} (the chunks are requested at once, nothing painted before them)`, async () => {
      const page = await open(path);
      try {
        await waitForChunkRequest();
        assert.equal(await page.tab.evaluate(`document.querySelector('svc-hits').shadowRoot`), null);
        release();
        await page.tab.waitForFunction(
          `document.querySelector('svc-hits').shadowRoot?.querySelector('li[data-svc-object-id]')`,
        );
        assert.equal(page.searches(), 1);
      } finally {
        await page.close();
      }
    });
  }

  type Opened = Awaited<ReturnType<typeof open>>;

  /**
   * Waits for the painted hits (before Lit), releases the chunks, waits for `<svc-hits>`' own render and checks it
   * equals the painted one (markup, stylesheets, boxes). Returns the painted state.
   */
  async function paintedThenRendered(page: Opened, act?: () => Promise<void>): Promise<ShadowState> {
    await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
    const painted = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
    assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, 'painted before Lit');
    await act?.();
    release();
    await upgraded(page.tab);
    const rendered = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
    assert.equal(rendered.markup, painted.markup, 'the element renders what was painted');
    assert.deepEqual(rendered.styles, painted.styles);
    assert.deepEqual(rendered.boxes, painted.boxes);
    return painted;
  }

  /** The parameters of each query of the page's first search request. */
  const firstSearchParams = (page: Opened) =>
    page.bodies[0]!.requests.map((request) => Object.fromEntries(new URLSearchParams(request.params)));

  /** Waits until the Insights chunk was loaded (it loads after the first results): the load's searches are done. */
  const insightsLoaded = (page: Opened) =>
    page.tab.waitForFunction(
      `performance.getEntriesByType('resource').some((e) => e.name.includes('/chunks/insights-'))`,
    );

  test('a routed URL state is painted: the state the store reads, one search, the store adopts it', async () => {
    const page = await open(`/routed${ROUTED_STATE}`);
    try {
      const painted = await paintedThenRendered(page);
      // Page 2 of 3 hits: one hit left (4 laptops of Acme or Bolt among 40 products), the 4th.
      const items = [
        ...painted.markup.matchAll(/<li part="item" data-svc-object-id="(p\d+)" data-svc-position="(\d+)"/g),
      ];
      assert.deepEqual(
        items.map((item) => item[2]),
        ['4'],
        painted.markup,
      );
      assert.ok(['p0', 'p4', 'p20', 'p24'].includes(items[0]![1]!), `a laptop of Acme or Bolt: ${items[0]![1]}`);
      const [main, brandCounts] = firstSearchParams(page);
      assert.equal(main!.query, 'laptop');
      assert.equal(main!.page, '1');
      assert.equal(main!.hitsPerPage, '3');
      assert.deepEqual(JSON.parse(main!.facetFilters!), [['brand:Acme', 'brand:Bolt']]);
      assert.equal(main!.numericFilters, undefined, 'the numeric refinement without a number is dropped');
      assert.equal(brandCounts!.facets, '["brand"]', "the OR facet's own counts query, in the same request");
      const state = (await page.tab.evaluate(`document.querySelector('svc-search').store.getSnapshot().state`)) as {
        query: string;
        page: number;
        hitsPerPage: number;
        disjunctiveFacetRefinements: Record<string, string[]>;
        numericRefinements: Record<string, unknown>;
      };
      assert.deepEqual(
        {
          query: state.query,
          page: state.page,
          hitsPerPage: state.hitsPerPage,
          disjunctive: state.disjunctiveFacetRefinements,
          numeric: state.numericRefinements,
        },
        { query: 'laptop', page: 1, hitsPerPage: 3, disjunctive: { brand: ['Acme', 'Bolt'] }, numeric: {} },
      );
      await insightsLoaded(page);
      assert.equal(page.searches(), 1, 'one search: the store adopted the routed answer');
    } finally {
      await page.close();
    }
  });

  test("a routed hostile query stays text: in the request, in the painted hit's highlight", async () => {
    const page = await open(`/routed-hostile?q=${encodeURIComponent(HOSTILE_NAME)}`);
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
      const found = (await page.tab.evaluate(`(() => {
        const root = document.querySelector('svc-hits').shadowRoot;
        return {
          texts: [...root.querySelectorAll('li')].map((li) => li.textContent),
          elements: [...new Set([...root.querySelectorAll('li *')].map((element) => element.localName))],
          pwned: window.__pwned ?? null,
        };
      })()`)) as { texts: string[]; elements: string[]; pwned: unknown };
      assert.equal(firstSearchParams(page)[0]!.query, HOSTILE_NAME);
      assert.ok(found.texts.includes(HOSTILE_NAME), `the name as text: ${found.texts}`);
      assert.deepEqual(found.elements, ['mark'], 'the query words highlighted, no element made of the query');
      release();
      await upgraded(page.tab);
      await insightsLoaded(page);
      assert.equal(await page.tab.evaluate(`window.__pwned ?? null`), null);
      assert.equal(found.pwned, null);
      assert.equal(page.searches(), 1);
    } finally {
      await page.close();
    }
  });

  const TOKEN_COOKIE = /(?:^|; )_svc_insights_token=([^;]*)/;
  const kept = (tab: Page) =>
    tab.evaluate(`({ cookie: document.cookie, stored: localStorage.getItem('svc-insights-user-token') })`) as Promise<{
      cookie: string;
      stored: string | null;
    }>;

  test('insights-consent="false": painted, no Insights parameter, no cookie nor token, no event for a click', async () => {
    const page = await open('/consent-denied');
    try {
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        assert.equal(main!.clickAnalytics, undefined);
        assert.equal(main!.userToken, undefined);
        assert.deepEqual(await kept(page.tab), { cookie: '', stored: null }, 'nothing kept before consent');
        await page.tab.click('svc-hits li[data-svc-position="2"]');
      });
      await page.tab.click('svc-hits li[data-svc-position="3"]');
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      assert.deepEqual(page.events, [], 'no event without consent');
      assert.deepEqual(await kept(page.tab), { cookie: '', stored: null });
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    } finally {
      await page.close();
    }
  });

  test('consent granted after the paint, before the takeover: the click made before it is not sent, the one after it is; the store searches with a token', async () => {
    const page = await open('/consent-denied');
    try {
      await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
      const [before, after] = await Promise.all([2, 3].map((position) => hitAt(page, position)));
      await page.tab.click('svc-hits li[data-svc-position="2"]');
      // A consent banner answers before the elements are loaded.
      await page.tab.evaluate(`document.querySelector('svc-search').setAttribute('insights-consent', 'granted')`);
      await page.tab.click('svc-hits li[data-svc-position="3"]');
      release();
      await upgraded(page.tab);
      // The script's search asked no queryID: the store, now with a token, asks its own (awaited, then settled).
      for (let i = 0; i < 500 && page.bodies.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      await page.tab.waitForFunction(`document.querySelector('svc-search').store.getSnapshot().status === 'idle'`);
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      assert.deepEqual(eventsOf(page, before.objectID), [], 'the click made before consent is not sent');
      // Painted from a search that asked no queryID: sent as Insights sends a click on such a hit, without one.
      assert.equal(after.queryID, '');
      assert.deepEqual(
        eventsOf(page, after.objectID),
        [
          {
            eventType: 'click',
            eventName: 'Hit Clicked',
            index: FIRST_PAINT_INDEX,
            objectIDs: [after.objectID],
            positions: [3],
          },
        ],
        'the click made after consent is sent once',
      );
      assert.equal(page.searches(), 2);
      const [, second] = page.bodies.map((body) => Object.fromEntries(new URLSearchParams(body.requests[0]!.params)));
      assert.equal(second!.clickAnalytics, 'true');
      assert.match(second!.userToken ?? '', /^anonymous-/);
    } finally {
      await page.close();
    }
  });

  test("insights-cookie: painted; the search carries the cookie's token, the store keeps it", async () => {
    const page = await open('/cookie');
    try {
      let token = '';
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        const { cookie, stored } = await kept(page.tab);
        token = decodeURIComponent(TOKEN_COOKIE.exec(cookie)?.[1] ?? '');
        assert.match(token, /^anonymous-/, `the token in the cookie: ${cookie}`);
        assert.equal(stored, null, 'not in local storage');
        assert.equal(main!.clickAnalytics, 'true');
        assert.equal(main!.userToken, token);
      });
      await insightsLoaded(page);
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insights.userToken`), token);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    } finally {
      await page.close();
    }
  });

  test('insights-user-token: the search and a click made before the takeover carry it', async () => {
    const page = await open('/user-token');
    try {
      let second: { objectID?: string; queryID?: string } = {};
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        assert.equal(main!.clickAnalytics, 'true');
        assert.equal(main!.userToken, 'user-42');
        second = (await page.tab.evaluate(`(() => {
          const li = document.querySelector('svc-hits').shadowRoot.querySelectorAll('li')[1];
          return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
        })()`)) as typeof second;
        await page.tab.click('svc-hits li[data-svc-position="2"]');
      });
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      const click = page.events.find((event) => event.eventType === 'click');
      assert.ok(click, `a click event among ${JSON.stringify(page.events)}`);
      assert.equal(click.userToken, 'user-42');
      assert.deepEqual(click.objectIDs, [second.objectID]);
      assert.equal(click.queryID, second.queryID);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    } finally {
      await page.close();
    }
  });

  test('insights="false": painted, no Insights parameter, nothing kept, no event', async () => {
    const page = await open('/insights-off');
    try {
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        assert.equal(main!.clickAnalytics, undefined);
        assert.equal(main!.userToken, undefined);
        await page.tab.click('svc-hits li[data-svc-position="2"]');
      });
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insights`), undefined);
      // The last element to render: every element is there, and the store has decided its first search.
      await page.tab.waitForFunction(
        `document.querySelector('svc-pagination').shadowRoot?.querySelector('[part~=list]') && document.querySelector('svc-search').store.getSnapshot().status === 'idle'`,
      );
      assert.deepEqual(await kept(page.tab), { cookie: '', stored: null });
      assert.deepEqual(page.events, []);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    } finally {
      await page.close();
    }
  });

  test('a click on a painted data-svc-conversion button is the conversion the element sends after the takeover', async () => {
    const page = await open('/conversion');
    try {
      const hitOf = (position: number) =>
        page.tab.evaluate(`(() => {
          const li = document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-position="${position}"]');
          return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
        })()`) as Promise<{ objectID: string; queryID: string }>;
      let before = { objectID: '', queryID: '' };
      await paintedThenRendered(page, async () => {
        before = await hitOf(2);
        await page.tab.click('svc-hits li[data-svc-position="2"] button');
      });
      const after = await hitOf(3);
      await page.tab.click('svc-hits li[data-svc-position="3"] button');
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      const shape = (event: Record<string, unknown>) => {
        const { timestamp: _t, userToken: _u, ...rest } = event;
        return rest;
      };
      const expected = (hit: { objectID: string; queryID: string }) => ({
        eventType: 'conversion',
        eventName: 'Added to cart',
        index: FIRST_PAINT_INDEX,
        queryID: hit.queryID,
        objectIDs: [hit.objectID],
      });
      const byObject = (objectID: string) =>
        // Views of the hits are sent too, in an order of their own: the hit's click or conversion is looked for.
        page.events.find(
          (event) => event.eventType !== 'view' && (event.objectIDs as string[] | undefined)?.includes(objectID),
        );
      assert.deepEqual(shape(byObject(before.objectID) ?? {}), expected(before), JSON.stringify(page.events));
      assert.deepEqual(shape(byObject(after.objectID) ?? {}), expected(after), 'the same after the takeover');
      assert.ok(!page.events.some((event) => event.eventType === 'click'), 'no click event for a conversion');
    } finally {
      await page.close();
    }
  });

  /** The root's chunk among the loader's preload links (the batch's files are requested at once). */
  const SEARCH_CHUNK = `[...document.querySelectorAll('link[rel=modulepreload]')].find((link) =>
    /\\/chunks\\/search-[\\w-]{6}\\.js$/.test(link.href))`;
  const STILL_PAINTED = `Boolean(document.querySelector('svc-hits').shadowRoot?.[Symbol.for('svc-search.prepaint')])`;

  /**
   * Opens the window between Insights and the takeover for as long as the test needs: with `<svc-hits>`' chunk held
   * (`open(path, { holdHits: true })`), the other chunks are released and the page imports the root's chunk itself,
   * as a page that defines `<svc-search>` before `<svc-hits>` would (the loader's batch still waits for the hits'
   * chunk). Resolves once the root has made its Insights, with the painted list still there.
   */
  async function insightsBeforeTakeover(page: Opened): Promise<void> {
    await page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);
    await page.tab.waitForFunction(SEARCH_CHUNK);
    release();
    await page.tab.evaluate(`import(${SEARCH_CHUNK}.href).then(() => true)`);
    await page.tab.waitForFunction(`document.querySelector('svc-search').insights && ${STILL_PAINTED}`);
    assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, '<svc-hits> not defined yet');
  }

  /** objectID and queryID of the painted (or rendered) hit at `position`. */
  const hitAt = (page: Opened, position: number) =>
    page.tab.evaluate(`(() => {
      const li = document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-position="${position}"]');
      return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
    })()`) as Promise<{ objectID: string; queryID: string }>;

  /** The events of `objectID` but views (sent too, in an order of their own), without their time and token. */
  const eventsOf = (page: Opened, objectID: string) =>
    page.events
      .filter((event) => event.eventType !== 'view' && (event.objectIDs as string[] | undefined)?.includes(objectID))
      .map(({ timestamp: _t, userToken: _u, ...rest }) => rest);

  test('clicks on painted hits after Insights exists and before the takeover: each sent once; the recorder goes at the takeover', async () => {
    const page = await open('/conversion', { holdHits: true });
    try {
      await insightsBeforeTakeover(page);
      const [clicked, middle, converted, kept] = await Promise.all(
        [2, 3, 4, 5].map((position) => hitAt(page, position)),
      );
      await page.tab.click('svc-hits li[data-svc-position="2"] span');
      await page.tab.click('svc-hits li[data-svc-position="3"] span', { button: 'middle' });
      await page.tab.click('svc-hits li[data-svc-position="4"] button');
      assert.ok(await page.tab.evaluate(STILL_PAINTED), 'the clicks landed on the painted list');
      // A painted hit kept by reference: put back after the takeover, a click on it reaches no recorder.
      await page.tab.evaluate(
        `window.__paintedHit = document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-position="5"]')`,
      );
      releaseHits();
      await upgraded(page.tab);
      await page.tab.evaluate(`(() => {
        const list = document.querySelector('svc-hits').shadowRoot.querySelector('ol');
        list.append(window.__paintedHit);
        window.__paintedHit.click();
        window.__paintedHit.remove();
      })()`);
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      const click = (hit: { objectID: string; queryID: string }, position: number) => ({
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: FIRST_PAINT_INDEX,
        queryID: hit.queryID,
        objectIDs: [hit.objectID],
        positions: [position],
      });
      assert.match(clicked.queryID, /^[0-9a-f]{32}$/, 'the painted hits carry the search’s queryID');
      assert.deepEqual(eventsOf(page, clicked.objectID), [click(clicked, 2)], JSON.stringify(page.events));
      assert.deepEqual(eventsOf(page, middle.objectID), [click(middle, 3)], 'a middle click: auxclick');
      assert.deepEqual(eventsOf(page, converted.objectID), [
        {
          eventType: 'conversion',
          eventName: 'Added to cart',
          index: FIRST_PAINT_INDEX,
          queryID: converted.queryID,
          objectIDs: [converted.objectID],
        },
      ]);
      assert.deepEqual(eventsOf(page, kept.objectID), [], 'no recorder after the takeover');
    } finally {
      await page.close();
    }
  });

  test('a second Insights made before the takeover (insights-cookie set) takes the later clicks: each sent once', async () => {
    const page = await open('/conversion', { holdHits: true });
    try {
      await insightsBeforeTakeover(page);
      const [first, second] = await Promise.all([2, 3].map((position) => hitAt(page, position)));
      await page.tab.click('svc-hits li[data-svc-position="2"] span');
      await page.tab.evaluate(`(() => {
        window.__firstInsights = document.querySelector('svc-search').insights;
        document.querySelector('svc-search').setAttribute('insights-cookie', '');
      })()`);
      await page.tab.waitForFunction(
        `document.querySelector('svc-search').insights && document.querySelector('svc-search').insights !== window.__firstInsights`,
      );
      await page.tab.click('svc-hits li[data-svc-position="3"] span');
      assert.ok(await page.tab.evaluate(STILL_PAINTED), 'the clicks landed on the painted list');
      releaseHits();
      await upgraded(page.tab);
      // The first Insights' click, if not sent yet, was left in the stored queue at its disposal: the second sends it.
      await page.tab.evaluate(`document.querySelector('svc-search').insights.flush()`);
      assert.equal(eventsOf(page, first.objectID).length, 1, JSON.stringify(page.events));
      assert.deepEqual(eventsOf(page, second.objectID), [
        {
          eventType: 'click',
          eventName: 'Hit Clicked',
          index: FIRST_PAINT_INDEX,
          queryID: second.queryID,
          objectIDs: [second.objectID],
          positions: [3],
        },
      ]);
    } finally {
      await page.close();
    }
  });

  test('a host that never answers holds the elements back no longer than the client’s first attempt', async () => {
    const page = await open('/silent');
    try {
      const started = Date.now();
      // Without a bound on the script's search the chunks would never be requested: 15 s is twice the bound.
      for (let i = 0; i < 750 && !chunksRequested().length; i++) await new Promise((r) => setTimeout(r, 20));
      const waited = Date.now() - started;
      assert.ok(chunksRequested().length, 'the element chunks were requested');
      assert.ok(waited >= 6_000, `the script waited for its search (${waited} ms)`);
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-hits').shadowRoot`), null, 'nothing painted');
    } finally {
      await page.close();
    }
  });
});
