/**
 * The static catalogue searches with no server: `storybook-static/` (built by `npm run build-storybook` when
 * missing or older than the sources) served by a plain static file server, opened in real Chromium. The Shop
 * story paints the demo's hits, a typo query finds chairs, a brand refinement shows the counts the service
 * computes on the same records, page 2 shows the service's page 2, the product page shows the service's
 * Recommend answers — and no request goes to a `/1/` path (the engine runs in a worker on the exported index).
 * The worker is split as the library's build splits it (`vite.config.ts`, `workerOptions`): its start file is
 * fetched at load (with the rules' chunk: the demo has rules), the filters' evaluation only at the first refinement,
 * Recommend's on the product page.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startService, type Running } from '../../service/test/service-helpers.js';
import { ensureLoaderBuilt, newestFileTime } from './loader-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'storybook-static');

function ensureBuilt(): void {
  const marker = join(out, 'indexes/products.svcidx');
  const sources = Math.max(
    newestFileTime(join(root, 'src')),
    newestFileTime(join(root, 'stories')),
    newestFileTime(join(root, 'service/src')),
    newestFileTime(join(root, '.storybook')),
    statSync(join(root, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(marker) && statSync(marker).mtimeMs >= sources) return;
  const result = spawnSync('npm', ['run', 'build-storybook'], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, `build-storybook failed:\n${result.stdout}\n${result.stderr}`);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** A plain static file server: files of `dir` or 404, nothing else; every path asked is logged, and each 404. */
function staticServer(dir: string, log: string[], missing: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    log.push(path);
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      missing.push(path);
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** The path of the one file of `storybook-static/assets/` named `<name>-<hash>.js` (a worker chunk). */
function asset(name: string): string {
  const files = readdirSync(join(out, 'assets')).filter((file) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file));
  assert.equal(files.length, 1, `one ${name} file: ${files.join(', ')}`);
  return `/assets/${files[0]}`;
}

type Snapshot = {
  status: string;
  results: {
    nbHits: number;
    page: number;
    hits: Array<{ objectID: string }>;
    facets?: Record<string, Record<string, number>>;
  } | null;
};

/** The store's snapshot of the story's `<svc-search>`, once it is idle with results. */
async function idle(page: Page): Promise<Snapshot> {
  await page.waitForFunction(() => {
    const search = document.querySelector('svc-search') as unknown as { store?: { getSnapshot(): Snapshot } } | null;
    const snapshot = search?.store?.getSnapshot();
    return snapshot?.status === 'idle' && snapshot.results !== null;
  });
  await page.waitForTimeout(150);
  return page.evaluate(() =>
    JSON.parse(
      JSON.stringify(
        (document.querySelector('svc-search') as unknown as { store: { getSnapshot(): Snapshot } }).store.getSnapshot(),
      ),
    ),
  );
}

describe('the static catalogue (storybook-static) searches with no server', () => {
  let server: Server;
  let browser: Browser;
  let running: Running;
  let base: string;
  const served: string[] = [];
  const missing: string[] = [];
  const asked: string[] = [];

  before(async () => {
    ensureBuilt();
    server = await staticServer(out, served, missing);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    running = await startService({ dataDir: ':memory:', demo: true });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless=new',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
      ],
    });
  });
  after(async () => {
    // A browser that fails to close must not leave the servers below listening (the run would wait forever).
    await browser?.close().catch(() => undefined);
    await running?.stop();
    server?.close();
  });

  async function open(storyId: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      // The browser's own favicon request (Storybook's iframe names none) is the one 404, checked below.
      const favicon =
        /^Failed to load resource: .* 404/.test(message.text()) && missing.every((path) => path === '/favicon.ico');
      if (message.type() === 'error' && !favicon) errors.push(message.text());
    });
    page.on('request', (request) => asked.push(request.url()));
    await page.goto(`${base}/iframe.html?id=${storyId}&viewMode=story`);
    return { page, errors };
  }

  const search = (params: Record<string, unknown>) =>
    running.ok('POST', '/1/indexes/products/query', params).then((body) => body as NonNullable<Snapshot['results']>);

  it('the Shop: hits, a typo query, a brand refinement with the service’s counts, page 2', async () => {
    const { page, errors } = await open('pages-shop--shop');
    await page.locator('svc-hits li').first().waitFor({ timeout: 60_000 });
    const first = await idle(page);
    assert.equal(first.results!.nbHits, 1862);

    // The worker as the library ships it: an ES module whose start is one file, fetched at load, which imports its
    // chunks when a file or a request needs them (a worker built as `iife` is one file holding every module). The
    // demo's file has rules: their chunk, and the filter parser it imports, load with it; the filters' evaluation
    // waits for the first refinement.
    const worker = asset('worker');
    const filterBits = asset('filter-bits');
    const start = readFileSync(join(out, worker), 'utf8');
    assert.ok(!start.startsWith('(function'), 'an ES module, not an iife');
    assert.ok(
      start.includes(`import(\`./${filterBits.slice('/assets/'.length)}\`)`),
      'the start file imports the filters’ evaluation when needed',
    );
    assert.deepEqual(
      served.filter((path) => path === worker),
      [worker],
      'the worker’s start file, once',
    );
    assert.ok(served.includes(asset('rules')) && served.includes(asset('filters')), 'the rules of the file');
    assert.ok(!served.includes(filterBits), 'no filters’ evaluation at load');

    const field = page.locator('svc-autocomplete').getByRole('combobox');
    await field.fill('chiar');
    await field.press('Enter');
    await page.waitForFunction(() =>
      /^\d{1,3} results? found/.test(document.querySelector('svc-stats')?.shadowRoot?.textContent?.trim() ?? ''),
    );
    const typo = await idle(page);
    const remoteTypo = await search({ query: 'chiar', hitsPerPage: 12, facets: ['brand'], maxValuesPerFacet: 100 });
    const cards = await page.locator('svc-hits li').allInnerTexts();
    assert.ok(
      cards.some((card) => card.includes('Chairs')),
      cards.join(' | '),
    );
    assert.deepEqual(
      typo.results!.hits.map((hit) => hit.objectID),
      remoteTypo.hits.map((hit) => hit.objectID),
    );
    assert.equal(typo.results!.nbHits, remoteTypo.nbHits);

    // The brand list's counts are the service's for the same query; then one brand refined.
    const list = page.locator('svc-refinement-list[attribute="brand"]');
    const shown = await list.locator('li').allInnerTexts();
    for (const line of shown) {
      const match = /^(.*?)\s*([\d,]+)$/.exec(line.replace(/\s+/g, ' ').trim());
      if (!match) continue;
      assert.equal(Number(match[2]!.replace(/,/g, '')), remoteTypo.facets!.brand![match[1]!], line);
    }
    assert.ok(!served.includes(filterBits), 'no filters’ evaluation for a query');
    const brand = list.locator('input[type="checkbox"]').first();
    const brandName = await brand.inputValue();
    await brand.click();
    await page.waitForFunction(
      (name) =>
        (
          document.querySelector('svc-search') as unknown as {
            store: { getSnapshot(): { state: { disjunctiveFacetRefinements: Record<string, string[]> } } };
          }
        ).store
          .getSnapshot()
          .state.disjunctiveFacetRefinements.brand?.includes(name),
      brandName,
    );
    const refined = await idle(page);
    assert.equal(refined.results!.nbHits, remoteTypo.facets!.brand![brandName]);
    assert.ok(served.includes(filterBits), 'the filters’ evaluation at the first refinement');
    const remoteRefined = await search({
      query: 'chiar',
      facetFilters: [[`brand:${brandName}`]],
      facets: ['hierarchicalCategories.lvl0'],
      hitsPerPage: 12,
    });
    assert.deepEqual(
      refined.results!.hits.map((hit) => hit.objectID),
      remoteRefined.hits.map((hit) => hit.objectID),
    );
    assert.deepEqual(
      refined.results!.facets?.['hierarchicalCategories.lvl0'],
      remoteRefined.facets?.['hierarchicalCategories.lvl0'],
    );

    // Back to every product, then page 2: the service's page 2 (12 per page, most popular first).
    await page.locator('svc-clear-refinements').getByRole('button').click();
    await field.fill('');
    await field.press('Enter');
    await page.waitForFunction(
      () =>
        (document.querySelector('svc-search') as unknown as { store: { getSnapshot(): Snapshot } }).store.getSnapshot()
          .results?.nbHits === 1862,
    );
    await page.locator('svc-pagination').getByRole('link', { name: 'Page 2', exact: true }).first().click();
    await page.waitForFunction(
      () =>
        (document.querySelector('svc-search') as unknown as { store: { getSnapshot(): Snapshot } }).store.getSnapshot()
          .results?.page === 1,
    );
    const second = await idle(page);
    const remoteSecond = await search({ query: '', page: 1, hitsPerPage: 12 });
    assert.deepEqual(
      second.results!.hits.map((hit) => hit.objectID),
      remoteSecond.hits.map((hit) => hit.objectID),
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the product page: related products and bought together are the service’s', async () => {
    const recommend = asset('recommend');
    const before = served.length;
    const { page, errors } = await open('pages-product-page--keyboard');
    const lists = page.locator('svc-recommendations');
    await lists.first().locator('li').first().waitFor({ timeout: 60_000 });
    for (const [i, model] of ['related-products', 'bought-together'].entries()) {
      await lists.nth(i).locator('li').first().waitFor({ timeout: 30_000 });
      const shown = await lists
        .nth(i)
        .evaluate((el) =>
          [...(el.shadowRoot?.querySelectorAll('[data-svc-object-id]') ?? [])].map((li) =>
            li.getAttribute('data-svc-object-id'),
          ),
        );
      const answer = await running.ok('POST', '/1/indexes/*/recommendations', {
        requests: [{ indexName: 'products', model, objectID: 'TEC-AC-10002049', threshold: 0, maxRecommendations: 4 }],
      });
      assert.deepEqual(
        shown,
        answer.results[0].hits.map((hit: { objectID: string }) => hit.objectID),
        model,
      );
    }
    assert.ok(served.slice(before).includes(recommend), 'Recommend’s chunk, loaded by the worker for this page');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('its worker is the library build’s, file for file: the start and each chunk it loads when needed', () => {
    ensureLoaderBuilt();
    const start = asset('worker');
    const code = readFileSync(join(out, start), 'utf8');
    const chunks = [...code.matchAll(/import\(`\.\/([\w-]+\.js)`\)/g)].map((match) => `/assets/${match[1]}`);
    assert.ok(chunks.length >= 10, `the chunks the start file imports: ${chunks.join(', ')}`);
    for (const file of [start, ...chunks]) {
      const library = join(root, 'dist', file);
      assert.ok(existsSync(library), `${file} is in the library's dist/ too`);
      assert.ok(readFileSync(join(out, file)).equals(readFileSync(library)), `${file}: the same bytes`);
    }
  });

  it('asked no /1/ path of any host: everything came from the static files', () => {
    assert.ok(served.includes('/indexes/products.svcidx'), 'the exported index was loaded');
    assert.deepEqual([...new Set(missing)], ['/favicon.ico'], 'every file asked for but the favicon was there');
    const api = asked.filter((url) => /^\/(1|2)\//.test(new URL(url).pathname));
    assert.deepEqual(api, []);
  });
});
