/**
 * Size of what a shop ships: the six mission elements (search box, hits, refinement list, pagination,
 * recommendations, trending) with the `<svc-search>` root, store, client and insights, Lit included — next to
 * InstantSearch.js built the same way (esbuild, bundle, minify, ES2022, gzip level 9) for the same six
 * widgets with its insights middleware. Both are built in the same run, from the installed packages.
 *
 * `npm run bench size` prints the table; `test/size.node.test.ts` holds our side to the 20,000-byte budget.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The budget of issue 7: minified + gzip bytes of the mission entry. */
export const SIZE_BUDGET_BYTES = 20_000;

/**
 * Our mission entry: the define files register the tags (that is what a page imports); the store, client
 * and insights factories are imported as a user with custom wiring would (`<svc-search>` uses them anyway,
 * so they cost nothing extra once the elements are in).
 */
export const SVC_MISSION_ENTRY = `
import 'svc/elements/search/define.js';
import 'svc/elements/search-box/define.js';
import 'svc/elements/hits/define.js';
import 'svc/elements/refinement-list/define.js';
import 'svc/elements/pagination/define.js';
import 'svc/elements/recommendations/define.js';
import 'svc/elements/trending/define.js';
export { createSearchStore } from 'svc/store/index.js';
export { createClient } from 'svc/client/index.js';
export { createInsights } from 'svc/insights/index.js';
`;

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

/**
 * What each part costs on its own (min+gzip of a bundle of just that part; parts share Lit and the store, so
 * the figures overlap and do not add up) — to find the offenders when the budget is at risk.
 */
export const SVC_PARTS: Record<string, string> = {
  'Lit + @lit/context (baseline)': `export { LitElement, html, css, nothing } from 'lit'; export { repeat } from 'lit/directives/repeat.js'; export { ContextConsumer, ContextProvider, ContextRoot } from '@lit/context';`,
  'client (createClient)': `export { createClient } from 'svc/client/index.js';`,
  'store (createSearchStore)': `export { createSearchStore } from 'svc/store/index.js';`,
  'insights (createInsights)': `export { createInsights } from 'svc/insights/index.js';`,
  'client + store + insights': `export { createClient } from 'svc/client/index.js'; export { createSearchStore } from 'svc/store/index.js'; export { createInsights } from 'svc/insights/index.js';`,
  '<svc-search> (root: creates client, store, insights)': `import 'svc/elements/search/define.js';`,
  '<svc-search-box>': `import 'svc/elements/search-box/define.js';`,
  '<svc-hits> (+ highlight, snippet)': `import 'svc/elements/hits/define.js';`,
  '<svc-refinement-list>': `import 'svc/elements/refinement-list/define.js';`,
  '<svc-pagination>': `import 'svc/elements/pagination/define.js';`,
  '<svc-recommendations>': `import 'svc/elements/recommendations/define.js';`,
  '<svc-trending>': `import 'svc/elements/trending/define.js';`,
};

const fmt = (n: number) => n.toLocaleString('en-US').padStart(9);

export async function run(): Promise<void> {
  const ours = await bundleSize(SVC_MISSION_ENTRY).catch((error: Error) => error);
  const theirs: Array<[string, BundleSize]> = [];
  for (const [label, entry] of Object.entries(INSTANTSEARCH_VARIANTS)) theirs.push([label, await bundleSize(entry)]);

  console.log('six widgets (search box, hits, refinement list, pagination, recommendations, trending) + insights;');
  console.log('esbuild bundle + minify, ES2022, NODE_ENV=production, gzip -9\n');
  console.log(`${'build'.padEnd(92)}  minified  min+gzip`);
  if (ours instanceof Error)
    console.log(`${'svc-search (mission entry)'.padEnd(92)}  not buildable yet: ${ours.message.split('\n')[0]}`);
  else
    console.log(
      `${'svc-search: 6 elements + <svc-search> + store + client + insights, Lit included'.padEnd(92)} ${fmt(ours.minified)} ${fmt(ours.gzip)}`,
    );
  for (const [label, size] of theirs) console.log(`${label.padEnd(92)} ${fmt(size.minified)} ${fmt(size.gzip)}`);
  if (!(ours instanceof Error)) {
    const is = theirs[0]![1];
    console.log(
      `\nratio svc-search / InstantSearch.js (min+gzip): ${(ours.gzip / is.gzip).toFixed(3)}  (${(is.gzip / ours.gzip).toFixed(2)}× smaller)`,
    );
    console.log(
      `budget: ${ours.gzip.toLocaleString('en-US')} of ${SIZE_BUDGET_BYTES.toLocaleString('en-US')} bytes (${((100 * ours.gzip) / SIZE_BUDGET_BYTES).toFixed(1)} %)`,
    );
    console.log('\nsvc-search minified bytes by group (before gzip):');
    for (const { group, bytes } of bytesByGroup(ours.inputs).slice(0, 14))
      console.log(`  ${group.padEnd(48)} ${fmt(bytes)}`);
  }
  console.log('\nsvc-search parts alone (each bundled on its own, Lit included where used; overlapping):');
  for (const [label, entry] of Object.entries(SVC_PARTS)) {
    const part = await bundleSize(entry).catch(() => undefined);
    console.log(`  ${label.padEnd(56)} ${part ? `${fmt(part.minified)} ${fmt(part.gzip)}` : '  (not there yet)'}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
