/**
 * The library's two browser builds (run by `npm run build`, scripts/build.ts, after tsc wrote `dist/**`):
 *
 * - `vite build --mode loader` → `dist/svc-search.js`, a small loader, and `dist/chunks/`: one chunk per element
 *   folder (its define file), `core` (Lit, @lit/context, the root `<svc-search>` with the store and the client:
 *   what every page needs), and the chunks loaded later (the Insights module after the first results, …).
 *   The loader registers each `svc-*` tag on first sight by importing its chunk (scripts/element-chunks.ts
 *   generates the tag → chunk map from the element folders).
 * - `vite build --mode all` → `dist/svc-search.all.js`, one self-contained module that registers every element
 *   and exports every class (src/all.ts: Lit's hydration support, then src/define.ts), for those who want one file.
 *
 * Both minify the HTML and CSS inside `html`/`css` template literals (Lit's own minify plugin), so templates
 * and styles are written readably in the sources. Storybook reads this file too: in its modes ('development',
 * 'production') there is nothing of the library builds but the worker's options.
 */
import minifyHTMLLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { LOADER_ENTRY, elementChunkName, elementChunks, loaderEntry } from './scripts/element-chunks.js';

const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');

/** Lit's templates and styles minified (HTML collapsed, CSS by lightningcss); a failure stops the build. */
function minifyTemplates(): Plugin {
  // A Rollup plugin: its transform hook runs as is in Vite (the two plugin context types differ only in typing).
  const rollupPlugin = minifyHTMLLiterals({ failOnError: true });
  return {
    name: rollupPlugin.name,
    enforce: 'post',
    async transform(code, id) {
      const result = await rollupPlugin.transform.call(this as never, code, id);
      return result && typeof result === 'object' && result.code
        ? { code: result.code, map: result.map as never }
        : null;
    },
  };
}

const shared: UserConfig['build'] = {
  target: 'es2022',
  outDir: 'dist',
  emptyOutDir: false,
  minify: 'oxc',
  sourcemap: true,
  copyPublicDir: false,
};

/**
 * The worker of local search (`src/local/worker.ts`, started by `src/local/client.ts`): ES modules in
 * `dist/assets/`, minified. What starting it needs (the worker and its static imports) is one file, the worker's
 * own (`worker-*.js`), which the chunks it loads when needed (rules, geo, the settings validation, …) import from:
 * left to itself, rolldown splits the small modules the worker shares with those chunks into files of their own
 * (rolldown/rolldown#10731), each gzipped apart (about 650 B more at start).
 */
function workerOptions(): UserConfig['worker'] {
  const entry = join(src, 'local/worker.ts');
  let start: Set<string> | undefined;
  return {
    format: 'es',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              debugName: 'local-engine',
              name: (id, ctx) => {
                start ??= staticClosure(entry, (module) => ctx.getModuleInfo(module));
                return start.has(id) ? 'local-engine' : null;
              },
            },
          ],
        },
      },
    },
  };
}

/**
 * The worker and the chunks it loads when needed (`dist/assets/`, nothing else goes there) ship without source
 * maps: Vite gives workers the build's `sourcemap`, and the bundled maps (0.45 MB, the engine's sources inlined) would
 * weigh on every install, while those sources ship in the package with their own maps under `dist/engine/` and
 * `dist/local/`. The benchmarks' build (`SVC_BENCH_WORKER_MAPS=1`, bench/loader-dist.ts) keeps them beside the files,
 * unnamed in them (the files' bytes are the same): `npm run bench -- byte-map` reads them.
 */
function workerWithoutMap(): Plugin {
  const keepMaps = process.env.SVC_BENCH_WORKER_MAPS === '1';
  return {
    name: 'svc-search-worker-without-map',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/^assets\/[\w-]+\.js\.map$/.test(name)) continue;
        if (!keepMaps) delete bundle[name];
        const code = bundle[name.slice(0, -'.map'.length)];
        if (code?.type === 'asset' && typeof code.source === 'string') {
          // Ends as a build without maps ends (the static catalogue's worker, built so, is compared byte for byte).
          code.source = code.source.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '');
        }
      }
    },
  };
}

/** The modules a module imports statically, recursively (itself included). */
function staticClosure(id: string, info: (id: string) => { importedIds: readonly string[] } | null): Set<string> {
  const seen = new Set<string>();
  const visit = (next: string) => {
    if (seen.has(next)) return;
    seen.add(next);
    for (const imported of info(next)?.importedIds ?? []) visit(imported);
  };
  visit(id);
  return seen;
}

/** A module that this many element chunks or more import goes to `core` too (one file, not many small ones). */
const SHARED_BY = 3;

function loaderConfig(): UserConfig {
  const elements = elementChunks(join(src, 'elements'));
  const rootDefine = join(src, 'elements/search/define.ts');
  const prepaint = join(src, 'prepaint/index.ts');
  let core: Set<string> | undefined;
  /**
   * `core`: what every page needs — the root element's static imports (Lit, context, store, client, the base
   * element) — and what {@link SHARED_BY} element chunks or more share (the list base, shared styles,
   * highlighting…), each small on its own: one request and one gzip dictionary rather than many.
   */
  function coreModules(info: (id: string) => { importedIds: readonly string[] } | null): Set<string> {
    const modules = staticClosure(rootDefine, info);
    // Not the define files themselves: registering a tag is the loader's call (the root after the others).
    for (const { define } of elements) modules.delete(define);
    const users = new Map<string, number>();
    const defines = new Set(elements.map((element) => element.define));
    for (const define of defines) {
      for (const id of staticClosure(define, info)) users.set(id, (users.get(id) ?? 0) + 1);
    }
    for (const [id, count] of users) if (count >= SHARED_BY && !defines.has(id)) modules.add(id);
    // What the first paint without Lit imports is in the loader itself (run before any chunk is requested); the
    // chunks import it from there.
    for (const id of staticClosure(prepaint, info)) modules.delete(id);
    return modules;
  }
  /**
   * Chunks of an earlier build are removed (their names change with their content): those of the build's own
   * output folder, which a test or a benchmark building elsewhere (`--outDir`) must leave alone.
   */
  let outDir = join(root, 'dist');
  const freshChunks: Plugin = {
    name: 'svc-search-fresh-chunks',
    configResolved: (config) => {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart: () => rmSync(join(outDir, 'chunks'), { recursive: true, force: true }),
  };
  return {
    // Chunks (and the imports the loader preloads with each) are found beside the loader, wherever it is served.
    base: './',
    worker: workerOptions(),
    plugins: [
      freshChunks,
      loaderEntry(join(src, 'loader.ts'), join(src, 'loader-hydrate.ts'), join(src, 'elements'), prepaint),
      minifyTemplates(),
      workerWithoutMap(),
    ],
    build: {
      ...shared,
      // The maps are written beside each file but not named in it: the `//# sourceMappingURL=…` line costs every
      // page about 55 B per file (≈ 0.8 kB over the 14 files of a six-element first paint). Developers add a
      // map in DevTools by its URL (the file's own plus `.map`); bundler users get tsc's `dist/**` with linked maps.
      sourcemap: 'hidden',
      // A library build: Vite then wraps no dynamic import in its preload helper, which the core carried (≈ 0.6 kB
      // min + gzip) with a table of every chunk's imports in the loader; the loader preloads from lists of its
      // own (scripts/element-chunks.ts).
      lib: { entry: { 'svc-search': LOADER_ENTRY }, formats: ['es'] },
      rolldownOptions: {
        // A host's element chunk also exports the base its rider imports (scripts/element-chunks.ts, CHUNK_HOSTS):
        // allowed to extend its (empty) signature rather than be split into a facade and a chunk of its own.
        preserveEntrySignatures: 'allow-extension',
        output: {
          format: 'es',
          minify: true,
          // A library build keeps `@__PURE__` annotations for downstream bundlers; these files are final.
          comments: false,
          entryFileNames: '[name].js',
          chunkFileNames: (chunk) => {
            // An element's chunk is named after its folder (chunks/hits-….js). Six characters of content hash
            // (36 bits: no collision among a few dozen files, a new name for new content) rather than eight: every
            // chunk name is in the loader's table and each import names the core, ≈ 0.1 kB of a first paint.
            return `chunks/${elementChunkName(chunk.facadeModuleId) ?? chunk.name}-[hash:6].js`;
          },
          codeSplitting: {
            groups: [
              {
                debugName: 'core',
                // The set is closed under imports already, but for the first paint's modules, which stay in the
                // loader (its entry): the group must not pull them back in as dependencies of its members.
                includeDependenciesRecursively: false,
                name: (id, ctx) => {
                  core ??= coreModules((module) => ctx.getModuleInfo(module));
                  return core.has(id) ? 'core' : null;
                },
              },
            ],
          },
        },
      },
    },
  };
}

function allInOneConfig(): UserConfig {
  return {
    worker: workerOptions(),
    plugins: [minifyTemplates(), workerWithoutMap()],
    build: {
      ...shared,
      lib: { entry: join(src, 'all.ts'), formats: ['es'], fileName: () => 'svc-search.all.js' },
      rolldownOptions: {
        // Everything in one file (the Insights module too: no chunk to load later). Full minification (Vite keeps
        // whitespace in ES library builds by default, for downstream bundlers; this file is final).
        output: { codeSplitting: false, minify: true },
      },
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'loader') return loaderConfig();
  if (mode === 'all') return allInOneConfig();
  // Storybook ('development', 'production'): its catalogue starts the same worker, built as the library's (ES
  // modules, the start in one file, the rest in chunks loaded when needed). Without it Vite's default worker format
  // (`iife`) cannot split, and the static catalogue's worker was one file of every module (126 kB).
  return { worker: workerOptions() };
});
