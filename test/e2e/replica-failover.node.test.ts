/**
 * End to end: `<svc-search hosts="a,b,c">` on three replicas of one PostgreSQL database (each its own
 * `serve --database` process), in real Chromium (playwright-core). The user searches; the replica answering
 * (the first host) is killed with SIGKILL mid-session; the user keeps typing and refining and sees answers,
 * never an error: the client's retry on the next host is the load balancer's failover.
 *
 * The page, `dist/svc-search.js` (the loader) and the chunks it imports come from a small server of their own
 * (the replicas answer cross-origin).
 * The bundle is built when missing or older than the browser sources (`loader-build.ts`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEV_CREDENTIALS } from '../../service/src/index.js';
import {
  newDatabase,
  type Replica,
  startReplica,
  stopPostgres,
  waitForTask,
} from '../../service/test/replicas/helpers.js';
import { ensureLoaderBuilt } from './loader-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INDEX = 'failover_products';

function page(hosts: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc-search on three replicas</title>
<script type="module" src="/dist/svc-search.js"></script>
</head>
<body>
<svc-search app-id="${DEV_CREDENTIALS.appId}" api-key="${DEV_CREDENTIALS.searchKey}" index-name="${INDEX}" hosts="${hosts.join(',')}">
  <svc-search-box placeholder="Search products"></svc-search-box>
  <svc-refinement-list attribute="brand"></svc-refinement-list>
  <svc-hits></svc-hits>
</svc-search>
</body>
</html>`;
}

describe('a search page on three replicas, one killed mid-session', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let tab: Page;
  let replicas: Replica[] = [];
  const pageErrors: string[] = [];
  const answeredBy: string[] = [];

  before(async () => {
    ensureLoaderBuilt();
    const database = await newDatabase();
    replicas = [await startReplica(database, 'a')];
    replicas.push(...(await Promise.all(['b', 'c'].map((id) => startReplica(database, id)))));
    const [a] = replicas;
    await a!.call('PUT', `/1/indexes/${INDEX}/settings`, {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['brand'],
    });
    const records = [
      ...Array.from({ length: 12 }, (_, i) => ({ objectID: `acme-${i}`, name: `Acme Phone ${i}`, brand: 'Acme' })),
      ...Array.from({ length: 6 }, (_, i) => ({ objectID: `globex-${i}`, name: `Globex Phone ${i}`, brand: 'Globex' })),
      ...Array.from({ length: 4 }, (_, i) => ({
        objectID: `initech-${i}`,
        name: `Initech Lamp ${i}`,
        brand: 'Initech',
      })),
    ];
    const written = await a!.call('POST', `/1/indexes/${INDEX}/batch`, {
      requests: records.map((body) => ({ action: 'addObject', body })),
    });
    await waitForTask(a!, written.body.taskID);

    const html = page(replicas.map((replica) => replica.url));
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      else if (url === '/dist/svc-search.js' || /^\/dist\/chunks\/[\w-]+\.js$/.test(url)) {
        // The loader and the chunks it imports from beside it.
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(join(root, url)));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    tab = await browser.newPage();
    tab.on('pageerror', (error) => pageErrors.push(String(error)));
    tab.on('response', (response) => {
      if (response.url().includes('/1/indexes/')) answeredBy.push(new URL(response.url()).origin);
    });
  });

  after(async () => {
    // A browser that fails to close must not leave the servers below listening (the run would wait forever).
    await browser?.close().catch(() => undefined);
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    for (const replica of replicas) await replica.kill().catch(() => undefined);
    stopPostgres();
  });

  const hitTexts = () => tab.locator('svc-hits li').allInnerTexts();
  const noErrorShown = async () => {
    assert.equal(await tab.locator('svc-hits [part="error"]').count(), 0, 'no error in the hits');
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
  };

  it('answers from the first host', async () => {
    await tab.goto(`${origin}/`);
    await tab.locator('svc-hits li').first().waitFor();
    const box = tab.locator('svc-search-box').getByRole('searchbox');
    await box.pressSequentially('phone', { delay: 20 });
    await tab.waitForFunction(
      () => document.querySelector('svc-hits')?.shadowRoot?.textContent?.includes('Globex Phone') === true,
    );
    assert.ok(
      (await hitTexts()).every((text) => /Phone/.test(text)),
      'only phones',
    );
    assert.ok(answeredBy.length > 0 && answeredBy.every((host) => host === replicas[0]!.url), 'host a answered');
    await noErrorShown();
  });

  it('keeps answering when that replica is killed mid-session, with no error shown', async () => {
    await replicas[0]!.kill();
    answeredBy.length = 0;
    // Refine by brand: the next query goes to the dead host first, then to the next one.
    await tab.locator('svc-refinement-list').getByRole('checkbox', { name: /Acme/ }).check();
    await tab.waitForFunction(() => {
      const text = document.querySelector('svc-hits')?.shadowRoot?.textContent ?? '';
      return text.includes('Acme Phone') && !text.includes('Globex');
    });
    const box = tab.locator('svc-search-box').getByRole('searchbox');
    await box.fill('');
    await box.pressSequentially('lamp', { delay: 20 });
    await tab.waitForFunction(
      () =>
        document.querySelector('svc-hits')?.shadowRoot?.querySelectorAll('li').length === 0 ||
        document.querySelector('svc-hits')?.shadowRoot?.textContent?.includes('Lamp') === true,
    );
    await tab.locator('svc-refinement-list').getByRole('checkbox', { name: /Acme/ }).uncheck();
    await tab.waitForFunction(
      () => document.querySelector('svc-hits')?.shadowRoot?.textContent?.includes('Initech Lamp') === true,
    );
    assert.ok((await hitTexts()).every((text) => /Initech Lamp/.test(text)));
    assert.ok(answeredBy.length > 0, 'queries were answered');
    assert.ok(
      answeredBy.every((host) => host !== replicas[0]!.url),
      'by the replicas left',
    );
    await noErrorShown();
  });
});
