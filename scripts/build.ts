/**
 * `npm run build`: both packages of the workspace, the library first (the service's build reads its declarations).
 *  0. `cem analyze` → `custom-elements.json` (the manifest named by package.json `customElements`);
 *  1. `tsc -p tsconfig.build.json` → `dist/**` ES modules with `.d.ts` (one entry per element, its define
 *     file, the controllers, store, client, insights, protocol);
 *  2. `vite build` (vite.config.ts, library mode) → `dist/svc-search.js`, one minified self-contained
 *     module with Lit that registers every element;
 *  3. checks that the bundle imports nothing and that the library's dist holds browser code only: no module
 *     imports a `node:` built-in or a package other than Lit's (the service is another package);
 *  4. `tsc -p service/tsconfig.build.json` → `service/dist/**` (the service package, compiled JavaScript with
 *     declarations; its bin runs `service/dist/cli.js`). `--library` stops after step 3.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

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

// The library's dist is browser code: its modules import one another, Lit's packages and nothing else (no
// `node:` built-in, no service package). Every module is checked, not only those the entry points reach; esbuild
// reads the imports (comments and strings that look like imports are not imports).
const LIT_PACKAGE = /^(lit|lit-html|lit-element|@lit\/[\w-]+|@lit-labs\/[\w-]+)(\/|$)/;
const modules = listModules(dist);
const { metafile } = await build({
  entryPoints: modules,
  bundle: true,
  packages: 'external',
  write: false,
  metafile: true,
  format: 'esm',
  platform: 'neutral',
  outdir: join(dist, '.imports'),
  logLevel: 'silent',
});
for (const [file, { imports }] of Object.entries(metafile.inputs)) {
  for (const { path } of imports.filter((i) => i.external && !LIT_PACKAGE.test(i.path))) {
    console.error(`build: ${file} imports ${path}; the library may import only Lit's packages`);
    process.exit(1);
  }
}

function listModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

const size = statSync(bundlePath).size;
const gz = gzipSync(bundle, { level: 9 }).length;
console.log(`build: dist/ written (${modules.length} modules); dist/svc-search.js ${size} bytes, ${gz} gzip`);

if (!process.argv.includes('--library')) {
  const serviceDist = join(root, 'service/dist');
  rmSync(serviceDist, { recursive: true, force: true });
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'service/tsconfig.build.json']);
  console.log(`build: service/dist/ written (${listModules(serviceDist).length} modules)`);
}
