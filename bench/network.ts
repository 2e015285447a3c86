/**
 * The network as a user meets it, in real Chromium, pages on another origin than the real service (two loopback
 * ports), our loader page (`dist/`) next to InstantSearch.js + algoliasearch/lite (bundled here with esbuild) in
 * the same run, both through the same loopback service front (it renames the hosted API's `x-algolia-*`
 * credentials for InstantSearch's client):
 *
 * 1. Preflights: load, type 10 characters, refine, change page — how many `OPTIONS` reach the service.
 * 2. Keystroke → hits painted with a service 50 ms away (every response held 50 ms): p50 / p95 per side, ratio.
 * 3. Requests per scripted session (type "laptop", refine brand and color, pages 2, 3 and back to 2) at several
 *    typing cadences, and keystroke → hits painted on 100,000 records with no added delay.
 *
 * `SVC_BENCH_DIST=/path/to/dist` measures another build of ours with the same script; `SVC_BENCH_BASELINE_DIST` adds
 * a baseline build (e.g. an earlier commit's `dist/`) measured in the same run, interleaved with the others.
 * `npm run bench -- network`.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { catalogue, indexProducts } from '../test/client/fixture.js';
import { type CrossOrigin, startCrossOrigin } from '../test/e2e/cross-origin.js';
import { loaderDist } from './loader-dist.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const SMALL = 'bench_network';
const LARGE = 'bench_network_100k';

/**
 * Our page: the loader and the search path's elements (two OR refinement lists for the scripted session); `dist`
 * is where its script comes from (`/base-dist` for the baseline build).
 */
const oursPage = (index: string, dist = '/dist') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><script type="module" src="${dist}/svc-search.js"></script></head>
<body>
<svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="${index}" hosts="{{service}}">
  <svc-configure hits-per-page="10"></svc-configure>
  <svc-search-box></svc-search-box>
  <svc-refinement-list attribute="brand"></svc-refinement-list>
  <svc-refinement-list attribute="color"></svc-refinement-list>
  <svc-hits attribute="name"></svc-hits>
  <svc-pagination></svc-pagination>
</svc-search>
</body></html>`;

/**
 * InstantSearch.js with the same widgets, its lite client on the service. No insights middleware: it would load
 * search-insights from a CDN (no network here); our side keeps its Insights on, so it does the more work.
 */
const instantSearchEntry = `
import { liteClient } from 'algoliasearch/lite';
import InstantSearch from 'instantsearch.js/es/lib/InstantSearch.js';
import searchBox from 'instantsearch.js/es/widgets/search-box/search-box.js';
import hits from 'instantsearch.js/es/widgets/hits/hits.js';
import refinementList from 'instantsearch.js/es/widgets/refinement-list/refinement-list.js';
import pagination from 'instantsearch.js/es/widgets/pagination/pagination.js';
import configure from 'instantsearch.js/es/widgets/configure/configure.js';

const service = new URL(window.SERVICE);
const client = liteClient('SVCLOCAL', 'local-search-key', {
  hosts: [{ url: service.host, protocol: 'http', accept: 'readWrite' }],
});
const search = new InstantSearch({ indexName: window.INDEX, searchClient: client });

search.addWidgets([
  configure({ hitsPerPage: 10 }),
  searchBox({ container: '#searchbox' }),
  refinementList({ container: '#brand', attribute: 'brand' }),
  refinementList({ container: '#color', attribute: 'color' }),
  hits({ container: '#hits', templates: { item: (hit, { components }) => components.Highlight({ attribute: 'name', hit }) } }),
  pagination({ container: '#pagination' }),
]);
search.start();
`;

const instantSearchPage = (index: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<script>window.SERVICE = '{{service}}'; window.INDEX = '${index}';</script>
<script type="module" src="/instantsearch.js"></script></head>
<body><div id="searchbox"></div><div id="brand"></div><div id="color"></div><div id="hits"></div><div id="pagination"></div></body></html>`;

/**
 * In-page helpers (a string: evaluated as is). `hitsMarkup()` is what the hit list shows (shadow roots included);
 * `nextChange(before)` resolves with the time from the last keydown to the frame that paints a different list.
 */
const PAGE_HELPERS = `(() => {
  let lastKey = 0;
  document.addEventListener('keydown', (event) => { lastKey = event.timeStamp; }, true);
  const deep = (node) => {
    let out = node.shadowRoot ? deep(node.shadowRoot) : '';
    for (const child of node.childNodes)
      out += child.nodeType === 1 ? '<' + child.localName + '>' + deep(child) + '</>' : child.textContent;
    return out;
  };
  window.__bench = {
    hitsMarkup: () => {
      const ours = document.querySelector('svc-hits');
      const list = ours ? ours.shadowRoot?.querySelector('ol') : document.querySelector('#hits');
      return list ? deep(list) : '';
    },
    nextChange: (before) => new Promise((resolve) => {
      const give = setTimeout(() => resolve(null), 5000);
      const check = (time) => {
        if (window.__bench.hitsMarkup() !== before) { clearTimeout(give); resolve(time - lastKey); }
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }),
  };
})()`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function openPage(site: CrossOrigin, path: string): Promise<Page> {
  const page = await site.browser.newPage();
  await page.goto(site.pageOrigin + path);
  await page.evaluate(PAGE_HELPERS);
  await page.waitForFunction('window.__bench.hitsMarkup().length > 0', undefined, { timeout: 15000 });
  await page.waitForTimeout(300);
  return page;
}

/** The search field of either page. */
async function focusSearch(page: Page): Promise<void> {
  const ours = page.locator('svc-search-box input');
  if (await ours.count()) await ours.focus();
  else await page.locator('#searchbox input').focus();
}

/** Words whose every prefix changes the hits shown (the highlighted part at least). */
const WORDS = ['camera', 'delta', 'speak'];

/** Keystrokes whose hits did not change within 5 s (not counted in the latencies), per page. */
const unchanged: Record<string, number> = {};

/** Keystroke → hits painted, one keystroke at a time (each waits for its hits), over `text`. */
async function keystrokeLatencies(page: Page, text: string): Promise<number[]> {
  await focusSearch(page);
  const latencies: number[] = [];
  for (const character of text) {
    const before = await page.evaluate('window.__bench.hitsMarkup()');
    await page.keyboard.type(character);
    const latency = (await page.evaluate(`window.__bench.nextChange(${JSON.stringify(before)})`)) as number | null;
    if (latency === null) {
      const path = new URL(page.url()).pathname;
      unchanged[path] = (unchanged[path] ?? 0) + 1;
    } else latencies.push(latency);
    await page.waitForTimeout(120);
  }
  return latencies;
}

/** Clicks the first checkbox of the refinement list of `attribute` whose label starts with `value`. */
async function refine(page: Page, attribute: string, value: string): Promise<void> {
  const ours = page.locator(`svc-refinement-list[attribute="${attribute}"] label`).filter({ hasText: value });
  if (await ours.count()) await ours.first().click();
  else await page.locator(`#${attribute} label`).filter({ hasText: value }).first().click();
}

async function goToPage(page: Page, number: number): Promise<void> {
  const ours = page.locator('svc-pagination a', { hasText: new RegExp(`^\\s*${number}\\s*$`) });
  if (await ours.count()) await ours.first().click();
  else
    await page
      .locator('#pagination a', { hasText: new RegExp(`^\\s*${number}\\s*$`) })
      .first()
      .click();
}

const searchesSince = (site: CrossOrigin, start: number) =>
  site.requests.slice(start).filter((r) => r.method === 'POST' && r.url.startsWith('/1/indexes/*/queries')).length;

/** The scripted session; typing `delay` ms between keys; returns the search requests it made (page load included). */
async function session(site: CrossOrigin, path: string, delay: number): Promise<number> {
  const start = site.requests.length;
  const page = await openPage(site, path);
  await focusSearch(page);
  await page.keyboard.type('laptop', { delay });
  await page.waitForTimeout(600);
  await refine(page, 'brand', 'Acme');
  await page.waitForTimeout(600);
  await refine(page, 'color', 'red');
  await page.waitForTimeout(600);
  for (const number of [2, 3, 2]) {
    await goToPage(page, number);
    await page.waitForTimeout(600);
  }
  await page.close();
  return searchesSince(site, start);
}

async function bundleInstantSearch(): Promise<string> {
  const result = await build({
    stdin: { contents: instantSearchEntry, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export async function run(): Promise<void> {
  const dist = loaderDist();
  const files = { '/instantsearch.js': await bundleInstantSearch() };
  const baseDist = process.env.SVC_BENCH_BASELINE_DIST;
  const pages = {
    '/ours': oursPage(SMALL),
    '/is': instantSearchPage(SMALL),
    '/ours-100k': oursPage(LARGE),
    '/is-100k': instantSearchPage(LARGE),
    '/base': oursPage(SMALL, '/base-dist'),
    '/base-100k': oursPage(LARGE, '/base-dist'),
  };
  /** The pages compared: ours, the baseline build when given, InstantSearch.js. */
  const sides = (suffix: string) => [`/ours${suffix}`, ...(baseDist ? [`/base${suffix}`] : []), `/is${suffix}`];
  const label = (path: string) =>
    path.startsWith('/ours')
      ? 'svc-search'
      : path.startsWith('/base')
        ? 'svc-search, baseline build'
        : 'InstantSearch.js';
  console.log(`ours: ${dist}; InstantSearch.js + algoliasearch/lite bundled with esbuild; Chromium headless\n`);

  // 1 and 2: a service 50 ms away.
  const far = await startCrossOrigin({ dist, baseDist, pages, files, delayMs: 50, renameAlgolia: true });
  try {
    await indexProducts(far.admin, SMALL, catalogue(2000));
    console.log('### Preflights (load, type 10 characters, refine, page 2), service 50 ms away\n');
    console.log('| page | OPTIONS | searches |');
    console.log('|---|---:|---:|');
    for (const path of sides('')) {
      const start = far.requests.length;
      const page = await openPage(far, path);
      await focusSearch(page);
      await page.keyboard.type('acme lapto', { delay: 150 });
      await page.waitForTimeout(800);
      await refine(page, 'color', 'red');
      await page.waitForTimeout(800);
      await goToPage(page, 2);
      await page.waitForTimeout(800);
      await page.close();
      const options = far.requests.slice(start).filter((r) => r.method === 'OPTIONS').length;
      console.log(`| ${label(path)} | ${options} | ${searchesSince(far, start)} |`);
    }

    console.log('\n### Keystroke → hits painted, service 50 ms away (each response held 50 ms)\n');
    const delayed: Record<string, number[]> = Object.fromEntries(sides('').map((path) => [path, []]));
    for (let round = 0; round < 2; round++) {
      for (const word of WORDS) {
        for (const path of sides('')) {
          const page = await openPage(far, path);
          delayed[path]!.push(...(await keystrokeLatencies(page, word)));
          await page.close();
        }
      }
    }
    console.log('| page | keystrokes | p50 | p95 | p99 |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [path, values] of Object.entries(delayed)) {
      console.log(
        `| ${label(path)} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(percentile(values, 99))} |`,
      );
    }
    console.log(`keystrokes whose hits did not change within 5 s (left out): ${JSON.stringify(unchanged)}`);
    console.log(
      `\nratio svc-search / InstantSearch.js: p50 ${(percentile(delayed['/ours']!, 50) / percentile(delayed['/is']!, 50)).toFixed(2)}, p95 ${(percentile(delayed['/ours']!, 95) / percentile(delayed['/is']!, 95)).toFixed(2)}`,
    );
  } finally {
    await far.close();
  }

  // 3: requests per session, and keystroke → hits painted on 100k records, no added delay.
  const near = await startCrossOrigin({ dist, baseDist, pages, files, renameAlgolia: true });
  try {
    await indexProducts(near.admin, SMALL, catalogue(2000));
    console.log('\n### Search requests per scripted session (type "laptop", brand, color, pages 2, 3, 2)\n');
    console.log(`| typing (ms between keys) | ${sides('').map(label).join(' | ')} |`);
    console.log(
      `|---|${sides('')
        .map(() => '---:')
        .join('|')}|`,
    );
    for (const delay of [0, 10, 30, 100]) {
      const counts: number[] = [];
      for (const path of sides('')) counts.push(await session(near, path, delay));
      console.log(`| ${delay} | ${counts.join(' | ')} |`);
    }

    const started = Date.now();
    const records = catalogue(100_000);
    // Batches of 10,000 records: a request body stays under the service's 10 MB limit.
    for (let i = 0; i < records.length; i += 10_000)
      await indexProducts(near.admin, LARGE, records.slice(i, i + 10_000));
    console.log(
      `\n### Keystroke → hits painted, 100,000 records (indexed in ${Date.now() - started} ms), no added delay\n`,
    );
    const large: Record<string, number[]> = Object.fromEntries(sides('-100k').map((path) => [path, []]));
    for (let round = 0; round < 2; round++) {
      for (const word of WORDS) {
        for (const path of sides('-100k')) {
          const page = await openPage(near, path);
          large[path]!.push(...(await keystrokeLatencies(page, word)));
          await page.close();
        }
      }
    }
    console.log('| page | keystrokes | p50 | p95 | p99 |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [path, values] of Object.entries(large)) {
      console.log(
        `| ${label(path)} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(percentile(values, 99))} |`,
      );
    }
  } finally {
    await near.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
