/**
 * Pages on one origin, the real service on another (two loopback ports), real Chromium: what a site using the
 * hosted service sees. Shared by the first-paint byte tests, the cross-origin network test and `bench/network.ts`.
 *
 * - The page server serves the given HTML pages and the files of a `dist/` folder, scripts gzip-compressed (level
 *   9, as a CDN would), so Resource Timing's `encodedBodySize` is the min+gzip size of each script.
 * - The service server hands every request to the real service (`service.handler`) after logging it (method, URL,
 *   time), optionally holding each response `delayMs` (a round trip to a distant host).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { createClient } from '../../src/client/index.js';
import type { SearchClient } from '../../src/client/types.js';

export interface ServiceRequest {
  method: string;
  url: string;
  /** `Date.now()` when it arrived. */
  at: number;
}

export interface CrossOrigin {
  pageOrigin: string;
  serviceOrigin: string;
  appId: string;
  searchKey: string;
  admin: SearchClient;
  /** Every request the service received, in order (preflights included). */
  requests: ServiceRequest[];
  browser: Browser;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

/** `x-algolia-…` → `x-service-…`, in the URL parameters and the headers of a request, any case. */
function renameAlgolia(req: IncomingMessage): void {
  const url = new URL(req.url ?? '/', 'http://service');
  for (const [name, value] of [...url.searchParams]) {
    if (!/^x-algolia-/i.test(name)) continue;
    url.searchParams.delete(name);
    url.searchParams.set(name.replace(/^x-algolia-/i, 'x-service-'), value);
  }
  req.url = url.pathname + url.search;
  // Node's request keeps the headers twice: as an object and as the raw list (which Hono's adapter reads).
  for (const name of Object.keys(req.headers)) {
    if (!name.startsWith('x-algolia-')) continue;
    req.headers[name.replace('x-algolia-', 'x-service-')] = req.headers[name];
    delete req.headers[name];
  }
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    req.rawHeaders[i] = req.rawHeaders[i]!.replace(/^x-algolia-/i, 'x-service-');
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Starts the service, the page server for `pages` (path → HTML, `{{service}}` replaced by the service origin)
 * and `dist` (served under `/dist/`), and Chromium.
 *
 * @example
 * const site = await startCrossOrigin({ dist: 'dist', pages: { '/': '<script type="module" src="/dist/svc-search.js"></script>…' } });
 */
export async function startCrossOrigin(options: {
  dist: string;
  pages: Record<string, string>;
  /** Another build served under `/base-dist/` (a baseline to compare with in the same run). */
  baseDist?: string;
  /** Other files served as they are (path → content), scripts gzip-compressed like `dist/`'s. */
  files?: Record<string, string>;
  /** Load the demo catalogue (the `products` index and its replicas). */
  demo?: boolean;
  /** Hold each service response this long (ms): a service one round trip away. */
  delayMs?: number;
  /**
   * Rename the hosted API's credential names (`x-algolia-application-id`, `x-algolia-api-key`, `x-algolia-agent`,
   * in headers and URL parameters) to the service's, so the official clients can talk to it.
   */
  renameAlgolia?: boolean;
}): Promise<CrossOrigin> {
  const { createService, DEV_CREDENTIALS } = await import('../../service/src/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cross-origin-'));
  const service = await createService({ dataDir, demo: options.demo });
  const requests: ServiceRequest[] = [];
  const delayMs = options.delayMs ?? 0;
  const serviceServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (options.renameAlgolia) renameAlgolia(req);
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', at: Date.now() });
    const handle = () => service.handler(req, res, () => res.writeHead(404).end());
    if (delayMs > 0) setTimeout(handle, delayMs);
    else handle();
  });
  const serviceOrigin = await listen(serviceServer);

  const gzipped = new Map<string, Buffer>();
  const pageServer = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    const page = options.pages[path];
    const extra = options.files?.[path];
    if (extra !== undefined) {
      res
        .writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync(extra, { level: 9 }));
      return;
    }
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.html']! }).end(page.replaceAll('{{service}}', serviceOrigin));
      return;
    }
    const [prefix, folder] =
      options.baseDist && path.startsWith('/base-dist/') ? ['/base-dist/', options.baseDist] : ['/dist/', options.dist];
    if (!path.startsWith(prefix)) {
      res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    const file = normalize(join(folder, path.slice(prefix.length)));
    if (!file.startsWith(normalize(folder))) {
      res.writeHead(403).end();
      return;
    }
    let body = gzipped.get(file);
    try {
      body ??= gzipSync(readFileSync(file), { level: 9 });
    } catch {
      res.writeHead(404).end();
      return;
    }
    gzipped.set(file, body);
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-encoding': 'gzip',
        'cache-control': 'no-store',
      })
      .end(body);
  });
  const pageOrigin = await listen(pageServer);

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless=new',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
    ],
  });
  const admin = createClient({
    appId: DEV_CREDENTIALS.appId,
    apiKey: DEV_CREDENTIALS.adminKey,
    hosts: [serviceOrigin],
    cache: false,
  });
  return {
    pageOrigin,
    serviceOrigin,
    appId: DEV_CREDENTIALS.appId,
    searchKey: DEV_CREDENTIALS.searchKey,
    admin,
    requests,
    browser,
    async close() {
      await browser.close();
      for (const server of [pageServer, serviceServer]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a page loaded before its first hit was painted, and after. */
export interface FirstPaint {
  /** ms from navigation start to the frame that painted the first hit. */
  paintedAt: number;
  /** Scripts whose response ended before that frame: path and gzip bytes. */
  before: Array<{ path: string; bytes: number; end: number }>;
  /** Scripts loaded after it (up to when the page was measured). */
  after: Array<{ path: string; bytes: number; end: number }>;
}

/**
 * The script to evaluate in the page (a string: tsx's helpers must not leak into a serialized function): waits for
 * the first `li` of `<svc-hits>` and the frame that paints it, then (after `settleMs`) reads Resource Timing for
 * the scripts (gzip bytes from `encodedBodySize`). Evaluates to a {@link FirstPaint}.
 *
 * @example
 * const result: FirstPaint = await page.evaluate(firstPaintScript(1500));
 */
export const firstPaintScript = (settleMs: number): string => `(async () => {
  const paintedAt = await new Promise((resolve) => {
    const check = () => {
      const hit = document.querySelector('svc-hits')?.shadowRoot?.querySelector('li[data-svc-object-id]');
      // A frame callback runs just before that frame is painted: its time is when the hit reaches the screen.
      if (hit) requestAnimationFrame((time) => resolve(time));
      else requestAnimationFrame(check);
    };
    check();
  });
  await new Promise((resolve) => setTimeout(resolve, ${settleMs}));
  const scripts = performance
    .getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
    .map((entry) => ({ path: new URL(entry.name).pathname, bytes: entry.encodedBodySize, end: entry.responseEnd }));
  return {
    paintedAt,
    before: scripts.filter((script) => script.end <= paintedAt),
    after: scripts.filter((script) => script.end > paintedAt),
  };
})()`;

/** A page measured: what loaded before and after its first hit, and the search requests its load made. */
export interface MeasuredPage extends FirstPaint {
  searches: number;
}

/**
 * Opens `path` in a fresh browser context and measures its first paint (see {@link firstPaintScript}); page
 * errors fail the measure.
 *
 * @example
 * const { before } = await measurePage(site, '/six', 1500);
 */
export async function measurePage(site: CrossOrigin, path: string, settleMs: number): Promise<MeasuredPage> {
  const context = await site.browser.newContext();
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(String(error)));
  const start = site.requests.length;
  await tab.goto(site.pageOrigin + path);
  const result = (await tab.evaluate(firstPaintScript(settleMs))) as FirstPaint;
  const searches = site.requests
    .slice(start)
    .filter((request) => request.method === 'POST' && request.url.startsWith('/1/indexes/*/queries')).length;
  await context.close();
  if (errors.length) throw new Error(`errors on ${path}: ${errors.join('; ')}`);
  return { ...result, searches };
}

/** The total gzip bytes of `scripts`. */
export const scriptBytes = (scripts: FirstPaint['before']): number =>
  scripts.reduce((total, script) => total + script.bytes, 0);
