/**
 * Time to first hits painted: the server-rendered page of `examples/ssr` next to the same page rendered in the
 * browser only (`/client/search`: the same tags, the same elements, the loader searches once it has loaded), in the
 * same run, loads interleaved, in real Chromium.
 *
 * The browser is one round trip away from everything, as in `bench/network.ts`: every response it gets — the page,
 * the scripts, the searches — is held 50 ms by a loopback proxy in front of the example server and one in front of
 * the service. The page server searches the service directly (`--server-hosts`), as a site's server next to its
 * search service does.
 *
 * "Painted": the frame callback of the first frame in which `<svc-hits>` holds a hit (a callback runs just before
 * its frame is painted), timed from navigation start by a script installed before the page's own.
 * `npm run bench -- ssr`.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { ensureLibraryBuilt, launchChromium, startDemoService, startNpmServer } from '../test/e2e/ssr-fixture.js';

const DELAY_MS = 50;
const LOADS = 15;
const STATE = '?q=chair&refinementList%5Bbrand%5D=Global';

/** Forwards every request to `target` and holds each response `delayMs` before sending it (a distant host). */
async function startDelayingProxy(target: string, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const forward = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          setTimeout(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          }, delayMs);
        });
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Installed before the page's scripts: the time of the first frame painting a hit, from navigation start. */
const RECORD_FIRST_HIT = `(() => {
  const check = (time) => {
    const hit = document.querySelector('svc-hits')?.shadowRoot?.querySelector('li[data-svc-object-id]');
    if (hit) window.__firstHitPainted = time;
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export async function run(): Promise<void> {
  ensureLibraryBuilt();
  const service = await startDemoService();
  const serviceFront = await startDelayingProxy(service.url, DELAY_MS);
  const example = await startNpmServer('example:ssr', [
    '--port',
    '0',
    '--hosts',
    serviceFront.url,
    '--server-hosts',
    service.url,
    '--app-id',
    service.appId,
    '--api-key',
    service.searchKey,
  ]);
  const pageFront = await startDelayingProxy(example.url, DELAY_MS);
  const browser = await launchChromium();
  const times: Record<'ssr' | 'client', number[]> = { ssr: [], client: [] };
  const searches: Record<'ssr' | 'client', number> = { ssr: 0, client: 0 };
  const load = os.loadavg();
  try {
    for (let i = 0; i < LOADS * 2 + 2; i++) {
      const kind = i % 2 === 0 ? 'ssr' : 'client';
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.addInitScript(RECORD_FIRST_HIT);
      let searched = 0;
      page.on('request', (request) => {
        if (request.url().includes('/1/indexes/')) searched += 1;
      });
      await page.goto(`${pageFront.url}${kind === 'ssr' ? '/search' : '/client/search'}${STATE}`);
      await page.waitForFunction('window.__firstHitPainted !== undefined', undefined, { timeout: 20_000 });
      const painted = (await page.evaluate('window.__firstHitPainted')) as number;
      await context.close();
      // The first load of each kind warms the page server and the service (not counted).
      if (i < 2) continue;
      times[kind].push(painted);
      searches[kind] += searched;
    }
  } finally {
    await browser.close();
    await pageFront.close();
    await example.close();
    await serviceFront.close();
    await service.close();
  }
  const median = (kind: 'ssr' | 'client') => percentile(times[kind], 50);
  const p95 = (kind: 'ssr' | 'client') => percentile(times[kind], 95);
  // With 15 loads the p99 is the slowest load (and so is the p95: its rank, 14.25, rounds up to 15).
  const p99 = (kind: 'ssr' | 'client') => percentile(times[kind], 99);
  console.log(
    `Time to first hits painted, ${LOADS} loads each (interleaved), every browser response held ${DELAY_MS} ms; "${STATE}" on the demo catalogue`,
  );
  console.log(
    `load average before: ${load.map((value) => value.toFixed(2)).join(' / ')} (1 / 5 / 15 min) on ${os.cpus().length} cores`,
  );
  console.log('| page | median | p95 | p99 (slowest) | search requests from the browser |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const kind of ['ssr', 'client'] as const) {
    const name = kind === 'ssr' ? 'server-rendered (`/search`)' : 'client-only (`/client/search`)';
    console.log(
      `| ${name} | ${median(kind).toFixed(1)} ms | ${p95(kind).toFixed(1)} ms | ${p99(kind).toFixed(1)} ms | ${searches[kind]} |`,
    );
  }
  console.log(
    `ratio server-rendered / client-only: median ${(median('ssr') / median('client')).toFixed(3)}, p95 ${(p95('ssr') / p95('client')).toFixed(3)}, p99 ${(p99('ssr') / p99('client')).toFixed(3)}`,
  );
}
