/**
 * `npm run build`: both packages of the workspace, the library first (the service's build reads its declarations).
 *  0. `cem analyze` → `custom-elements.json` (the manifest named by package.json `customElements`);
 *  1. `tsc -p tsconfig.build.json` → `dist/**` ES modules with `.d.ts` (one entry per element, its define
 *     file, the controllers, store, client, insights, protocol, the Node-only `ssr/`), whose Lit templates are
 *     then minified as the browser builds minify them (so a server rendering with `dist/ssr/` writes the
 *     templates' digests the loader's chunks hydrate: Lit compares the template strings);
 *  2. `vite build --mode loader` and `vite build --mode all` (vite.config.ts) → `dist/svc-search.js` (the loader)
 *     with `dist/chunks/` (one chunk per element, the shared core, what loads later), and
 *     `dist/svc-search.all.js` (one self-contained module that registers every element);
 *  3. checks that the loader and its chunks import nothing but one another, that the single file imports nothing,
 *     and that the library's dist holds browser code only: no module imports a `node:` built-in or a package other
 *     than Lit's (the service is another package) — but `dist/ssr/`, the server-side rendering subpath, which may
 *     import `@lit-labs/ssr` too, and which no other module imports;
 *  4. `tsc -p service/tsconfig.build.json` → `service/dist/**` (the service package, compiled JavaScript with
 *     declarations; its bin runs `service/dist/cli.js`). `--library` stops after step 3.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import remapping from '@jridgewell/remapping';
import minifyHTMLLiterals from '@lit-labs/rollup-plugin-minify-html-literals';

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
await minifyTemplates(dist);
for (const mode of ['loader', 'all'])
  run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', mode, '--logLevel', 'warn']);
dropShippedSources([
  'svc-search.js.map',
  'svc-search.all.js.map',
  ...readdirSync(join(dist, 'chunks'))
    .filter((name) => name.endsWith('.map'))
    .map((name) => `chunks/${name}`),
]);

// A page with no bundler and no import map cannot resolve bare specifiers: the loader and its chunks import only
// one another (relative URLs), and the single file imports nothing.
const importsOf = (code: string) =>
  [...code.matchAll(/(?:^|[;}\s,])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?\(?\s*["'`]([^"'`]+)["'`]/g)].map(
    (m) => m[1]!,
  );
const browserFiles = ['svc-search.js', ...readdirSync(join(dist, 'chunks')).map((name) => `chunks/${name}`)].filter(
  (name) => name.endsWith('.js'),
);
for (const name of browserFiles) {
  // A chunk may import the loader itself: the first paint's modules (src/prepaint) live there, shared with the chunks.
  const outside = importsOf(readFileSync(join(dist, name), 'utf8')).filter(
    (path) => !path.startsWith('./') && !(name.startsWith('chunks/') && path === '../svc-search.js'),
  );
  if (outside.length) {
    console.error(`build: dist/${name} imports ${outside.join(', ')}; the loader's files import only one another`);
    process.exit(1);
  }
}
const allInOne = readFileSync(join(dist, 'svc-search.all.js'), 'utf8');
if (importsOf(allInOne).length) {
  console.error(`build: dist/svc-search.all.js imports ${importsOf(allInOne).join(', ')}; it must be self-contained`);
  process.exit(1);
}

// The library's dist is browser code: its modules import one another, Lit's packages and nothing else (no
// `node:` built-in, no service package). Every module is checked, not only those the entry points reach; esbuild
// reads the imports (comments and strings that look like imports are not imports).
const LIT_PACKAGE = /^(lit|lit-html|lit-element|@lit\/[\w-]+|@lit-labs\/ssr-client)(\/|$)/;
/** What `dist/ssr/` (Node only) may import besides: Lit's server renderer. */
const SSR_PACKAGE = /^@lit-labs\/ssr(\/|$)/;
const ssrDir = join(dist, 'ssr');
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
  const server = resolve(root, file).startsWith(ssrDir);
  for (const { path } of imports.filter((i) => i.external && !LIT_PACKAGE.test(i.path))) {
    if (server && SSR_PACKAGE.test(path)) continue;
    console.error(
      `build: ${file} imports ${path}; the library may import only Lit's packages (dist/ssr/ also @lit-labs/ssr)`,
    );
    process.exit(1);
  }
  // The browser modules never reach the server renderer (the loader's chunks are checked above).
  for (const { path } of imports.filter((i) => !i.external && !server)) {
    if (resolve(root, path).startsWith(ssrDir)) {
      console.error(`build: ${file} imports ${path}; only dist/ssr/ may import the server-side rendering modules`);
      process.exit(1);
    }
  }
}

/**
 * Minifies the HTML and CSS of the Lit templates of every module under `dir` as the browser builds do (the same
 * plugin, the same options), rewriting each module and its source map (the minifier's map composed with tsc's).
 */
async function minifyTemplates(dir: string): Promise<void> {
  const plugin = minifyHTMLLiterals({ failOnError: true });
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
    warn: (message: string) => console.warn(message),
  };
  for (const file of listModules(dir)) {
    const code = readFileSync(file, 'utf8');
    if (!/\b(html|css)\s*`/.test(code)) continue;
    const result = (await plugin.transform.call(context as never, code, file)) as
      | { code: string; map: unknown }
      | undefined;
    if (!result) continue;
    const tscMap = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    const map = remapping([result.map as never, tscMap], () => null);
    const mapName = `${file.split('/').pop()}.map`;
    writeFileSync(file, result.code.replace(/\/\/# sourceMappingURL=.*$/m, `//# sourceMappingURL=${mapName}`));
    writeFileSync(`${file}.map`, JSON.stringify({ ...map, file: file.split('/').pop() }));
  }
}

/**
 * Empties the inlined text (`sourcesContent`) of the Vite builds' maps for the sources under `src/`: the package
 * ships `src/` at the path each map names (`../src/…` from `dist/`), so DevTools fetches them from beside the map,
 * and the install does not carry every source twice (≈ 1.5 MB). Lit's sources stay inlined: in an install they are
 * in a sibling package, not where the map's `../node_modules/…` path points.
 */
function dropShippedSources(maps: string[]): void {
  const sourceDir = join(root, 'src');
  for (const name of maps) {
    const file = join(dist, name);
    const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    const mapDir = resolve(file, '..');
    map.sourcesContent = map.sourcesContent?.map((content, i) =>
      resolve(mapDir, map.sources[i]!).startsWith(`${sourceDir}/`) ? null : content,
    );
    writeFileSync(file, JSON.stringify(map));
  }
}

function listModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

const gzip = (name: string) => gzipSync(readFileSync(join(dist, name)), { level: 9 }).length;
console.log(
  `build: dist/ written (${modules.length} modules); dist/svc-search.js (loader) ${statSync(join(dist, 'svc-search.js')).size} bytes, ${gzip('svc-search.js')} gzip, ${browserFiles.length - 1} chunks; dist/svc-search.all.js ${allInOne.length} bytes, ${gzip('svc-search.all.js')} gzip`,
);

if (!process.argv.includes('--library')) {
  const serviceDist = join(root, 'service/dist');
  rmSync(serviceDist, { recursive: true, force: true });
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'service/tsconfig.build.json']);
  console.log(`build: service/dist/ written (${listModules(serviceDist).length} modules)`);
}
