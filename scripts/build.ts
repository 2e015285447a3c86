/**
 * `npm run build`:
 *  0. `cem analyze` → `custom-elements.json` (the manifest named by package.json `customElements`);
 *  1. `tsc -p tsconfig.build.json` → `dist/**` ES modules with `.d.ts` (one entry per element, its define
 *     file, the controllers, store, client, insights, and the Node-only service under `dist/service/`);
 *  2. `vite build` (vite.config.ts, library mode) → `dist/svc-search.js`, one minified self-contained
 *     module with Lit that registers every element;
 *  3. checks that the bundle imports nothing and that no browser entry point reaches service code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

rmSync(dist, { recursive: true, force: true });
run(process.execPath, [
  join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
  'analyze',
  '--quiet',
  '--config',
  'custom-elements-manifest.config.mjs',
]);
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);

const bundlePath = join(dist, 'svc-search.js');
const bundle = readFileSync(bundlePath, 'utf8');
// A page with no bundler and no import map cannot resolve bare specifiers: the file must stand alone.
const imports = [...bundle.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]);
if (imports.length > 0) {
  console.error(`build: dist/svc-search.js imports ${imports.join(', ')}; it must be self-contained`);
  process.exit(1);
}

// Browser entry points must not reach the Node-only service (it needs node:* modules and SQLite).
const browserEntries = ['index.js', 'define.js'];
const seen = new Set<string>();
function walk(file: string, from: string): void {
  if (seen.has(file)) return;
  seen.add(file);
  const rel = relative(dist, file);
  if (rel.startsWith('service/')) {
    console.error(`build: browser entry reaches service code: ${relative(dist, from)} → ${rel}`);
    process.exit(1);
  }
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]/g)) {
    const target = resolve(dirname(file), m[1] ?? m[2]);
    if (existsSync(target)) walk(target, file);
  }
}
for (const entry of browserEntries) {
  const file = join(dist, entry);
  if (existsSync(file)) walk(file, file);
}

const size = statSync(bundlePath).size;
const gz = gzipSync(bundle, { level: 9 }).length;
console.log(`build: dist/ written (${seen.size} browser modules); dist/svc-search.js ${size} bytes, ${gz} gzip`);
