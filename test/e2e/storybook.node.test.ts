/**
 * `npm start` really serves the catalogue: `scripts/start.ts` on a free port with a fresh data directory,
 * then, in real Chromium against the local service mounted on the same origin:
 * - every story of Storybook's `index.json` renders (`iframe.html?id=…&viewMode=story`) without page errors
 *   or console errors, every `svc-` element in it (across shadow roots) is defined and shows real content of
 *   the demo catalogue (items in lists, values in facets, pages, counts; the stories that show an empty state
 *   on purpose are listed with it), and the product and home pages pass axe;
 * - the full-page shop story shows real hits, answers a query with a typo, and passes axe in light and dark.
 * One Storybook, one browser, one page for the stories. Stopped at the end (process group).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface StoryIndex {
  entries: Record<string, { id: string; type: 'story' | 'docs'; title: string }>;
}

/** Stories that show an empty state on purpose: the tags whose list stays empty (they show their message). */
const EMPTY_ON_PURPOSE: Record<string, string[]> = {
  'elements-hits--no-results': ['svc-hits', 'svc-pagination'],
  'elements-recommendations--empty': ['svc-recommendations'],
};

/**
 * Tags that may show nothing in a story: current refinements list only what was refined — only its own
 * stories start with refinements.
 */
const optionalIn = (id: string) => [
  ...(id.startsWith('elements-current-refinements--') ? [] : ['svc-current-refinements']),
  // Banners show only for the queries of a rule: their own stories (and the rule's order) open on "chairs".
  ...(id.startsWith('elements-query-rule-custom-data--') || id === 'elements-dynamic-widgets--rule-order'
    ? []
    : ['svc-query-rule-custom-data']),
];

/** Stories checked with axe, besides the shop (below, in light and dark). */
const AXE_STORIES = /^pages-(product-page|home-page)--/;

/**
 * What is wrong with the story on screen, as a list (empty once it has rendered): run in the page. Every `svc-`
 * element (across shadow roots) must be defined and show real content for its kind; the tags of
 * `empty` must show an empty state instead, those of `optional` may show nothing. A string, not a function:
 * the page gets it as written (a function would carry the test runner's transpiler helpers).
 */
const STORY_PROBLEMS = `({ empty, optional }) => {
  const problems = [];
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName.startsWith('svc-')) all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  const root = document.querySelector('#storybook-root');
  if (!root) return ['no #storybook-root'];
  if (document.body.classList.contains('sb-show-errordisplay')) return ['Storybook error: ' + document.querySelector('#error-message')?.textContent];
  walk(root);
  /** Text of a node including the shadow roots below it (a hit's svc-highlight renders in its own). */
  const deepText = (node) => {
    let out = node.nodeType === 3 ? node.nodeValue : '';
    if (node.localName === 'style' || node.localName === 'template') return '';
    if (node.shadowRoot) out += deepText(node.shadowRoot);
    for (const child of node.childNodes) out += deepText(child);
    return out;
  };
  const clean = (text) => text.replace(/\\s+/g, ' ').trim();
  const q = (el, selector) => [...(el.shadowRoot?.querySelectorAll(selector) ?? [])];
  const filled = (nodes) => nodes.filter((node) => clean(deepText(node)));
  if (!all.some((el) => el.localName !== 'svc-search' && el.localName !== 'svc-index')) problems.push('no svc- element rendered');
  for (const el of all) {
    const tag = el.localName;
    const id = el.id ? tag + '#' + el.id : tag;
    if (!customElements.get(tag)) { problems.push(id + ' not defined'); continue; }
    // Roots render only a slot; configure and the rule context show nothing.
    if (['svc-search', 'svc-index', 'svc-configure', 'svc-query-rule-context'].includes(tag) || optional.includes(tag)) continue;
    if (!el.shadowRoot) { problems.push(id + ' has no shadow root'); continue; }
    if (el.shadowRoot.querySelector('[part~="error"]:not([hidden])') && clean(deepText(el.shadowRoot.querySelector('[part~="error"]')))) problems.push(id + ' shows an error: ' + clean(deepText(el.shadowRoot.querySelector('[part~="error"]'))));
    const lists = ['svc-hits', 'svc-infinite-hits', 'svc-recommendations', 'svc-trending'];
    if (empty.includes(tag)) {
      const items = lists.includes(tag) ? q(el, 'li[part~="item"]') : q(el, 'a, li');
      if (items.length) problems.push(id + ' should be empty, has ' + items.length);
      if (lists.includes(tag) && !clean(deepText(el))) problems.push(id + ' shows no empty state');
      continue;
    }
    const need = (ok, what) => { if (!ok) problems.push(id + ': ' + what); };
    if (lists.includes(tag)) {
      const items = q(el, 'li[part~="item"]');
      need(items.length > 0, 'no items');
      need(filled(items).length === items.length, (items.length - filled(items).length) + ' of ' + items.length + ' items without text');
    } else if (tag === 'svc-refinement-list' || tag === 'svc-menu' || tag === 'svc-current-refinements') need(filled(q(el, 'li')).length > 0, 'no values');
    else if (tag === 'svc-pagination') need(q(el, 'a[part~="page"]').length > 1, 'fewer than two pages');
    else if (tag === 'svc-stats') need(/\\d/.test(deepText(el.shadowRoot)), 'no count');
    else if (tag === 'svc-highlight' || tag === 'svc-snippet') need(clean(deepText(el.shadowRoot)), 'no text');
    else if (tag === 'svc-search-box' || tag === 'svc-autocomplete') need(q(el, 'input').length === 1, 'no field');
    else if (tag === 'svc-sort-by' || tag === 'svc-hits-per-page') need(q(el, 'select option').length > 1, 'fewer than two options');
    else if (tag === 'svc-range-input') need(q(el, 'input').filter((input) => /\\d/.test(input.placeholder || input.value)).length === 2, 'no bounds');
    else if (tag === 'svc-clear-refinements') need(q(el, 'button').length === 1, 'no button');
    else if (tag === 'svc-dynamic-widgets') need(q(el, 'slot').some((slot) => slot.assignedElements().length), 'no facet shown');
    else if (tag === 'svc-range-slider') need(q(el, '[role="slider"]').filter((thumb) => /\\d/.test(thumb.getAttribute('aria-valuetext') || '')).length === 2, 'no bounds');
    else need(clean(deepText(el.shadowRoot)), 'nothing rendered');
  }
  return problems;
}`;

/** Polls the story's problems until there are none or `timeout` passes; returns the last ones. */
async function settle(
  page: Page,
  expected: { empty: string[]; optional: string[] },
  timeout: number,
): Promise<string[]> {
  const deadline = Date.now() + timeout;
  let problems: string[] = ['not checked'];
  while (Date.now() < deadline) {
    try {
      problems = (await page.evaluate(`(${STORY_PROBLEMS})(${JSON.stringify(expected)})`)) as string[];
      if (!problems.length) return problems;
    } catch (error) {
      problems = [`evaluate: ${(error as Error).message}`]; // a reload destroyed the context: try again
    }
    await page.waitForTimeout(200);
  }
  return problems;
}

/** The product page shows the product itself (name, brand, price) above its two recommendation lists. */
async function productPageProblems(page: Page): Promise<string[]> {
  const name = (
    await page
      .locator('#storybook-root h1')
      .first()
      .textContent({ timeout: 5_000 })
      .catch(() => null)
  )?.trim();
  const lists = await page.locator('svc-recommendations').count();
  return [...(name ? [] : ['no product name']), ...(lists === 2 ? [] : [`${lists} recommendation lists, not 2`])];
}

/** axe violations in `selector` (axe-core from node_modules, injected into the page). */
async function axe(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Element): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document.querySelector(selector)!);
    return result.violations.map((v) => `axe ${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }, selector);
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

describe('npm start (Storybook with the local service)', { timeout: 480_000 }, () => {
  let child: ChildProcess;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  let output = '';

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'svc-storybook-'));
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/start.ts', '--port', String(port), '--data-dir', dataDir],
      {
        cwd: root,
        detached: true, // its own process group, so Storybook's children stop with it
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 150_000;
    for (;;) {
      assert.ok(child.exitCode === null, `npm start exited (${child.exitCode}):\n${output}`);
      try {
        const response = await fetch(`${base}/index.json`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      assert.ok(Date.now() < deadline, `Storybook did not answer within 150 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new'],
    });
  });

  after(async () => {
    // A browser that fails to close must not leave the servers below listening (the run would wait forever).
    await browser?.close().catch(() => undefined);
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists a story for every element and every page', async () => {
    const ids = Object.keys(((await (await fetch(`${base}/index.json`)).json()) as StoryIndex).entries);
    const elements = readdirSync(join(root, 'src/elements')).filter((name) =>
      existsSync(join(root, 'src/elements', name, 'define.ts')),
    );
    for (const name of elements)
      assert.ok(
        ids.some((id) => id.startsWith(`elements-${name}--`)),
        `no story for <svc-${name}>`,
      );
    for (const page of [
      'pages-shop--shop',
      'pages-shop--suggestions-only',
      'pages-home-page--home-page',
      'pages-product-page--keyboard',
    ])
      assert.ok(ids.includes(page), `story ${page} missing`);
  });

  it('renders every story: no errors, every svc- element defined and showing the demo catalogue; axe on the product and home pages', async () => {
    const index = (await (await fetch(`${base}/index.json`)).json()) as StoryIndex;
    const stories = Object.values(index.entries)
      .filter((entry) => entry.type === 'story')
      .map((entry) => entry.id);
    assert.ok(stories.length >= 50, `only ${stories.length} stories`);
    const page = await browser.newPage();
    let errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The browser's own favicon request is not the story's.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        errors.push(`console error: ${message.text()} (${message.location().url})`);
    });
    const failures: string[] = [];
    let first = true;
    for (const id of stories) {
      errors = [];
      await page.goto(`${base}/iframe.html?id=${id}&viewMode=story`);
      // The first story waits for Vite's first pre-bundling (it may reload the page once).
      const problems = await settle(
        page,
        { empty: EMPTY_ON_PURPOSE[id] ?? [], optional: optionalIn(id) },
        first ? 90_000 : 20_000,
      );
      first = false;
      if (id.startsWith('pages-product-page--')) problems.push(...(await productPageProblems(page)));
      if (AXE_STORIES.test(id)) problems.push(...(await axe(page, '#storybook-root')));
      // Late errors (an answer after the content, a flush) belong to this story too.
      await page.waitForTimeout(100);
      for (const problem of [...problems, ...errors]) failures.push(`${id}: ${problem}`);
    }
    await page.close();
    assert.deepEqual(failures, []);
  });

  it('answers the search API on its own origin with the demo catalogue', async () => {
    const response = await fetch(`${base}/1/indexes/products/query`, {
      method: 'POST',
      headers: { 'x-service-application-id': 'SVCLOCAL', 'x-service-api-key': 'local-search-key' },
      body: JSON.stringify({ query: '', hitsPerPage: 1 }),
    });
    assert.equal(response.status, 200);
    const result = (await response.json()) as { nbHits: number };
    assert.ok(result.nbHits > 1000, `demo catalogue has ${result.nbHits} products`);
  });

  it('renders the shop story with real hits, and a typo query finds chairs', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    // Vite may reload the page once while it pre-bundles dependencies on a first start.
    await page.goto(`${base}/iframe.html?id=pages-shop--shop&viewMode=story`);
    const items = page.locator('svc-hits li');
    await items.first().waitFor({ timeout: 90_000 });
    assert.equal(await items.count(), 12);
    assert.match(await page.locator('svc-stats p').innerText(), /^1,\d{3} results found in \d+ ms$/);
    // The template formats prices with data-currency="USD": "$58.10", "$1,299.99", never "$58.1".
    const prices = await page.locator('svc-hits li .price').allInnerTexts();
    assert.equal(prices.length, 12);
    for (const price of prices) assert.match(price, /^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    // The shop's search box is an <svc-autocomplete>: typing lists suggestions from the demo's suggestions
    // index (built at the service's first start), Enter searches the typed text.
    const field = page.locator('svc-autocomplete').getByRole('combobox');
    await field.pressSequentially('chair', { delay: 20 });
    await page
      .locator('svc-autocomplete')
      .getByRole('option', { name: 'chairs in Furniture', exact: true })
      .waitFor({ timeout: 30_000 });
    await field.fill('chiar');
    await field.press('Enter');
    await page.waitForFunction(() =>
      /^\d{1,3} results? found/.test(document.querySelector('svc-stats')?.shadowRoot?.textContent?.trim() ?? ''),
    );
    const categories = await page.locator('svc-hits li').allInnerTexts();
    assert.ok(
      categories.some((text) => /Chairs/.test(text)),
      categories.join(' | '),
    );
    assert.deepEqual(errors, []);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`the shop page has no axe violations (${colorScheme} preference)`, async () => {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${base}/iframe.html?id=pages-shop--shop&viewMode=story`);
      await page.locator('svc-hits li').first().waitFor({ timeout: 90_000 });
      await page.addScriptTag({ content: readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8') });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run(context: Element): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
            };
          }
        ).axe;
        const result = await axe.run(document.querySelector('svc-search')!);
        return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
      });
      assert.deepEqual(violations, []);
      await page.close();
    });
  }

  /** The text of `<svc-stats>` ("169 results found in 2 ms"). */
  const stats = (page: Page) =>
    page.evaluate(
      () => document.querySelector('svc-stats')?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    );
  /** What the shop's autocomplete field shows, and the query of the results on screen. */
  const agreement = (page: Page) =>
    page.evaluate(() => {
      const field = document.querySelector('svc-autocomplete')!.shadowRoot!.querySelector('input')!;
      const store = (
        document.querySelector('svc-search') as unknown as {
          store: { getSnapshot(): { results: { query: string } | null } };
        }
      ).store;
      return { field: field.value, results: store.getSnapshot().results?.query };
    });

  for (const [story, mode] of [
    ['pages-shop--shop', 'search as you type'],
    ['pages-shop--suggestions-only', 'suggestions only'],
  ] as const) {
    it(`the shop (${mode}): type "leathr chiar", click a brand — the box shows the query of the results`, async () => {
      const page = await browser.newPage();
      await page.goto(`${base}/iframe.html?id=${story}&viewMode=story`);
      await page.locator('svc-hits li').first().waitFor({ timeout: 90_000 });
      const field = page.locator('svc-autocomplete').getByRole('combobox');
      await field.pressSequentially('leathr chiar', { delay: 20 });
      await page.waitForFunction(
        () =>
          (document.querySelector('svc-autocomplete') as unknown as { suggestionsStatus: string }).suggestionsStatus !==
          'loading',
      );
      if (mode === 'search as you type') {
        await page.waitForFunction(
          () =>
            (
              document.querySelector('svc-search') as unknown as {
                store: { getSnapshot(): { results: { query: string } } };
              }
            ).store.getSnapshot().results.query === 'leathr chiar',
        );
      }
      // The first brand of the list (a real click: the focus leaves the box).
      const brand = page.locator('svc-refinement-list[attribute="brand"]').locator('input[type="checkbox"]').first();
      const brandName = await brand.inputValue();
      await brand.click();
      await page.waitForFunction(
        (name) =>
          (
            document.querySelector('svc-search') as unknown as {
              store: {
                getSnapshot(): { status: string; state: { disjunctiveFacetRefinements: Record<string, string[]> } };
              };
            }
          ).store
            .getSnapshot()
            .state.disjunctiveFacetRefinements.brand?.includes(name),
        brandName,
      );
      await page.waitForFunction(
        () =>
          (
            document.querySelector('svc-search') as unknown as { store: { getSnapshot(): { status: string } } }
          ).store.getSnapshot().status === 'idle',
      );
      await page.waitForTimeout(100);
      const seen = await agreement(page);
      assert.equal(seen.field, seen.results, `the box shows "${seen.field}" over results for "${seen.results}"`);
      assert.equal(seen.field, mode === 'search as you type' ? 'leathr chiar' : '');
      assert.match(await stats(page), /^\d[\d,]* results? found/);
      await page.close();
    });
  }

  it('the shop on a phone (390 × 844): nothing overflows, the filters are a disclosure, a refinement works', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${base}/iframe.html?id=pages-shop--shop&viewMode=story`);
    await page.locator('svc-hits li').first().waitFor({ timeout: 90_000 });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(await overflow(), 0, 'no horizontal scroll');
    const hits = await page.locator('svc-hits').boundingBox();
    assert.ok(hits && hits.width >= 390 - 2 * 16 - 1, `the results take the width (${hits?.width}px)`);
    const summary = page.locator('details.filters > summary');
    assert.ok(await summary.isVisible(), 'a Filters disclosure');
    assert.equal(await page.locator('svc-rating-menu').isVisible(), false, 'closed at first');
    const before = await stats(page);
    await summary.tap();
    const rating = page.locator('svc-rating-menu').getByRole('link').first();
    await rating.waitFor();
    await rating.tap();
    await page.waitForFunction((text) => {
      const now = document.querySelector('svc-stats')?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim();
      return now && now !== text;
    }, before);
    const refinements = await page.evaluate(
      () =>
        (
          document.querySelector('svc-search') as unknown as {
            store: { getSnapshot(): { state: { numericRefinements: Record<string, unknown> } } };
          }
        ).store.getSnapshot().state.numericRefinements,
    );
    assert.deepEqual(refinements, {
      rating: [
        { operator: '>=', value: 4 },
        { operator: '<=', value: 5 },
      ],
    });
    assert.equal(await overflow(), 0, 'still no horizontal scroll with the filters open');
    await page.screenshot({ path: join(tmpdir(), 'svc-shop-phone.png'), fullPage: false });
    await page.close();
  });

  it('the demo rule shows its banner for "chairs" in the shop', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/iframe.html?id=pages-shop--shop&viewMode=story`);
    await page.locator('svc-hits li').first().waitFor({ timeout: 90_000 });
    await page.locator('svc-autocomplete').getByRole('combobox').fill('chairs');
    const banner = page.locator('svc-query-rule-custom-data').locator('[part~="title"]');
    await banner.waitFor({ timeout: 10_000 });
    assert.equal(await banner.textContent(), 'Sit well, work well');
    await page.close();
  });

  it('the catalogue: no onboarding checklist; autodocs list the public API and a translations table', async () => {
    const manager = await (await fetch(`${base}/`)).text();
    assert.match(manager, /"sidebarOnboardingChecklist":\s*false/);
    const page = await browser.newPage();
    await page.goto(`${base}/?path=/docs/elements-refinement-list--docs`);
    await page.locator('#storybook-explorer-tree').waitFor({ timeout: 60_000 });
    const sidebar = (await page.locator('nav, aside, #storybook-explorer-menu').first().textContent()) ?? '';
    assert.doesNotMatch(sidebar, /Get started|Onboarding/i);
    assert.doesNotMatch(await page.content(), /Get started \d+ ?%/);
    await page.goto(`${base}/iframe.html?id=elements-refinement-list--docs&viewMode=docs`);
    const table = page.locator('.docblock-argstable').first();
    await table.waitFor({ timeout: 60_000 });
    const text = (await table.textContent()) ?? '';
    assert.doesNotMatch(text, /#list|defaultTranslations|consumesContext|shadowRootOptions/);
    assert.match(text, /translations/i);
    assert.match(text, /listLabel/);
    assert.match(text, /Filter by \{attribute\}/);
    await page.close();
  });
});
