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
  /** Hold each service response this long (ms). */
  delayMs?: number;
}): Promise<CrossOrigin> {
  const { createService, DEV_CREDENTIALS } = await import('../../service/src/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cross-origin-'));
  const service = await createService({ dataDir });
  const requests: ServiceRequest[] = [];
  const delayMs = options.delayMs ?? 0;
  const serviceServer = createServer((req: IncomingMessage, res: ServerResponse) => {
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
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.html']! }).end(page.replaceAll('{{service}}', serviceOrigin));
      return;
    }
    if (!path.startsWith('/dist/')) {
      res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    const file = normalize(join(options.dist, path.slice('/dist/'.length)));
    if (!file.startsWith(normalize(options.dist))) {
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
