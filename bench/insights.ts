/**
 * Insights: a scripted shopping session in real Chromium (playwright-core, Debian Chromium) against the
 * in-process local service — search, scroll through 40 hits, click two, convert one, leave the page — and
 * the `/1/events` requests it costs: `<svc-search>`'s insights queue (one request per flush, a beacon on
 * unload) next to search-insights (the hosted service's own library) fed the very same events, one call
 * per event as InstantSearch's insights middleware makes them.
 *
 * `npm run bench insights` prints the table. Events are counted where they land: in the service's store.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { createService, DEV_CREDENTIALS } from '../service/src/index.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const INDEX = 'bench_insights';
const HITS = 40;
/** The userToken search-insights sends with, so its events are counted apart from ours. */
const MIRROR_TOKEN = 'bench-search-insights';

const ENTRY = `
import './src/elements/search/define.js';
import './src/elements/search-box/define.js';
import './src/elements/hits/define.js';
import aa from 'search-insights';
window.aa = aa;
`;

const PAGE = (origin: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>insights bench</title>
<style>body { margin: 0; font: 16px system-ui } svc-hits::part(item) { block-size: 110px; box-sizing: border-box }</style>
</head><body>
<script type="module">
  import '/bundle.js';
  window.aa('init', { appId: '${DEV_CREDENTIALS.appId}', apiKey: '${DEV_CREDENTIALS.searchKey}', host: '${origin}', userToken: '${MIRROR_TOKEN}', useCookie: false });
  const search = document.createElement('svc-search');
  search.setAttribute('app-id', '${DEV_CREDENTIALS.appId}');
  search.setAttribute('api-key', '${DEV_CREDENTIALS.searchKey}');
  search.setAttribute('index-name', '${INDEX}');
  search.setAttribute('hosts', '${origin}');
  search.initialState = { hitsPerPage: ${HITS} };
  search.innerHTML = '<svc-search-box></svc-search-box><svc-hits><template><span data-text="name"></span> <button data-svc-conversion="Added to cart">Add to cart</button></template></svc-hits>';
  // search-insights gets every event our module sends, one call each (what InstantSearch does per event).
  search.addEventListener('svc-insights', (e) => window.aa('sendEvents', [{ ...e.detail.event, userToken: '${MIRROR_TOKEN}' }]));
  document.body.append(search);
  window.benchSearch = search;
</script>
</body></html>`;

interface Counts {
  requests: number;
  beacons: number;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-insights-'));
  const service = await createService({ dataDir });
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    minify: true,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]!.text;

  const ours: Counts = { requests: 0, beacons: 0 };
  const theirs: Counts = { requests: 0, beacons: 0 };
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE(origin));
      return;
    }
    if (url === '/bundle.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(js);
      return;
    }
    if (req.method === 'POST' && url.startsWith('/1/events')) {
      if (/[?&]X-Algolia-/i.test(url)) {
        theirs.requests++;
        // search-insights names the credentials X-Algolia-*: renamed to the service's parameter names, which
        // document 2 makes case-sensitive (the service refuses any other casing).
        req.url = url
          .replace(/X-Algolia-Application-Id=/i, 'X-Service-Application-Id=')
          .replace(/X-Algolia-API-Key=/i, 'X-Service-API-Key=');
      } else {
        ours.requests++;
        if (/[?&]X-Service-API-Key=/.test(url)) ours.beacons++;
      }
    }
    service.handler(req, res, () => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // The catalogue: 60 lamps, ranked p0, p1, …
  const admin = {
    'x-service-application-id': DEV_CREDENTIALS.appId,
    'x-service-api-key': DEV_CREDENTIALS.adminKey,
    'content-type': 'application/json',
  };
  const write = async (method: string, path: string, body: unknown) => {
    const res = await fetch(origin + path, { method, headers: admin, body: JSON.stringify(body) });
    const { taskID } = (await res.json()) as { taskID: number };
    for (;;) {
      const task = (await (await fetch(`${origin}/1/indexes/${INDEX}/task/${taskID}`, { headers: admin })).json()) as {
        status: string;
      };
      if (task.status === 'published') return;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await write('PUT', `/1/indexes/${INDEX}/settings`, { searchableAttributes: ['name'], customRanking: ['asc(rank)'] });
  await write('POST', `/1/indexes/${INDEX}/batch`, {
    requests: Array.from({ length: 60 }, (_, i) => ({
      action: 'addObject',
      body: { objectID: `p${i}`, name: `lamp model ${i}`, rank: i },
    })),
  });

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let ourToken = '';
  let pageStats: Record<string, number> = {};
  const started = performance.now();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(origin);
    const hits = page.locator('svc-hits li[data-svc-object-id]');
    // Search.
    await page.locator('svc-search-box input').fill('lamp');
    await page.waitForFunction((n) => {
      const s = (
        window as unknown as { benchSearch: { store: { getSnapshot(): { results: { query: string } | null } } } }
      ).benchSearch;
      const items = document
        .querySelector('svc-hits')
        ?.shadowRoot?.querySelectorAll('li[data-svc-query-id]:not([data-svc-query-id=""])');
      return s.store.getSnapshot().results?.query === 'lamp' && items?.length === n;
    }, HITS);
    // Scroll through the 40 hits like a reader, a few hundred pixels at a time.
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, 260);
      await page.waitForTimeout(120);
    }
    // Click two hits, convert one.
    await hits.nth(36).click();
    await page.waitForTimeout(300);
    await hits.nth(37).click();
    await page.waitForTimeout(300);
    await hits.nth(37).locator('button').click();
    await page.waitForTimeout(300);
    ourToken = await page.evaluate(
      () => (window as unknown as { benchSearch: { insights: { userToken: string } } }).benchSearch.insights.userToken,
    );
    pageStats = await page.evaluate(() => ({
      ...(window as unknown as { benchSearch: { insights: { stats: Record<string, number> } } }).benchSearch.insights
        .stats,
    }));
    // Leave the page: pagehide flushes the rest with a beacon.
    await page.goto('about:blank');
    await page.waitForTimeout(1000);
    await page.close();
  } finally {
    await browser.close();
  }
  const seconds = (performance.now() - started) / 1000;

  const events = service.services.insights;
  const ourEvents = await events.query({ userToken: ourToken });
  const theirEvents = await events.query({ userToken: MIRROR_TOKEN });
  const kinds = (list: typeof ourEvents) =>
    ['view', 'click', 'conversion'].map((t) => `${list.filter((e) => e.eventType === t).length} ${t}`).join(', ');
  const row = (name: string, n: number, counts: Counts, detail: string) =>
    `| ${name.padEnd(29)} | ${String(n).padStart(6)} | ${String(counts.requests).padStart(8)} | ${(counts.requests ? n / counts.requests : 0).toFixed(1).padStart(8)} | ${detail} |`;
  console.log(
    `Session (${seconds.toFixed(1)} s in Chromium): search "lamp" (${HITS} hits, 110 px each), scroll through them, click two, add one to cart, leave the page.`,
  );
  console.log("Events are counted in the service's store; requests are POST /1/events seen by the server.\n");
  console.log('| library                       | events | requests | ev/req   | notes |');
  console.log('|-------------------------------|--------|----------|----------|-------|');
  console.log(
    row(
      'svc-search insights',
      ourEvents.length,
      ours,
      `${kinds(ourEvents)}; ${ours.requests - ours.beacons} fetch flushes + ${ours.beacons} beacon on unload (page stats: ${pageStats.requests} requests, ${pageStats.retries} retries)`,
    ),
  );
  console.log(
    row(
      'search-insights (same events)',
      theirEvents.length,
      theirs,
      `${kinds(theirEvents)}; one request per event call`,
    ),
  );
  const views = ourEvents.filter((e) => e.eventType === 'view');
  const viewKeys = views.flatMap((e) => (e.objectIDs ?? []).map((id) => `${e.queryID}/${id}`));
  const lampQueryID = ourEvents.find((e) => e.eventType === 'click')?.queryID;
  const lampViewed = new Set(views.filter((e) => e.queryID === lampQueryID).flatMap((e) => e.objectIDs ?? []));
  const clicks = ourEvents.filter((e) => e.eventType === 'click');
  console.log(
    `\nChecks: ${lampViewed.size} of the ${HITS} "lamp" hits viewed; ${new Set(views.map((e) => e.queryID)).size} queryIDs with views ` +
      `(the first page before typing counts too); no objectID twice per queryID: ${new Set(viewKeys).size === viewKeys.length}; ` +
      `max objectIDs per view event: ${Math.max(0, ...views.map((e) => e.objectIDs?.length ?? 0))}; ` +
      `click positions ${clicks.map((e) => e.positions?.join(',')).join(' and ')} with the search's queryID: ${clicks.every((e) => e.queryID === lampQueryID && !!e.queryID)}.`,
  );

  // The service side: how fast POST /1/events validates and stores full requests (1000 events each).
  const headers = {
    'x-service-application-id': DEV_CREDENTIALS.appId,
    'x-service-api-key': DEV_CREDENTIALS.searchKey,
    'content-type': 'application/json',
  };
  const requests = 20;
  const times: number[] = [];
  const ingestStart = performance.now();
  for (let r = 0; r < requests; r++) {
    const body = JSON.stringify({
      events: Array.from({ length: 1000 }, (_, i) => ({
        eventType: i % 10 === 0 ? 'click' : 'view',
        eventName: i % 10 === 0 ? 'Hit Clicked' : 'Hits Viewed',
        index: INDEX,
        userToken: `bench-ingest-${i % 50}`,
        timestamp: Date.now() - r * 1000 - i,
        objectIDs: i % 10 === 0 ? [`p${i % 60}`] : Array.from({ length: 5 }, (_, k) => `p${(i + k) % 60}`),
        ...(i % 10 === 0 ? { positions: [1 + (i % 40)] } : {}),
      })),
    });
    const t = performance.now();
    const res = await fetch(`${origin}/1/events`, { method: 'POST', headers, body });
    await res.text();
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
    times.push(performance.now() - t);
  }
  const ingestMs = performance.now() - ingestStart;
  times.sort((a, b) => a - b);
  console.log(
    `\nService ingest: ${requests} requests × 1000 events (validated, stored in one transaction each, synchronous FULL): ` +
      `${Math.round((requests * 1000) / (ingestMs / 1000)).toLocaleString('en')} events/s; per request median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms.`,
  );

  server.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
