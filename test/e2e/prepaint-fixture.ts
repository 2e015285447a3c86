/**
 * The page server of the first-paint tests (`prepaint-paint.node.test.ts`, `prepaint-insights.node.test.ts`): the
 * loader built from the sources (`vite build --mode loader` when older than them; `SVC_E2E_REBUILD=1` forces it),
 * served on another origin than the service, with every element chunk held until the test releases it — so the
 * state painted by the script alone is observed for as long as needed, and the takeover after it; nothing is raced.
 * Also the steps the tests share: open a page, wait for its paint, wait for the takeover, close it.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { type Product, catalogue, indexProducts } from '../client/fixture.js';
import { FIRST_PAINT_INDEX, SIX_ELEMENTS, loaderPage } from '../size/pages.js';
import { type CrossOrigin, startCrossOrigin } from './cross-origin.js';
import { ensureLoaderBuilt } from './loader-build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A page of the six mission elements whose root carries `attributes`. */
export const rootWith = (attributes: string, elements = SIX_ELEMENTS) =>
  loaderPage(elements).replace('<svc-search ', `<svc-search ${attributes} `);

/**
 * `<svc-hits>`' shadow root as markup without comments (Lit's markers), the text of its stylesheets, and each hit's
 * box within the element (a takeover that moved the layout would show here; the elements above it appear meanwhile).
 */
export const SHADOW_STATE = `(() => {
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
export type ShadowState = {
  markup: string;
  styles: string[];
  highlights: Array<{ markup?: string; styles?: string[] }>;
  boxes: string[];
};

/** A page the site opened, with its chunks held. */
export interface OpenedPage {
  tab: Page;
  /** How many search requests the service received from the page. */
  searches: () => number;
  /** The multi-search bodies the tab sent, and the Insights events. */
  bodies: Array<{ requests: Array<{ indexName: string; params: string }> }>;
  events: Array<Record<string, unknown>>;
  /** Releases every held chunk (`<svc-hits>`' too, unless it is held on its own: `holdHits`). */
  release: () => void;
  /** Releases `<svc-hits>`' chunk. */
  releaseHits: () => void;
  /** The element chunks the tab requested so far. */
  chunksRequested: () => string[];
  /** Releases everything, closes the tab's context and asserts that the page threw no error. */
  close: () => Promise<void>;
}

export interface PrepaintSite {
  site: CrossOrigin;
  /**
   * Opens `path` with every element chunk held until `page.release()` (`<svc-hits>`' until `page.releaseHits()` with
   * `holdHits`).
   */
  open(path: string, options?: { holdHits?: boolean }): Promise<OpenedPage>;
  close(): Promise<void>;
}

/**
 * Builds the loader if needed, serves `pages` (placeholders as `loaderPage` leaves them) cross-origin with the
 * element chunks held, and indexes 40 products in the first-paint index, and `extraIndices` as given.
 *
 * @example
 * const prepaint = await startPrepaintSite({ '/six': loaderPage(SIX_ELEMENTS) });
 * await withPage(prepaint, '/six', async (page) => { await painted(page); page.release(); await upgraded(page.tab); });
 */
export async function startPrepaintSite(
  pages: Record<string, string>,
  extraIndices: Record<string, Product[]> = {},
): Promise<PrepaintSite> {
  ensureLoaderBuilt();
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  /** `<svc-hits>`' chunk: released with the others, or on its own (`open(path, { holdHits: true })`). */
  let releaseHits: () => void = () => undefined;
  let heldHits = Promise.resolve();
  const site = await startCrossOrigin({
    dist: join(root, 'dist'),
    pages,
    beforeServe(path) {
      if (/^\/dist\/chunks\/hits-[\w-]{6}\.js$/.test(path)) return heldHits;
      return path.startsWith('/dist/chunks/') ? held : undefined;
    },
  });
  await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(40));
  for (const [name, records] of Object.entries(extraIndices)) await indexProducts(site.admin, name, records);

  async function open(path: string, options: { holdHits?: boolean } = {}): Promise<OpenedPage> {
    held = new Promise((resolve) => {
      release = resolve;
    });
    heldHits = options.holdHits
      ? new Promise((resolve) => {
          releaseHits = resolve;
        })
      : held;
    const context = await site.browser.newContext();
    const tab = await context.newPage();
    // Counted from the tab, not from the server: a request of the previous test's page could reach the server
    // after this page opened, and count as this page's (one CI run saw the silent page's chunks "requested" at 0 ms).
    const requested: string[] = [];
    tab.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const bodies: OpenedPage['bodies'] = [];
    const events: OpenedPage['events'] = [];
    tab.on('request', (request) => {
      if (request.url().includes('/1/indexes/*/queries')) bodies.push(JSON.parse(request.postData() ?? '{}'));
      if (request.url().includes('/1/events')) events.push(...(JSON.parse(request.postData() ?? '{}').events ?? []));
    });
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    const start = site.requests.length;
    await tab.goto(site.pageOrigin + path);
    return {
      tab,
      searches: () =>
        site.requests
          .slice(start)
          .filter((request) => request.method === 'POST' && request.url.startsWith('/1/indexes/*/queries')).length,
      bodies,
      events,
      release: () => release(),
      releaseHits: () => releaseHits(),
      chunksRequested: () => requested.filter((requestedPath) => requestedPath.startsWith('/dist/chunks/')),
      close: async () => {
        release();
        releaseHits();
        await context.close();
        assert.deepEqual(errors, [], 'no page error');
      },
    };
  }

  return {
    site,
    open,
    close: async () => {
      release();
      releaseHits();
      await site.close();
    },
  };
}

/**
 * Opens `path`, runs `body` with the page, and closes it whatever happens (asserting the page threw no error).
 *
 * @example
 * await withPage(prepaint, '/six', async (page) => assert.equal(page.searches(), 1));
 */
export async function withPage(
  prepaint: PrepaintSite,
  path: string,
  body: (page: OpenedPage) => Promise<void>,
  options: { holdHits?: boolean } = {},
): Promise<void> {
  const page = await prepaint.open(path, options);
  try {
    await body(page);
  } finally {
    await page.close();
  }
}

/** Waits until the script painted the first hits in `<svc-hits>`' shadow root. */
export const painted = (page: OpenedPage) =>
  page.tab.waitForFunction(`document.querySelector('svc-hits').shadowRoot?.querySelector('li')`);

/** Waits until `<svc-hits>` and `<svc-search>` are defined and `<svc-hits>` rendered its own hits (the takeover). */
export const upgraded = (tab: Page) =>
  tab.waitForFunction(
    `customElements.get('svc-hits') && customElements.get('svc-search') &&
     !document.querySelector('svc-hits').shadowRoot[Symbol.for('svc-search.prepaint')] &&
     document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-object-id]')`,
  );

/** Waits (up to 10 s) until the tab requested an element chunk. */
export async function waitForChunkRequest(page: OpenedPage): Promise<void> {
  for (let i = 0; i < 500 && !page.chunksRequested().length; i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(page.chunksRequested().length, 'a chunk was requested');
}

/**
 * Waits for the painted hits (before Lit), runs `act`, releases the chunks, waits for `<svc-hits>`' own render and
 * checks it equals the painted one (markup, stylesheets, boxes). Returns the painted state.
 */
export async function paintedThenRendered(page: OpenedPage, act?: () => Promise<void>): Promise<ShadowState> {
  await painted(page);
  const state = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
  assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, 'painted before Lit');
  await act?.();
  page.release();
  await upgraded(page.tab);
  const rendered = (await page.tab.evaluate(SHADOW_STATE)) as ShadowState;
  assert.equal(rendered.markup, state.markup, 'the element renders what was painted');
  assert.deepEqual(rendered.styles, state.styles);
  assert.deepEqual(rendered.boxes, state.boxes);
  return state;
}

/** The parameters of each query of the page's first search request. */
export const firstSearchParams = (page: OpenedPage) =>
  page.bodies[0]!.requests.map((request) => Object.fromEntries(new URLSearchParams(request.params)));

/** Waits until the Insights chunk was loaded (it loads after the first results): the load's searches are done. */
export const insightsLoaded = (page: OpenedPage) =>
  page.tab.waitForFunction(
    `performance.getEntriesByType('resource').some((e) => e.name.includes('/chunks/insights-'))`,
  );
