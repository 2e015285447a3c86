/**
 * End to end: a plain HTML page with nothing but `<script type="module" src="/dist/svc-search.js">` (the loader,
 * which imports the chunks of the page's elements from `/dist/chunks/`) and the
 * tags of issue 4, served next to the real local service (same origin), in real Chromium (playwright-core).
 * A user types a query with a typo, refines by brand, and goes to page 2.
 *
 * `dist/svc-search.js` is built first when it is missing or older than the sources (`loader-build.ts`: only the
 * Vite bundle step, `vite build --mode loader`, which needs no type check); set `SVC_E2E_REBUILD=1` to force it.
 * `npm run build` builds everything, this file included.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createService, DEV_CREDENTIALS } from '../../service/src/index.js';
import { ensureLoaderBuilt } from './loader-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INDEX = 'e2e_products';

/** The page: the one script and the example tags of issue 4, nothing else. */
function plainPage(origin: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc-search on a plain page</title>
<script type="module" src="/dist/svc-search.js"></script>
</head>
<body>
<svc-search app-id="${DEV_CREDENTIALS.appId}" api-key="${DEV_CREDENTIALS.searchKey}" index-name="${INDEX}" hosts="${origin}">
  <svc-search-box placeholder="Search products"></svc-search-box>
  <svc-refinement-list attribute="brand" searchable></svc-refinement-list>
  <svc-hits></svc-hits>
  <svc-pagination></svc-pagination>
</svc-search>
</body>
</html>`;
}

/** 25 Acme phones, 10 Globex phones and 8 Initech laptops: "phone" has 35 hits, Acme phones 2 pages of 20. */
function records(): Array<Record<string, unknown> & { objectID: string }> {
  const out: Array<Record<string, unknown> & { objectID: string }> = [];
  for (let i = 1; i <= 25; i++)
    out.push({ objectID: `acme-${i}`, name: `Acme Phone ${i}`, brand: 'Acme', price: 100 + i, popularity: 100 - i });
  for (let i = 1; i <= 10; i++)
    out.push({
      objectID: `globex-${i}`,
      name: `Globex Phone ${i}`,
      brand: 'Globex',
      price: 200 + i,
      popularity: 50 - i,
    });
  for (let i = 1; i <= 8; i++)
    out.push({
      objectID: `initech-${i}`,
      name: `Initech Laptop ${i}`,
      brand: 'Initech',
      price: 900 + i,
      popularity: 10 - i,
    });
  return out;
}

describe('plain HTML page with dist/svc-search.js', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let dataDir: string;
  let closeService: () => Promise<void>;
  const requested: string[] = [];
  const pageErrors: string[] = [];

  async function admin(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-service-application-id': DEV_CREDENTIALS.appId,
        'x-service-api-key': DEV_CREDENTIALS.adminKey,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    assert.ok(response.ok, `${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  before(async () => {
    ensureLoaderBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
    const service = await createService({ dataDir });
    closeService = () => service.close();
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (/^\/(1|2)\//.test(url)) return service.handler(req, res, () => res.writeHead(404).end());
      if (url === '/' || url.startsWith('/?')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(plainPage(origin));
      } else if (url === '/dist/svc-search.js' || /^\/dist\/chunks\/[\w-]+\.js$/.test(url)) {
        // The loader and the chunks it imports from beside it.
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(join(root, url)));
      } else if (url === '/favicon.ico') {
        res.writeHead(204).end(); // the browser asks for it on its own; not part of the page
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    await admin('PUT', `/1/indexes/${INDEX}/settings`, {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['searchable(brand)'],
      customRanking: ['desc(popularity)'],
    });
    await admin('POST', `/1/indexes/${INDEX}/batch`, {
      requests: records().map((body) => ({ action: 'updateObject', body })),
    });
    // Writes are tasks: wait until every record is searchable.
    for (let attempt = 0; ; attempt++) {
      const result = await admin('POST', `/1/indexes/${INDEX}/query`, { query: '', hitsPerPage: 0 });
      if (result.nbHits === records().length) break;
      assert.ok(attempt < 100, 'records were not indexed within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }

    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new'],
    });
    page = await browser.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  });

  after(async () => {
    // A browser that fails to close must not leave the servers below listening (the run would wait forever).
    await browser?.close().catch(() => undefined);
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await closeService?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows hits from the service without any other script', async () => {
    await page.goto(`${origin}/`);
    const items = page.locator('svc-hits li');
    await items.first().waitFor();
    assert.equal(await items.count(), 20, 'first page of 43 records at the default 20 per page');
    // Popularity ranks the Acme phones first; the name is shown by default.
    assert.match(await items.first().innerText(), /Acme Phone 1\b/);
    const scripts = requested.filter(
      (url) => !url.includes('/1/') && !url.includes('/2/') && !url.endsWith('/favicon.ico'),
    );
    assert.deepEqual(
      scripts.filter((url) => !url.startsWith(`${origin}/dist/chunks/`)),
      [`${origin}/`, `${origin}/dist/svc-search.js`],
      'the page loads only itself, the loader and its chunks',
    );
    assert.ok(
      scripts.some((url) => url.startsWith(`${origin}/dist/chunks/core-`)),
      `the shared core chunk: ${scripts}`,
    );
  });

  it('finds the phones despite a typo and highlights the match', async () => {
    const box = page.locator('svc-search-box').getByRole('searchbox');
    await box.click();
    await box.pressSequentially('phome', { delay: 20 });
    // Matches are highlighted only once the query is answered.
    await page.waitForFunction(() => !!document.querySelector('svc-hits')?.shadowRoot?.querySelector('li mark'));
    const marks = page.locator('svc-hits li mark');
    await marks.first().waitFor();
    assert.equal((await marks.first().innerText()).toLowerCase(), 'phone');
    // Brand facet counts follow the query: Initech has no phone.
    const list = page.locator('svc-refinement-list');
    await list.getByRole('checkbox', { name: /Acme/ }).waitFor();
    const values = await list.locator('li').allInnerTexts();
    assert.deepEqual(
      values.map((text) => text.replace(/\s+/g, ' ').trim()),
      ['Acme 25', 'Globex 10'],
    );
  });

  it('refines by brand with the checkbox', async () => {
    const acme = page.locator('svc-refinement-list').getByRole('checkbox', { name: /Acme/ });
    await acme.check();
    await page.waitForFunction(() => {
      const text = document.querySelector('svc-hits')?.shadowRoot?.textContent ?? '';
      return text.includes('Acme Phone') && !text.includes('Globex');
    });
    assert.equal(await acme.isChecked(), true);
    assert.equal(await page.locator('svc-hits li').count(), 20);
  });

  it('goes to page 2 with the pagination link', async () => {
    const nav = page.locator('svc-pagination').getByRole('navigation');
    const second = nav.getByRole('link', { name: /\b2\b/ }).first();
    const href = await second.getAttribute('href');
    assert.ok(href && href.length > 0, 'pagination items are real links');
    await second.click();
    await page.waitForFunction(
      () => document.querySelector('svc-hits')?.shadowRoot?.querySelectorAll('li').length === 5,
    );
    const texts = await page.locator('svc-hits li').allInnerTexts();
    assert.ok(
      texts.every((t) => /Acme Phone/.test(t)),
      texts.join(' | '),
    );
    assert.equal(await nav.locator('[aria-current="page"]').innerText(), '2');
    assert.deepEqual(pageErrors, []);
  });
});
