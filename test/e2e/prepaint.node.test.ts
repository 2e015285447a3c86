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
 * - A click on a painted hit before the elements exist reaches Insights with its queryID and position.
 * - A page whose store asks something else than the script did (an element added meanwhile): the store searches
 *   itself, and the page shows its answer.
 * - Not painted (the chunks requested at once, nothing in `<svc-hits>` before they run): a `<template>` holding a
 *   custom element it does not know, a state in the URL with `routing`.
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

  /** Opens `path` with every element chunk held until `release()`. */
  async function open(path: string): Promise<{ tab: Page; searches: () => number; close: () => Promise<void> }> {
    held = new Promise((resolve) => {
      release = resolve;
    });
    requested.length = 0;
    const context = await site.browser.newContext();
    const tab = await context.newPage();
    // Counted from the tab, not from the server: a request of the previous test's page could reach the server
    // after this reset, and count as this page's (one CI run saw the silent page's chunks "requested" at 0 ms).
    tab.on('request', (request) => requested.push(new URL(request.url()).pathname));
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
      close: async () => {
        release();
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
        '/routed': loaderPage('<svc-hits></svc-hits>').replace('<svc-search ', '<svc-search routing '),
        '/silent': loaderPage('<svc-hits></svc-hits>').replace('{{service}}', silentHost),
      },
      beforeServe(path) {
        return path.startsWith('/dist/chunks/') ? held : undefined;
      },
    });
    await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(40));
    const hostile = catalogue(3).map((product, i) => (i === 0 ? { ...product, name: HOSTILE_NAME } : product));
    await indexProducts(site.admin, HOSTILE_INDEX, hostile);
  });

  after(async () => {
    release();
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
    ['a state in the URL with routing', '/routed?query=acme'],
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
