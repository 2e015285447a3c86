/**
 * Bytes a page downloads, in real Chromium: a page with `<svc-search>` and the six mission elements (search box,
 * hits, refinement list, pagination, recommendations, trending) served from `dist/` on another origin than the
 * service, scripts gzip -9, counted from Resource Timing:
 * - first paint: every script requested before the frame that painted the first hit (found from the mutation that
 *   inserted it: `FIRST_PAINT_INIT` in test/e2e/cross-origin.ts);
 * - total: every script the page loaded once everything settled (the Insights module loads after the paint);
 * - the same for a page with three elements (`<svc-search>`, `<svc-search-box>`, `<svc-hits>`), and for the six
 *   elements opened from a shared link (`routing`, a state in the URL) and with `insights-consent="false"`;
 * next to InstantSearch.js built for the same six widgets with its insights middleware (esbuild, bundle, minify,
 * ES2022, gzip -9), the ratios, and the response bytes of the Shop story's searches before/after the hit lists
 * asked only for the attributes they show.
 *
 * `npm run bench -- size` (builds `dist/` with `vite build --mode loader` first; `SVC_BENCH_DIST` measures
 * another build). `test/size/first-paint.node.test.ts` holds the first paint to its ceiling.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { catalogue, indexProducts } from '../test/client/fixture.js';
import { measurePage, scriptBytes, startCrossOrigin } from '../test/e2e/cross-origin.js';
import { FIRST_PAINT_INDEX, SIX_ELEMENTS, THREE_ELEMENTS, loaderPage } from '../test/size/pages.js';
import { loaderDist } from './loader-dist.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The target of the network and bytes issue: min+gzip JavaScript before the first results are painted. */
export const FIRST_PAINT_TARGET_BYTES = 20_000;

/**
 * InstantSearch.js for the same six widgets, 1:1 — the closest widget to each of our elements — imported
 * file by file (the smallest build a careful user gets; the documented barrels `instantsearch.js/es` and
 * `instantsearch.js/es/widgets` pull in more, printed as a variant). This is the figure the ratio uses.
 */
export const INSTANTSEARCH_ENTRY = `
import { liteClient } from 'algoliasearch/lite';
import InstantSearch from 'instantsearch.js/es/lib/InstantSearch.js';
import searchBox from 'instantsearch.js/es/widgets/search-box/search-box.js';
import hits from 'instantsearch.js/es/widgets/hits/hits.js';
import refinementList from 'instantsearch.js/es/widgets/refinement-list/refinement-list.js';
import pagination from 'instantsearch.js/es/widgets/pagination/pagination.js';
import relatedProducts from 'instantsearch.js/es/widgets/related-products/related-products.js';
import trendingItems from 'instantsearch.js/es/widgets/trending-items/trending-items.js';
import { createInsightsMiddleware } from 'instantsearch.js/es/middlewares/createInsightsMiddleware.js';
const search = new InstantSearch({ indexName: 'products', searchClient: liteClient('APP', 'KEY') });
search.use(createInsightsMiddleware({}));
search.addWidgets([
  searchBox({ container: '#searchbox' }),
  hits({ container: '#hits' }),
  refinementList({ container: '#brand', attribute: 'brand' }),
  pagination({ container: '#pagination' }),
  relatedProducts({ container: '#related', objectIDs: ['1'] }),
  trendingItems({ container: '#trending' }),
]);
search.start();
`;

/** The same six widgets through the documented barrel imports. */
const INSTANTSEARCH_BARREL_ENTRY = `
import { liteClient } from 'algoliasearch/lite';
import instantsearch from 'instantsearch.js/es';
import { searchBox, hits, refinementList, pagination, relatedProducts, trendingItems } from 'instantsearch.js/es/widgets';
import { createInsightsMiddleware } from 'instantsearch.js/es/middlewares';
const search = instantsearch({ indexName: 'products', searchClient: liteClient('APP', 'KEY') });
search.use(createInsightsMiddleware({}));
search.addWidgets([
  searchBox({ container: '#searchbox' }),
  hits({ container: '#hits' }),
  refinementList({ container: '#brand', attribute: 'brand' }),
  pagination({ container: '#pagination' }),
  relatedProducts({ container: '#related', objectIDs: ['1'] }),
  trendingItems({ container: '#trending' }),
]);
search.start();
`;

/** Variants of the InstantSearch side; the first is the reference for the ratio. */
export const INSTANTSEARCH_VARIANTS: Record<string, string> = {
  'InstantSearch.js + algoliasearch/lite + insights middleware, per-file imports': INSTANTSEARCH_ENTRY,
  '  same, documented barrel imports (instantsearch.js/es, /es/widgets)': INSTANTSEARCH_BARREL_ENTRY,
  '  per-file + frequentlyBoughtTogether (our <svc-recommendations> covers both models)': INSTANTSEARCH_ENTRY.replace(
    'import trendingItems from',
    "import frequentlyBoughtTogether from 'instantsearch.js/es/widgets/frequently-bought-together/frequently-bought-together.js';\nimport trendingItems from",
  ).replace(
    "trendingItems({ container: '#trending' }),",
    "trendingItems({ container: '#trending' }),\n  frequentlyBoughtTogether({ container: '#fbt', objectIDs: ['1'] }),",
  ),
  '  per-file + search-insights bundled (the event sender; loaded from a CDN by default)': INSTANTSEARCH_ENTRY.replace(
    "import { liteClient } from 'algoliasearch/lite';",
    "import { liteClient } from 'algoliasearch/lite';\nimport aa from 'search-insights';",
  ).replace('createInsightsMiddleware({})', 'createInsightsMiddleware({ insightsClient: aa })'),
};

export interface BundleSize {
  /** Minified bytes. */
  minified: number;
  /** Minified + gzip (level 9) bytes. */
  gzip: number;
  metafile: Metafile;
  /** Input files (relative to the repository) and the bytes each contributes to the minified output. */
  inputs: Array<{ path: string; bytes: number }>;
}

/**
 * Bundles `entry` (module source) for the browser — esbuild, bundle, minify, ES2022, production — and
 * measures it. `svc/…` specifiers resolve to `src/…` (the TypeScript sources the build compiles).
 *
 * @example
 * const { gzip } = await bundleSize(`import 'svc/elements/hits/define.js';`);
 */
export async function bundleSize(entry: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'size-entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    metafile: true,
    legalComments: 'none',
    tsconfig: `${root}/tsconfig.json`,
    alias: { svc: `${root}/src` },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path: relative(root, `${root}/${path}`) || path, bytes: bytesInOutput }))
    .filter((input) => input.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    metafile: result.metafile,
    inputs,
  };
}

/** Groups input bytes by package (node_modules) or by source folder (`src/<layer>/<folder>`). */
export function bytesByGroup(inputs: BundleSize['inputs']): Array<{ group: string; bytes: number }> {
  const groups = new Map<string, number>();
  for (const { path, bytes } of inputs) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const group = pkg ? pkg[1]! : path.split('/').slice(0, 3).join('/');
    groups.set(group, (groups.get(group) ?? 0) + bytes);
  }
  return [...groups].map(([group, bytes]) => ({ group, bytes })).sort((a, b) => b.bytes - a.bytes);
}

const fmt = (n: number) => n.toLocaleString('en-US').padStart(9);

/** The Shop story's page (stories/shop.stories.ts) as plain HTML over the demo catalogue; `hits` is `<svc-hits>`'s attributes. */
const shopPage = (hits: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><script type="module" src="/dist/svc-search.js"></script></head>
<body>
<svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="products" hosts="{{service}}">
  <svc-autocomplete placeholder="Search products, brands, categories" category-attribute="category"></svc-autocomplete>
  <svc-sort-by hide-label>
    <option value="products">Most popular</option>
    <option value="products_price_asc">Lowest price</option>
    <option value="products_price_desc">Highest price</option>
  </svc-sort-by>
  <svc-clear-refinements></svc-clear-refinements>
  <svc-refinement-list attribute="brand" searchable show-more></svc-refinement-list>
  <svc-menu attribute="category"></svc-menu>
  <svc-range-input attribute="price"></svc-range-input>
  <svc-stats></svc-stats>
  <svc-hits-per-page hide-label>
    <option value="12" selected>12 per page</option>
    <option value="24">24 per page</option>
  </svc-hits-per-page>
  <svc-current-refinements></svc-current-refinements>
  <svc-hits ${hits}>
    <template>
      <div class="card">
        <svc-highlight class="name" attribute="name"></svc-highlight>
        <span class="category"><span data-text="category"></span> · <span data-text="subCategory"></span></span>
        <span class="price" data-text="price" data-currency="USD"></span>
        <button class="add" type="button" data-svc-conversion="Added to cart">Add to cart</button>
      </div>
    </template>
  </svc-hits>
  <svc-pagination></svc-pagination>
</svc-search>
</body></html>`;

/** The state of a shared link: a query and two values of the page's refinement list (OR). */
const ROUTED_LINK = '?q=laptop&refinementList%5Bbrand%5D=Acme&refinementList%5Bbrand%5D=Bolt';

export async function run(): Promise<void> {
  const dist = loaderDist();
  const site = await startCrossOrigin({
    dist,
    demo: true,
    pages: {
      '/six': loaderPage(SIX_ELEMENTS),
      '/three': loaderPage(THREE_ELEMENTS),
      '/routed': loaderPage(SIX_ELEMENTS).replace('<svc-search ', '<svc-search routing '),
      '/consent': loaderPage(SIX_ELEMENTS).replace('<svc-search ', '<svc-search insights-consent="false" '),
      '/shop': shopPage(''),
      '/shop-before': shopPage('attributes-to-retrieve="*"'),
    },
  });
  try {
    await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(120));
    const six = await measurePage(site, '/six', 300);
    const three = await measurePage(site, '/three', 300);
    const routed = await measurePage(site, `/routed${ROUTED_LINK}`, 300);
    const consent = await measurePage(site, '/consent', 300);
    const instantSearch: Array<[string, BundleSize]> = [];
    for (const [label, entry] of Object.entries(INSTANTSEARCH_VARIANTS))
      instantSearch.push([label, await bundleSize(entry)]);
    const reference = instantSearch[0]![1].gzip;

    console.log(`ours: ${dist}, served gzip -9 from another origin than the service, Chromium headless\n`);
    console.log(`${'page'.padEnd(70)}  first paint      total  files`);
    for (const [label, page] of [
      ['<svc-search> + the six mission elements', six],
      ['<svc-search> + <svc-search-box> + <svc-hits>', three],
      ['the six elements, routing, opened from a shared link (a state in the URL)', routed],
      ['the six elements, insights-consent="false"', consent],
    ] as const) {
      const total = scriptBytes(page.before) + scriptBytes(page.after);
      console.log(
        `${label.padEnd(70)} ${fmt(scriptBytes(page.before))} ${fmt(total)}  ${page.before.length} + ${page.after.length} after`,
      );
    }
    console.log(
      `\nfirst paint of the six elements: ${scriptBytes(six.before).toLocaleString('en-US')} B of the ${FIRST_PAINT_TARGET_BYTES.toLocaleString('en-US')} B target (${((100 * scriptBytes(six.before)) / FIRST_PAINT_TARGET_BYTES).toFixed(1)} %)`,
    );
    console.log('six-element page, before the first paint:');
    for (const script of six.before) console.log(`  ${script.path.padEnd(50)} ${fmt(script.bytes)}`);
    console.log('after it:');
    for (const script of six.after) console.log(`  ${script.path.padEnd(50)} ${fmt(script.bytes)}`);

    console.log(
      `\n${'InstantSearch.js, same six widgets (esbuild bundle, min + gzip -9)'.padEnd(92)}  minified  min+gzip`,
    );
    for (const [label, size] of instantSearch)
      console.log(`${label.padEnd(92)} ${fmt(size.minified)} ${fmt(size.gzip)}`);
    const total = scriptBytes(six.before) + scriptBytes(six.after);
    console.log(
      `\nratio svc-search / InstantSearch.js (per-file imports): first paint ${(scriptBytes(six.before) / reference).toFixed(3)}, total ${(total / reference).toFixed(3)}`,
    );

    await shopResponses(site);
  } finally {
    await site.close();
  }
}

/**
 * The Shop story's searches (load, "chair" + Enter, the first brand, page 2), response bytes per search request,
 * with the hit list asking for what its template shows (after) and for everything (before: `attributes-to-retrieve="*"`).
 */
async function shopResponses(site: Awaited<ReturnType<typeof startCrossOrigin>>): Promise<void> {
  const sizes: Record<string, number[]> = {};
  for (const path of ['/shop-before', '/shop']) {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    const bytes: number[] = [];
    page.on('response', async (response) => {
      if (!response.url().includes('/1/indexes/*/queries')) return;
      const body = await response.body();
      // The product searches (not the query suggestions the autocomplete asks for as you type).
      if (body.includes('"index":"products"')) bytes.push(body.length);
    });
    await page.goto(site.pageOrigin + path);
    await page.locator('svc-hits li').first().waitFor();
    await page.locator('svc-autocomplete input').focus();
    await page.keyboard.type('chair', { delay: 50 });
    await page.keyboard.press('Enter');
    await page.waitForTimeout(800);
    await page.locator('svc-refinement-list label').first().click();
    await page.waitForTimeout(800);
    await page
      .locator('svc-pagination a', { hasText: /^\s*2\s*$/ })
      .first()
      .click();
    await page.waitForTimeout(800);
    await context.close();
    sizes[path] = bytes;
  }
  const [before, after] = [sizes['/shop-before']!, sizes['/shop']!];
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  console.log('\nShop story searches (load, "chair", the first brand, page 2): response bytes of each search request');
  console.log(`  before (hits asked for everything): ${before.map((n) => n.toLocaleString('en-US')).join(', ')}`);
  console.log(`  after (what the template shows):    ${after.map((n) => n.toLocaleString('en-US')).join(', ')}`);
  console.log(
    `  mean ${Math.round(mean(before)).toLocaleString('en-US')} → ${Math.round(mean(after)).toLocaleString('en-US')} B per response (×${(mean(after) / mean(before)).toFixed(2)})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
