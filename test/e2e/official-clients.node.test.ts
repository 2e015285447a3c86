/**
 * The official clients' browser builds, as a site would use them, in real Chromium, against the local
 * service behind a renaming proxy on loopback (the audit's set-up: the proxy turns every `X-Algolia-*` header,
 * URL parameter name and CORS header list into `X-Service-*` and back), from a page of another origin:
 * - `algoliasearch/lite`, `@algolia/recommend`, `@algolia/client-query-suggestions`,
 *   `@algolia/client-personalization` send the credentials as lower-case URL parameters with a `text/plain`
 *   body: every call is answered, as a CORS simple request (no preflight);
 * - InstantSearch.js with its insights middleware and search-insights: the page loads with no error (its
 *   `instantsearch` start event is acknowledged), and a refinement's `Filter Applied` event, whose filters
 *   search-insights URL-encodes, is stored decoded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createService, DEV_CREDENTIALS, type Service } from '../../service/src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INDEX = 'official_clients';
const { appId, adminKey, searchKey } = DEV_CREDENTIALS;

/** `X-Algolia-…` → `X-Service-…` (and `x-algolia-…` → `x-service-…`), keeping the case style. */
const toService = (name: string) =>
  name.replace(/^(x)-algolia-/i, (_, x: string) => (x === 'X' ? 'X-Service-' : 'x-service-'));
const toServiceList = (list: string) =>
  list.replace(/x-algolia-/gi, (m) => (m[0] === 'X' ? 'X-Service-' : 'x-service-'));
const toAlgoliaList = (list: string) =>
  list.replace(/x-service-/gi, (m) => (m[0] === 'X' ? 'X-Algolia-' : 'x-algolia-'));

interface Proxied {
  method: string;
  /** Path and query string as forwarded (renamed). */
  url: string;
  contentType: string | undefined;
  credentialHeaders: boolean;
  status: number;
  body: string;
}

/** The page's script: the official browser builds, bundled by esbuild as a site's bundler would. */
const ENTRY = `
import { liteClient } from 'algoliasearch/lite';
import { recommendClient } from '@algolia/recommend';
import { querySuggestionsClient } from '@algolia/client-query-suggestions';
import { personalizationClient } from '@algolia/client-personalization';
import instantsearch from 'instantsearch.js';
import { searchBox, hits, refinementList } from 'instantsearch.js/es/widgets';
import aa from 'search-insights';

const hostsOf = (proxy) => [{ url: new URL(proxy).host, protocol: 'http', accept: 'readWrite' }];

window.callClients = async ({ proxy, appId, searchKey, adminKey, index }) => {
  const hosts = hostsOf(proxy);
  const search = liteClient(appId, searchKey, { hosts });
  const { results } = await search.search({ requests: [{ indexName: index, query: 'phone', hitsPerPage: 3 }] });
  const recommend = recommendClient(appId, searchKey, { hosts });
  const recommended = await recommend.getRecommendations({
    requests: [{ indexName: index, model: 'trending-items', threshold: 0, maxRecommendations: 2 }],
  });
  const suggestions = querySuggestionsClient(appId, adminKey, 'us', { hosts });
  const configs = await suggestions.getAllConfigs();
  const personalization = personalizationClient(appId, adminKey, 'us', { hosts });
  const strategy = await personalization.getPersonalizationStrategy();
  return {
    nbHits: results[0].nbHits,
    recommended: recommended.results[0].hits.length,
    configs: configs.length,
    personalizationImpact: strategy.personalizationImpact,
  };
};

window.startInstantSearch = ({ proxy, appId, searchKey, index }) => {
  const search = instantsearch({
    indexName: index,
    searchClient: liteClient(appId, searchKey, { hosts: hostsOf(proxy) }),
    insights: { insightsClient: aa, insightsInitParams: { host: proxy, useCookie: false, userToken: 'e2e-user' } },
  });
  search.addWidgets([
    searchBox({ container: '#box' }),
    refinementList({ container: '#brands', attribute: 'brand' }),
    hits({ container: '#hits' }),
  ]);
  search.start();
};
`;

describe('the official clients through a renaming proxy, from another origin (Chromium)', () => {
  let service: Service;
  let dataDir: string;
  let serviceUrl: URL;
  let proxy: Server;
  let proxyOrigin: string;
  let pages: Server;
  let pageOrigin: string;
  let browser: Browser;
  let page: Page;
  const proxied: Proxied[] = [];
  const pageErrors: string[] = [];

  async function admin(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(new URL(path, serviceUrl), {
      method,
      headers: { 'content-type': 'application/json', 'x-service-application-id': appId, 'x-service-api-key': adminKey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    assert.ok(response.ok, `${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** Forwards a request to the service with every X-Algolia name renamed, and the CORS lists renamed back. */
  function forward(req: IncomingMessage, res: ServerResponse): void {
    const incoming = new URL(req.url ?? '/', 'http://proxy');
    const params = new URLSearchParams();
    for (const [name, value] of incoming.searchParams) params.append(toService(name), value);
    const url = `${incoming.pathname}${params.size > 0 ? `?${params}` : ''}`;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host') continue;
      headers[toService(name)] = name === 'access-control-request-headers' ? toServiceList(String(value)) : value;
    }
    const upstream = httpRequest(
      { host: serviceUrl.hostname, port: serviceUrl.port, method: req.method, path: url, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value === undefined) continue;
            out[name] = name === 'access-control-allow-headers' ? toAlgoliaList(String(value)) : value;
          }
          res.writeHead(answer.statusCode ?? 502, out).end(body);
          proxied.push({
            method: req.method ?? '',
            url,
            contentType: req.headers['content-type'],
            credentialHeaders: 'x-algolia-api-key' in req.headers,
            status: answer.statusCode ?? 0,
            body: requestBodies.get(req) ?? '',
          });
        });
      },
    );
    const requestBody: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      requestBody.push(chunk);
      upstream.write(chunk);
    });
    req.on('end', () => {
      requestBodies.set(req, Buffer.concat(requestBody).toString('utf8'));
      upstream.end();
    });
  }
  const requestBodies = new WeakMap<IncomingMessage, string>();

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-clients-'));
    service = await createService({ dataDir });
    serviceUrl = new URL((await service.listen(0, '127.0.0.1')).url);
    await admin('PUT', `/1/indexes/${INDEX}/settings`, {
      searchableAttributes: ['name'],
      attributesForFaceting: ['brand'],
      customRanking: ['desc(popularity)'],
    });
    await admin('POST', `/1/indexes/${INDEX}/batch`, {
      requests: [
        { objectID: 'a1', name: 'Acme phone', brand: 'Acme', popularity: 3 },
        { objectID: 'a2', name: 'Acme phone mini', brand: 'Acme', popularity: 2 },
        { objectID: 'g1', name: 'Global phone', brand: 'Global', popularity: 1 },
      ].map((body) => ({ action: 'addObject', body })),
    });
    await admin('POST', '/1/strategies/personalization', {
      eventsScoring: [{ eventName: 'Purchase', eventType: 'conversion', score: 50 }],
      facetsScoring: [{ facetName: 'brand', score: 100 }],
      personalizationImpact: 60,
    });

    proxy = createServer(forward);
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const bundle = await build({
      stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'official-clients-entry.js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0]!.text;
    pages = createServer((req, res) => {
      if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else if (req.url === '/') {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>shop</title>' +
              '<script type="module" src="/bundle.js"></script></head>' +
              '<body><div id="box"></div><div id="brands"></div><div id="hits"></div></body></html>',
          );
      } else res.writeHead(204).end();
    });
    await new Promise<void>((done) => pages.listen(0, '127.0.0.1', done));
    // Another origin than the proxy's: every call is cross-origin (localhost vs 127.0.0.1 would do too).
    pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(`${pageOrigin}/`);
    await page.waitForFunction(() => 'callClients' in window);
  });

  after(async () => {
    // A browser that fails to close must not leave the servers below listening (the run would wait forever).
    await browser?.close().catch(() => undefined);
    for (const server of [pages, proxy])
      await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('search, Recommend, Query Suggestions and Personalization clients: credentials in the URL, text/plain, no preflight', async () => {
    const answer = await page.evaluate(
      (args) => (window as unknown as { callClients: (a: unknown) => Promise<unknown> }).callClients(args),
      { proxy: proxyOrigin, appId, searchKey, adminKey, index: INDEX },
    );
    assert.deepEqual(answer, { nbHits: 3, recommended: 0, configs: 0, personalizationImpact: 60 });
    const calls = proxied.filter((p) => /^\/1\/(indexes|configs|strategies)/.test(p.url));
    assert.ok(calls.length >= 4, JSON.stringify(calls));
    for (const call of calls) {
      assert.equal(call.status, 200, `${call.method} ${call.url}`);
      assert.notEqual(call.method, 'OPTIONS', `a preflight for ${call.url}: not a simple request`);
      assert.equal(call.credentialHeaders, false, `${call.url}: credentials in headers`);
      assert.match(call.url, /x-service-api-key=/, 'lower-case URL parameters, renamed by the proxy');
      if (call.method === 'POST') assert.match(call.contentType ?? '', /^text\/plain/);
    }
    assert.deepEqual(pageErrors, []);
  });

  it('InstantSearch with insights: no error on load (its start event is acknowledged), a refinement’s filter is stored decoded', async () => {
    await page.evaluate(
      (args) => (window as unknown as { startInstantSearch: (a: unknown) => void }).startInstantSearch(args),
      { proxy: proxyOrigin, appId, searchKey, index: INDEX },
    );
    await page.locator('#hits li').first().waitFor();
    const start = await waitFor(() =>
      proxied.find((p) => p.url.startsWith('/1/events') && p.body.includes('"instantsearch"')),
    );
    assert.equal(start.status, 200, start.body);
    assert.equal(start.method, 'POST');

    await page.locator('#brands').getByText('Acme').click();
    const applied = await waitFor(() =>
      proxied.find((p) => p.url.startsWith('/1/events') && p.body.includes('Filter Applied')),
    );
    assert.match(applied.body, /brand%3AAcme/, 'search-insights sends the filter URL-encoded');
    assert.equal(applied.status, 200, applied.body);
    const { events } = await admin('GET', '/1/_local/events?userToken=e2e-user');
    const filters = events
      .filter((e: { filters?: string[] }) => e.filters)
      .map((e: { filters: string[] }) => e.filters);
    assert.deepEqual(filters, [['brand:Acme']]);
    assert.ok(
      !events.some((e: { eventType: string }) => e.eventType === 'instantsearch'),
      'the start event is not stored',
    );
    assert.ok(!proxied.some((p) => p.method === 'OPTIONS'), 'no preflight at all');
    assert.deepEqual(pageErrors, []);
  });
});

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    assert.ok(Date.now() - started < timeoutMs, 'not seen in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
