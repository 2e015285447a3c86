/**
 * `npm run bench -- byte-map`: where the first paint's bytes are, per file and per source module.
 *
 * The files are the ones the six-element page (test/size/pages.ts) loads before its first results: the loader
 * `dist/svc-search.js`, then for each of its tags the chunk the loader imports and the chunks it preloads with it
 * (their sum is the figure of test/size/first-paint.node.test.ts). Each byte of a minified file is given to the
 * source module its source map names (bytes no mapping covers — imports, exports, the bundler's helpers, the
 * loader's generated table — are "(glue)"). For each module it prints:
 *
 * - `min`: its minified bytes in that file;
 * - `gzip share`: the file's gzip -9 size × its share of the minified bytes (the shares add up to the file);
 * - `gzip without`: what the file's gzip size drops by when that module's bytes are taken out (what removing it
 *   would save; this counts the words it shares with the rest of the file as the rest's, so these add up to less).
 *
 * Then the same table for the worker of local search (`dist/assets/worker-*.js`): the one file a page with
 * `<svc-search local-index>` loads when its worker starts (the figure `npm run bench -- local` holds to 25,000 B),
 * by engine module. Its map is the one the benchmarks' build keeps (`SVC_BENCH_WORKER_MAPS`, vite.config.ts).
 *
 * Figures of the built `dist/` (`vite build --mode loader` is run first, as `npm run bench -- size` does, unless
 * `SVC_BENCH_DIST` names another `dist/`); bytes do not depend on the machine.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { TraceMap, eachMapping } from '@jridgewell/trace-mapping';
import { SIX_ELEMENTS } from '../test/size/pages.js';
import { loaderDist } from './loader-dist.js';

const gzip = (text: string) => gzipSync(text, { level: 9 }).length;
const fmt = (n: number) => n.toLocaleString('en-US').padStart(7);

/** `lit-html/lit-html.js` for a package's file, `store/store.ts` for the library's own. */
function moduleName(source: string | null): string {
  if (!source) return '(glue)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(source);
  if (pkg) return `${pkg[1]}/${pkg[2]}`;
  return /\bsrc\/(.*)$/.exec(source)?.[1] ?? source;
}

/**
 * The loader and, for each tag, its chunk and the chunks preloaded with it, read from the loader's table
 * (`"svc-hits":{load:()=>import(`./chunks/hits-….js`),preload:[…]}`), in order of first appearance.
 *
 * @example
 * firstPaintFiles(readFileSync('dist/svc-search.js', 'utf8'), ['svc-hits']) // ['svc-search.js', 'chunks/hits-….js', 'chunks/core-….js']
 */
export function firstPaintFiles(loader: string, tags: string[]): string[] {
  const files = new Set(['svc-search.js']);
  for (const tag of tags) {
    const entry = new RegExp(`"${tag}":\\{load:[^]*?preload:\\[([^\\]]*)\\]`).exec(loader);
    if (!entry) throw new Error(`byte-map: no entry for <${tag}> in the loader's table`);
    for (const path of entry[0].matchAll(/`\.\/(chunks\/[\w-]+\.js)`/g)) files.add(path[1]!);
  }
  return [...files];
}

interface ModuleBytes {
  module: string;
  minified: number;
  share: number;
  without: number;
}

/** Every source module's bytes in one minified file with its (hidden) source map beside it. */
function fileMap(code: string, map: string): ModuleBytes[] {
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  const segments: Array<[offset: number, module: string]> = [];
  eachMapping(new TraceMap(map), (m) => {
    segments.push([lineStarts[m.generatedLine - 1]! + m.generatedColumn, moduleName(m.source)]);
  });
  segments.sort((a, b) => a[0] - b[0]);
  const owner: string[] = new Array(code.length).fill('(glue)');
  segments.forEach(([start, module], i) => {
    const end = segments[i + 1]?.[0] ?? code.length;
    for (let k = start; k < end; k++) owner[k] = module;
  });
  const total = gzip(code);
  const modules = [...new Set(owner)];
  return modules
    .map((module) => {
      const minified = owner.filter((m) => m === module).length;
      const rest = [...code].filter((_, k) => owner[k] !== module).join('');
      return { module, minified, share: Math.round((total * minified) / code.length), without: total - gzip(rest) };
    })
    .sort((a, b) => b.share - a.share);
}

export async function run(): Promise<void> {
  const dist = loaderDist();
  const tags = ['svc-search', ...[...SIX_ELEMENTS.matchAll(/<(svc-[a-z-]+)/g)].map((m) => m[1]!)];
  const files = firstPaintFiles(readFileSync(join(dist, 'svc-search.js'), 'utf8'), tags);
  console.log(`the six-element page before its first paint (${dist}; gzip -9, bytes)\n`);
  let minified = 0;
  let gzipped = 0;
  const areas = new Map<string, number>();
  for (const file of files) {
    const code = readFileSync(join(dist, file), 'utf8');
    const rows = fileMap(code, readFileSync(join(dist, `${file}.map`), 'utf8'));
    const size = gzip(code);
    minified += code.length;
    gzipped += size;
    console.log(`${file.padEnd(62)} ${fmt(code.length)} ${fmt(size)}`);
    console.log(`  ${'module'.padEnd(60)}     min  gzip share  gzip without`);
    for (const row of rows) {
      console.log(`  ${row.module.padEnd(60)} ${fmt(row.minified)} ${fmt(row.share)}    ${fmt(row.without)}`);
      // Areas: a package, or a folder of the library (store/, client/, elements/hits/…).
      const parts = row.module.split('/');
      const area = row.module.startsWith('(')
        ? row.module
        : parts.slice(0, parts[0]!.startsWith('@') || parts[0] === 'elements' ? 2 : 1).join('/');
      areas.set(area, (areas.get(area) ?? 0) + row.share);
    }
  }
  console.log(`\n${files.length} files: ${fmt(minified)} B minified, ${fmt(gzipped)} B min + gzip`);
  const together = gzip(files.map((file) => readFileSync(join(dist, file), 'utf8')).join('\n'));
  console.log(`the same files as one (concatenated, gzip -9): ${fmt(together)} B`);
  console.log('\nby area (gzip share):');
  for (const [area, bytes] of [...areas].sort((a, b) => b[1] - a[1])) console.log(`  ${area.padEnd(40)} ${fmt(bytes)}`);
  workerMap(join(dist, 'assets'));
}

/** The worker's start file (the newest `worker-*.js` of `dist/assets/`), by source module. */
function workerMap(assets: string): void {
  const newest = readdirSync(assets)
    .filter((file) => /^worker-[\w-]+\.js$/.test(file))
    .sort((a, b) => statSync(join(assets, b)).mtimeMs - statSync(join(assets, a)).mtimeMs)[0];
  console.log('\nthe worker of local search at its start (gzip -9, bytes)\n');
  if (!newest) {
    console.log('  no dist/assets/worker-*.js in this build');
    return;
  }
  const path = join(assets, newest);
  if (!existsSync(`${path}.map`)) {
    console.log(`  ${newest}: no source map (build with SVC_BENCH_WORKER_MAPS=1)`);
    return;
  }
  const code = readFileSync(path, 'utf8');
  console.log(`assets/${newest.padEnd(55)} ${fmt(code.length)} ${fmt(gzip(code))}`);
  console.log(`  ${'module'.padEnd(60)}     min  gzip share  gzip without`);
  for (const row of fileMap(code, readFileSync(`${path}.map`, 'utf8'))) {
    console.log(`  ${row.module.padEnd(60)} ${fmt(row.minified)} ${fmt(row.share)}    ${fmt(row.without)}`);
  }
}
