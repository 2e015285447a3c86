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
  /** More response headers of some pages (path → headers): a Content-Security-Policy. */
  pageHeaders?: Record<string, Record<string, string>>;
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
  /**
   * Called with the path of each `dist/` file requested, as the request arrives; the response is sent once the
   * promise it returns (if any) settles: a test holds some files to order what the page can do.
   */
  beforeServe?: (path: string) => Promise<void> | undefined;
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
  const pageServer = createServer(async (req, res) => {
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
      res
        .writeHead(200, { 'content-type': TYPES['.html']!, ...options.pageHeaders?.[path] })
        .end(page.replaceAll('{{service}}', serviceOrigin));
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
    await options.beforeServe?.(path);
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

/** A script the page loaded: path, gzip bytes, and when its request started and its response ended (ms). */
export interface LoadedScript {
  path: string;
  bytes: number;
  start: number;
  end: number;
}

/** What a page loaded before its first hit was painted, and after. */
export interface FirstPaint {
  /** ms from navigation start to the frame that paints the first hit (taken in that frame, before its paint). */
  paintedAt: number;
  /** Scripts requested before that frame: path and gzip bytes. */
  before: LoadedScript[];
  /** Scripts requested after it (up to when the page was measured). */
  after: LoadedScript[];
  /** Paths of the page's `<link rel="modulepreload">` (the loader fetches an element chunk's imports with it). */
  preloaded: string[];
}

/**
 * The script to add to a page before its own scripts run (`addInitScript`): it watches `<svc-hits>`' shadow root
 * from its creation, and at the mutation that inserts the first record item (a microtask of the task that rendered
 * it) asks for an animation frame. That frame is the first to paint the hit: its callback runs after the insertion
 * and before the frame's paint, and its `performance.now()` is `window.__svcFirstPaint`'s value.
 *
 * Why this rather than polling in frames and taking a frame's timestamp: a frame's timestamp is when the frame
 * began (it can precede the insertion it paints), and a poll that sees the hit and then waits for the next frame
 * names a moment one frame late — after the product has already requested Insights (which it does right after the
 * painting frame), so on a fast loopback the Insights chunk was sometimes counted in the first paint. Here the
 * boundary is an order of the event loop, not a race: a script requested after the painting frame's callbacks
 * cannot have been needed to paint it.
 */
export const FIRST_PAINT_INIT = `(() => {
  const attachShadow = Element.prototype.attachShadow;
  let painted;
  window.__svcFirstPaint = new Promise((resolve) => {
    painted = resolve;
  });
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (this.localName !== 'svc-hits') return root;
    const observer = new MutationObserver(() => {
      if (!root.querySelector('li[data-svc-object-id]')) return;
      observer.disconnect();
      requestAnimationFrame(() => painted(performance.now()));
    });
    observer.observe(root, { childList: true, subtree: true });
    return root;
  };
})()`;

/**
 * The script to evaluate in a page that ran {@link FIRST_PAINT_INIT} (a string: tsx's helpers must not leak into a
 * serialized function): waits for the frame that paints the first hit, then until a script whose path contains
 * `loadedLater` (if given) has loaded (10 s at most), then `settleMs`, and reads Resource Timing for the scripts (gzip bytes from
 * `encodedBodySize`). Scripts whose request started before that frame count as the first paint's. Evaluates to a
 * {@link FirstPaint}.
 *
 * @example
 * await page.addInitScript(FIRST_PAINT_INIT);
 * const result: FirstPaint = await page.evaluate(firstPaintScript(300, 'chunks/insights-'));
 */
export const firstPaintScript = (settleMs: number, loadedLater?: string): string => `(async () => {
  const paintedAt = await window.__svcFirstPaint;
  const scripts = () =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({
        path: new URL(entry.name).pathname,
        bytes: entry.encodedBodySize,
        start: entry.startTime,
        end: entry.responseEnd,
      }));
  const later = ${JSON.stringify(loadedLater ?? null)};
  // Bounded: a page that never loads it is measured as it is (and a test expecting it there fails).
  const deadline = performance.now() + 10000;
  while (later && performance.now() < deadline && !scripts().some((s) => s.path.includes(later) && s.end > 0))
    await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, ${settleMs}));
  const loaded = scripts();
  return {
    paintedAt,
    preloaded: [...document.querySelectorAll('link[rel=modulepreload]')].map((link) => new URL(link.href).pathname),
    before: loaded.filter((script) => script.start < paintedAt),
    after: loaded.filter((script) => script.start >= paintedAt),
  };
})()`;

/** A page measured: what loaded before and after its first hit, and the search requests its load made. */
export interface MeasuredPage extends FirstPaint {
  searches: number;
}

/**
 * Opens `path` in a fresh browser context and measures its first paint (see {@link FIRST_PAINT_INIT} and
 * {@link firstPaintScript}: waits for the Insights chunk, which loads after the first paint, then `settleMs`);
 * page errors fail the measure.
 *
 * @example
 * const { before } = await measurePage(site, '/six', 300);
 */
export async function measurePage(site: CrossOrigin, path: string, settleMs: number): Promise<MeasuredPage> {
  const context = await site.browser.newContext();
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(String(error)));
  await tab.addInitScript(FIRST_PAINT_INIT);
  const start = site.requests.length;
  await tab.goto(site.pageOrigin + path);
  const result = (await tab.evaluate(firstPaintScript(settleMs, '/chunks/insights-'))) as FirstPaint;
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
