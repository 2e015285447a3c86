/**
 * What each element adds to a page that already has the shared core — `<svc-search>` with Lit, `@lit/context`,
 * the client, the store and Insights — built as `bench/size.ts` builds (esbuild, bundle, minify, ES2022,
 * NODE_ENV=production, gzip -9): for every element folder, the core alone and the core with the element's
 * define file; the difference is the element's cost (its class, styles, controller and whatever it imports that
 * the core does not, such as `@lit/task`). `npm run bench element-size` prints the table.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSize } from './size.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The shared core every page has: the root element (client, store, insights, Lit, context). */
export const CORE_ENTRY = `import 'svc/elements/search/define.js';`;

/** Every element folder that has a define file, but the root's. */
export function elementNames(): string[] {
  const dir = join(root, 'src/elements');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'define.ts')))
    .map((entry) => entry.name)
    .filter((name) => name !== 'search')
    .sort();
}

/** The marginal size of each element over the core (and of `extra` entries), in bytes. */
export async function elementCosts(names = elementNames()): Promise<{
  core: { minified: number; gzip: number };
  rows: Array<{ name: string; minified: number; gzip: number }>;
}> {
  const core = await bundleSize(CORE_ENTRY);
  const rows: Array<{ name: string; minified: number; gzip: number }> = [];
  for (const name of names) {
    const size = await bundleSize(`${CORE_ENTRY}\nimport 'svc/elements/${name}/define.js';`);
    rows.push({ name, minified: size.minified - core.minified, gzip: size.gzip - core.gzip });
  }
  return { core: { minified: core.minified, gzip: core.gzip }, rows };
}

const fmt = (n: number) => n.toLocaleString('en-US').padStart(8);

export async function run(): Promise<void> {
  const { core, rows } = await elementCosts();
  console.log('each element over the shared core (<svc-search>: Lit, @lit/context, client, store, insights);');
  console.log('esbuild bundle + minify, ES2022, NODE_ENV=production, gzip -9; templates and styles as written\n');
  console.log(`${'core: <svc-search>'.padEnd(32)} ${fmt(core.minified)} ${fmt(core.gzip)}   (minified, min+gzip)`);
  console.log(`${'element'.padEnd(32)} ${'+minified'.padStart(8)} ${'+min+gzip'.padStart(8)}`);
  for (const row of rows) console.log(`${`<svc-${row.name}>`.padEnd(32)} ${fmt(row.minified)} ${fmt(row.gzip)}`);
}
