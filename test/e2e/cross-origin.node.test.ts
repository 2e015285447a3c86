/**
 * One round trip per search from a page on another origin: in Chromium, a page served on one loopback port uses
 * the loader (`dist/`) and the real service on another. Loading it, typing 10 characters, refining, changing page
 * and clicking a hit make searches, Recommend requests and Insights events — and no `OPTIONS` request: every call
 * is a CORS simple request (credentials in the URL, the JSON body as text/plain, no custom header).
 *
 * `dist/` is built first (`vite build --mode loader`) when it is missing or older than a source file.
 */
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { catalogue, indexProducts } from '../client/fixture.js';
import { FIRST_PAINT_INDEX, SIX_ELEMENTS, loaderPage } from '../size/pages.js';
import { type CrossOrigin, startCrossOrigin } from './cross-origin.js';
import { ensureLoaderBuilt } from './loader-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('cross-origin page: no preflight', () => {
  let site: CrossOrigin;

  before(async () => {
    ensureLoaderBuilt();
    site = await startCrossOrigin({ dist: join(root, 'dist'), pages: { '/': loaderPage(SIX_ELEMENTS) } });
    await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(120));
  });

  after(async () => {
    await site?.close();
  });

  test('load, type 10 characters, refine, change page, click a hit: 0 OPTIONS, every call answered', async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    const statuses: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(site.serviceOrigin))
        statuses.push(`${response.status()} ${response.request().method()}`);
    });
    await page.goto(`${site.pageOrigin}/`);
    await page.locator('svc-hits li').first().waitFor();
    await page.locator('svc-search-box input').focus();
    await page.keyboard.type('bolt camer', { delay: 80 });
    await page.locator('svc-hits li', { hasText: 'camera' }).first().waitFor();
    await page.locator('svc-refinement-list label').first().click();
    await page.waitForTimeout(500);
    await page.locator('svc-search-box input').fill('');
    await page
      .locator('svc-pagination a', { hasText: /^\s*2\s*$/ })
      .first()
      .click();
    await page.waitForTimeout(500);
    await page.locator('svc-hits li').first().click();
    // The Insights module sends its queue a second after the click.
    await page.waitForTimeout(1800);
    await context.close();

    const kinds = new Set(site.requests.map((request) => `${request.method} ${request.url.split('?')[0]}`));
    for (const call of ['POST /1/indexes/*/queries', 'POST /1/indexes/*/recommendations', 'POST /1/events'])
      assert.ok(kinds.has(call), `${call} was made: ${[...kinds]}`);
    assert.deepEqual(
      site.requests.filter((request) => request.method === 'OPTIONS'),
      [],
      'no preflight',
    );
    assert.ok(statuses.length > 5);
    assert.deepEqual(
      statuses.filter((status) => !status.startsWith('200')),
      [],
      'every call was accepted',
    );
  });
});
