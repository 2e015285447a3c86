/**
 * The packaging fields of `package.json` (`exports`, `sideEffects`, `files`, `types`, `main`, `module`,
 * `customElements`), derived from the source tree so a new element cannot be forgotten:
 *
 *   node --import tsx scripts/package-exports.ts          # prints the fields, exits 1 when package.json differs
 *   node --import tsx scripts/package-exports.ts --write  # writes them (under the npm lock, other fields kept)
 *
 * Layout (tsc mirrors `src/` into `dist/`, see scripts/build.ts):
 * - `.` → `dist/index.js` (classes and types, no side effects); `./define` → `dist/define.js` (registers all);
 * - `./elements/<name>` → the element class `dist/elements/<name>/svc-<name>.js`, and
 *   `./elements/<name>/define` → its define file (registers the tag), for every `src/elements/<name>/define.ts`;
 * - `./store`, `./client`, `./insights`, `./protocol` (the wire, shared with the service), `./engine` (the
 * search engine, shared with the service), `./local` (search with no server), `./controllers` → the
 *   layer's `index.js`;
 * - `./react`, `./vue` → JSX / `GlobalComponents` typings (`src/types/`);
 * - `./svc-search.js` → the loader for pages without a bundler (it imports `./chunks/*.js` beside it), and
 *   `./svc-search.all.js` → the same in one self-contained file;
 * - `./hydrate` → Lit's hydration support (side effect), for a bundled page a server rendered;
 * - `./ssr` → server-side rendering (`renderSearch`), the one Node-only subpath (it imports `@lit-labs/ssr`, an
 *   optional peer dependency); the service and `generateSecuredApiKey` are the `@svc-search/service` package
 *   (`service/`). `test/package/package.node.test.ts` checks package.json against this and the packed
 * tarball against it.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

type Target = { types: string; default: string };

const entry = (srcPath: string): Target => {
  const base = srcPath.replace(/^src\//, './dist/').replace(/\.ts$/, '');
  return { types: `${base}.d.ts`, default: `${base}.js` };
};

/** Element folders that have a define file (the base folder has none). */
export function elementFolders(): string[] {
  const dir = join(root, 'src/elements');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'define.ts')))
    .map((d) => d.name)
    .sort();
}

/**
 * The packaging fields for the current source tree.
 *
 * @example
 * const { exports } = packageFields();
 * exports['./elements/hits']; // { types: './dist/elements/hits/svc-hits.d.ts', default: './dist/elements/hits/svc-hits.js' }
 */
export function packageFields(): Record<string, unknown> {
  const exports: Record<string, unknown> = {
    '.': entry('src/index.ts'),
    './define': entry('src/define.ts'),
  };
  for (const name of elementFolders()) {
    exports[`./elements/${name}`] = entry(`src/elements/${name}/svc-${name}.ts`);
    exports[`./elements/${name}/define`] = entry(`src/elements/${name}/define.ts`);
  }
  for (const layer of ['store', 'client', 'insights', 'protocol', 'engine', 'local', 'controllers']) {
    if (existsSync(join(root, `src/${layer}/index.ts`))) exports[`./${layer}`] = entry(`src/${layer}/index.ts`);
  }
  exports['./hydrate'] = entry('src/hydrate.ts');
  exports['./ssr'] = entry('src/ssr/index.ts');
  exports['./react'] = entry('src/types/react.ts');
  exports['./vue'] = entry('src/types/vue.ts');
  exports['./svc-search.js'] = './dist/svc-search.js';
  exports['./svc-search.all.js'] = './dist/svc-search.all.js';
  exports['./custom-elements.json'] = './custom-elements.json';
  exports['./package.json'] = './package.json';
  return {
    main: './dist/index.js',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports,
    // Only registering a tag (and installing Lit's hydration or server-rendering hooks) is a side effect; every other module can be dropped when unused.
    sideEffects: [
      './dist/define.js',
      './dist/elements/*/define.js',
      './dist/svc-search.js',
      './dist/svc-search.all.js',
      './dist/chunks/*.js',
      './dist/hydrate.js',
      './dist/ssr/*.js',
      // svc-search/engine installs the engine's optional features (features.ts) when it loads
      './dist/engine/index.js',
      './src/define.ts',
      './src/engine/index.ts',
      './src/elements/*/define.ts',
      './src/hydrate.ts',
      './src/ssr/*.ts',
    ],
    files: ['dist', 'src', 'custom-elements.json', 'README.md', '!**/*.test.*', '!**/*.stories.*'],
    customElements: 'custom-elements.json',
  };
}

/** Fields of package.json that differ from `packageFields()`. */
export function packageFieldsDiff(pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))): string[] {
  const want = packageFields();
  return Object.keys(want).filter((key) => !isDeepStrictEqual(pkg[key], want[key]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--write')) {
    // Read-modify-write of the fields this script owns; key order of the rest kept (run under flock).
    const path = join(root, 'package.json');
    const pkg = JSON.parse(readFileSync(path, 'utf8'));
    const want = packageFields();
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(pkg)) {
      if (key === 'scripts')
        Object.assign(
          out,
          Object.fromEntries(
            Object.keys(want)
              .filter((k) => !(k in pkg))
              .map((k) => [k, want[k]]),
          ),
        );
      out[key] = key in want ? want[key] : value;
    }
    writeFileSync(path, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`package.json: wrote ${Object.keys(want).join(', ')}`);
  } else {
    const diff = packageFieldsDiff();
    console.log(JSON.stringify(packageFields(), null, 2));
    if (diff.length) {
      console.error(`package.json differs in: ${diff.join(', ')} (run with --write)`);
      process.exit(1);
    }
  }
}
