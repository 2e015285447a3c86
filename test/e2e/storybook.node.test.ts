/**
 * `npm start` really serves the catalogue: `scripts/start.ts` on a free port with a fresh data directory,
 * then the full-page shop story in real Chromium shows real hits of the demo catalogue from the local
 * service mounted on the same origin, answers a query with a typo, and passes axe in light and dark.
 * Stopped at the end (process group).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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

describe('npm start (Storybook with the local service)', { timeout: 240_000 }, () => {
  let child: ChildProcess;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  let output = '';

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'svc-storybook-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--port', String(port), '--data-dir', dataDir], {
      cwd: root,
      detached: true, // its own process group, so Storybook's children stop with it
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
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
    browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new'] });
  });

  after(async () => {
    await browser?.close();
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the stories of every element and the shop page', async () => {
    const index = (await (await fetch(`${base}/index.json`)).json()) as { entries: Record<string, unknown> };
    for (const id of [
      'pages-shop--shop',
      'elements-stats--default',
      'elements-current-refinements--default',
      'elements-clear-refinements--default',
      'elements-sort-by--default',
      'elements-hits-per-page--default',
      'elements-range-input--price',
      'elements-range-input--bounds-and-precision',
      'elements-configure--default',
      'elements-infinite-hits--default',
      'elements-infinite-hits--from-a-later-page',
      'elements-menu--default',
      'elements-menu--show-more',
      'elements-autocomplete--with-categories',
      'elements-autocomplete--queries-only',
      'elements-autocomplete--styled',
    ]) {
      assert.ok(id in index.entries, `story ${id} missing`);
    }
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
    await page.locator('svc-autocomplete').getByRole('option', { name: 'chairs in Furniture', exact: true }).waitFor({ timeout: 30_000 });
    await field.fill('chiar');
    await field.press('Enter');
    await page.waitForFunction(() => /^\d{1,3} results? found/.test(document.querySelector('svc-stats')?.shadowRoot?.textContent?.trim() ?? ''));
    const categories = await page.locator('svc-hits li').allInnerTexts();
    assert.ok(categories.some((text) => /Chairs/.test(text)), categories.join(' | '));
    assert.deepEqual(errors, []);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`the shop page has no axe violations (${colorScheme} preference)`, async () => {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${base}/iframe.html?id=pages-shop--shop&viewMode=story`);
      await page.locator('svc-hits li').first().waitFor({ timeout: 90_000 });
      await page.addScriptTag({ content: readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8') });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: Element): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
        const result = await axe.run(document.querySelector('svc-search')!);
        return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
      });
      assert.deepEqual(violations, []);
      await page.close();
    });
  }
});
