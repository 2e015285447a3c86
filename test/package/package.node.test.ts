/**
 * The published library, as a user's bundler and TypeScript see it: `npm pack` of the built tree (with the
 * service package, see ./pack.ts), unpacked into a temporary project's `node_modules/svc-search` next to this
 * repository's dependencies, then
 * - the library tarball holds every `exports` target and nothing from tests, stories, benches, local data or
 *   the service; the service tarball holds its compiled JavaScript, declarations, bin and README only;
 * - esbuild (the way an app's bundler does it) resolves every subpath, and — checked on its metafile —
 *   importing one element pulls in only that element (every `./elements/<name>/define` bundled alone: its
 *   element, the extras it documents, no client/store/insights but for `<svc-search>`);
 * - the Node-only subpaths of earlier versions (`./service`, `./client/secured-key`) are gone;
 * - TypeScript resolves the declarations of every subpath (NodeNext and bundler resolution).
 * What a real install brings (packages, size, install scripts) and the service's bin are install.node.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { elementFolders, packageFields, packageFieldsDiff } from '../../scripts/package-exports.js';
import { packAll, root } from './pack.js';

type Conditional = { types: string; default: string };
const exportsMap = packageFields().exports as Record<string, string | Conditional>;

/** Every file an `exports` entry points at. */
function exportTargets(): string[] {
  const out: string[] = [];
  for (const value of Object.values(exportsMap)) {
    if (typeof value === 'string') out.push(value);
    else out.push(value.types, value.default);
  }
  return out.map((path) => path.replace(/^\.\//, ''));
}

describe('package.json', () => {
  it('exports, sideEffects, files and types match the source tree (scripts/package-exports.ts)', () => {
    assert.deepEqual(packageFieldsDiff(), [], 'run: node --import tsx scripts/package-exports.ts --write');
  });

  it('has the subpaths: root, define, each element and its define file, store, client, insights, protocol, hydrate; ssr the one Node-only', () => {
    for (const key of ['.', './define', './store', './client', './insights', './protocol', './hydrate', './ssr'])
      assert.ok(exportsMap[key], `exports lacks ${key}`);
    for (const name of [
      'search',
      'search-box',
      'hits',
      'refinement-list',
      'pagination',
      'recommendations',
      'trending',
    ]) {
      assert.ok(exportsMap[`./elements/${name}`], `exports lacks ./elements/${name}`);
      assert.ok(exportsMap[`./elements/${name}/define`], `exports lacks ./elements/${name}/define`);
    }
    // The service and secured API keys are the @svc-search/service package now.
    for (const key of ['./service', './client/secured-key']) assert.equal(exportsMap[key], undefined, key);
    assert.ok(Object.values(exportsMap).every((value) => typeof value === 'string' || !('node' in value)));
    const sideEffects = packageFields().sideEffects as string[];
    assert.ok(
      // The define files, and the browser builds (the loader, its chunks, the single file) that register tags;
      // Lit's hydration support and the server renderer, which install Lit hooks; the engine's entry, which installs
      // its optional features (src/engine/features.ts).
      sideEffects.every((path) =>
        /(^|\/)(define|hydrate)\.(js|ts)$|\/ssr\/\*\.(js|ts)$|svc-search(\.all)?\.js$|^\.\/dist\/chunks\/\*\.js$|^\.\/(dist|src)\/engine\/index\.(js|ts)$/.test(
          path,
        ),
      ),
      `sideEffects names more than define files and the browser builds: ${sideEffects}`,
    );
  });
});

describe('npm pack', () => {
  let work: string;
  let files: string[];
  let serviceFiles: string[];
  const pkgDir = () => join(work, 'node_modules/svc-search');

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
    const { library, service } = packAll(work);
    files = library.files;
    serviceFiles = service.files;
    mkdirSync(pkgDir(), { recursive: true });
    execFileSync('tar', ['-xzf', library.tarball, '-C', pkgDir(), '--strip-components=1']);
    // The tools' dependencies, as an install would provide them (links to this repository's node_modules).
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name === 'svc-search' || name === '@svc-search' || name.startsWith('.')) continue;
      symlinkSync(join(root, 'node_modules', name), join(work, 'node_modules', name));
    }
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('holds every exports target, the bundle, the declarations and the manifest', () => {
    for (const target of exportTargets())
      assert.ok(files.includes(target), `tarball lacks ${target} (an exports target)`);
    for (const path of [
      'package.json',
      'README.md',
      'dist/svc-search.js',
      'dist/svc-search.all.js',
      'custom-elements.json',
    ])
      assert.ok(files.includes(path), `tarball lacks ${path}`);
    // The loader's chunks travel with it (a core and one per element folder at least).
    const chunks = files.filter((path) => /^dist\/chunks\/[\w-]+\.js$/.test(path));
    assert.ok(
      chunks.some((path) => path.startsWith('dist/chunks/core-')),
      'the core chunk',
    );
    assert.ok(chunks.length > elementFolders().length, `${chunks.length} chunks`);
    for (const name of elementFolders()) {
      assert.ok(
        files.includes(`dist/elements/${name}/svc-${name}.d.ts`),
        `tarball lacks the declarations of svc-${name}`,
      );
    }
  });

  it('holds nothing from tests, stories, benches, Storybook, CI, local data or the service', () => {
    const unwanted = files.filter(
      (path) =>
        /^(test|tests|stories|bench|bin|service|\.storybook|\.ci|\.data|docs|node_modules|storybook-static|coverage)\//.test(
          path,
        ) ||
        /(^|\/)service\/|secured-key/.test(path) ||
        /\.(test|stories)\.[cm]?[jt]sx?$/.test(path) ||
        /(^|\/)\.(env|DS_Store)|\.tsbuildinfo$|\.sqlite3?(-wal|-shm)?$|\.db$/.test(path),
    );
    assert.deepEqual(unwanted, []);
  });

  it('the service tarball holds its compiled JavaScript with declarations, the bin and the README, no sources or tests', () => {
    for (const path of ['package.json', 'README.md', 'bin/svc-search-service.js', 'dist/index.js', 'dist/cli.js'])
      assert.ok(serviceFiles.includes(path), `service tarball lacks ${path}`);
    assert.ok(serviceFiles.includes('dist/index.d.ts'), 'service tarball lacks its declarations');
    const unwanted = serviceFiles.filter(
      (path) => !/^(dist\/.+\.(js|d\.ts)|bin\/[\w-]+\.js|package\.json|README\.md)$/.test(path),
    );
    assert.deepEqual(unwanted, []);
    assert.deepEqual(
      serviceFiles.filter((path) => /\.test\.|(^|\/)test\/|\.ts$/.test(path) && !path.endsWith('.d.ts')),
      [],
    );
  });

  /** Bundles `source` from inside the temporary project, as an app's bundler would. */
  async function bundle(source: string, platform: 'browser' | 'node' = 'browser') {
    const result = await build({
      stdin: { contents: source, resolveDir: work, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      platform,
      write: false,
      metafile: true,
      logLevel: 'silent',
      preserveSymlinks: false,
    });
    // Files that contribute bytes to the output (the metafile also lists files parsed and then shaken out).
    const output = Object.values(result.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path.replace(/^.*node_modules\/svc-search\//, 'svc-search/'));
    const code = result.outputFiles[0]!.contents;
    return { inputs, gzip: gzipSync(code).byteLength };
  }

  /**
   * What a define subpath may bring from other element folders besides its own element, and why. Anything
   * else from another folder is a leak. (Paths under `svc-search/dist/elements/`, without `.js`.)
   */
  const BROUGHT: Record<string, string[]> = {
    // A template's <svc-highlight>/<svc-snippet> must work: hits/define registers both (documented on svc-hits),
    // through hits/template-elements (their classes, not their define files: no chunk of their own on the page).
    // (Their styles' text in a module of its own, shared with the first-paint script.)
    hits: ['highlight/svc-highlight', 'highlight/styles', 'highlight/style-text', 'snippet/svc-snippet'],
    // Same templates; and the SvcHits class (not its tag) for its list, empty and error strings (its styles' text
    // in a module of its own, shared with the first-paint script).
    'infinite-hits': [
      'highlight/svc-highlight',
      'highlight/styles',
      'highlight/style-text',
      'snippet/svc-snippet',
      'hits/svc-hits',
      'hits/styles',
      'hits/style-text',
      'hits/template-elements',
    ],
    // SvcSnippet extends SvcHighlight; <svc-highlight> is not registered.
    snippet: ['highlight/svc-highlight', 'highlight/styles', 'highlight/style-text'],
    // (The autocomplete and the search box share a base and its look in base/: neither brings the other.)
    // The Recommend list base and its styles, not <svc-recommendations> itself.
    trending: ['recommendations/recommend-list', 'recommendations/styles'],
  };

  it('bundles each ./elements/*/define alone with its own element, the documented extras only, and no data layer but for <svc-search>', async () => {
    const defines = Object.keys(exportsMap).filter((key) => /^\.\/elements\/[^/]+\/define$/.test(key));
    assert.deepEqual(
      defines.map((key) => key.split('/')[2]).sort(),
      elementFolders(),
      'one define subpath per element folder',
    );
    const layer = (inputs: string[], name: string) =>
      inputs.filter((path) => path.startsWith(`svc-search/dist/${name}/`));
    const failures: string[] = [];
    for (const key of defines) {
      const name = key.split('/')[2]!;
      const { inputs } = await bundle(`import 'svc-search${key.slice(1)}';`);
      for (const own of [
        `svc-search/dist/elements/${name}/define.js`,
        `svc-search/dist/elements/${name}/svc-${name}.js`,
      ]) {
        if (!inputs.includes(own)) failures.push(`${key}: lacks ${own}`);
      }
      const others = inputs
        .map((path) => /^svc-search\/dist\/elements\/(.+)\.js$/.exec(path)?.[1])
        .filter((path): path is string => !!path && !path.startsWith(`${name}/`) && !path.startsWith('base/'))
        .sort();
      const expected = [...(BROUGHT[name] ?? [])].sort();
      if (JSON.stringify(others) !== JSON.stringify(expected))
        failures.push(`${key}: brings ${JSON.stringify(others)}, expected ${JSON.stringify(expected)}`);
      for (const name2 of ['client', 'store', 'insights']) {
        const found = layer(inputs, name2);
        // The root creates the client, the store and insights from its attributes: it needs all three.
        if (name === 'search' ? found.length === 0 : found.length > 0)
          failures.push(`${key}: ${name2} ${found.length ? found.join(', ') : 'missing'}`);
      }
      if (layer(inputs, 'service').length) failures.push(`${key}: reaches service code`);
    }
    assert.deepEqual(failures, []);
  });

  const elementsIn = (inputs: string[]) =>
    [
      ...new Set(
        inputs
          .map((path) => /^svc-search\/dist\/elements\/([^/]+)\//.exec(path)?.[1])
          .filter((name) => name && name !== 'base'),
      ),
    ].sort();

  it('resolves every subpath with esbuild for the browser, and none brings a Node built-in', async () => {
    for (const key of Object.keys(exportsMap)) {
      // `./ssr` is the server renderer (Node only): checked below.
      if (key.endsWith('.json') || key === './react' || key === './vue' || key === './ssr') continue;
      const specifier = `svc-search${key.slice(1)}`;
      const { inputs } = await bundle(`import * as m from '${specifier}'; console.log(m);`);
      assert.ok(inputs.length > 0, specifier);
      assert.deepEqual(
        inputs.filter((path) => path.startsWith('svc-search/dist/ssr/') || path.includes('@lit-labs/ssr/')),
        [],
        `${specifier} brings the server renderer`,
      );
      assert.deepEqual(
        inputs.filter(
          (path) =>
            path !== '<stdin>' &&
            !/^(svc-search\/dist\/|node_modules\/(lit|lit-html|lit-element|@lit|@lit-labs)\/)/.test(path),
        ),
        [],
        `${specifier} brings more than the library and Lit`,
      );
    }
  });

  it('svc-search/ssr resolves for Node, with Lit’s server renderer', async () => {
    const { inputs } = await bundle(
      `import { renderSearch } from 'svc-search/ssr'; console.log(renderSearch);`,
      'node',
    );
    assert.ok(inputs.includes('svc-search/dist/ssr/render-search.js'));
    assert.ok(inputs.some((path) => path.includes('node_modules/@lit-labs/ssr/')));
  });

  it('the Node-only subpaths of earlier versions are gone, for the browser and for Node (the service package has them)', async () => {
    for (const platform of ['browser', 'node'] as const) {
      await assert.rejects(bundle(`import 'svc-search/service';`, platform), /service/);
      await assert.rejects(bundle(`import 'svc-search/client/secured-key';`, platform), /secured-key/);
    }
  });

  it('pulls in only the element imported: each define subpath, and a class from the root with tree shaking', async () => {
    const whole = await bundle(`import 'svc-search/define';`);
    const all = elementsIn(whole.inputs);
    assert.ok(all.length >= 7, `define registers only ${all}`);

    const searchBox = await bundle(`import 'svc-search/elements/search-box/define';`);
    assert.deepEqual(elementsIn(searchBox.inputs), ['search-box']);
    assert.ok(searchBox.gzip < whole.gzip / 2, `one element ${searchBox.gzip} B vs all ${whole.gzip} B`);

    const pagination = await bundle(`import 'svc-search/elements/pagination/define';`);
    assert.deepEqual(elementsIn(pagination.inputs), ['pagination']);

    // The root module re-exports every class; with sideEffects naming only define files, the others go.
    const fromRoot = await bundle(
      `import { SvcSearchBox } from 'svc-search'; customElements.define('my-search-box', SvcSearchBox);`,
    );
    assert.deepEqual(elementsIn(fromRoot.inputs), ['search-box']);
    // Importing a class registers nothing.
    const classOnly = await bundle(`import { SvcHits } from 'svc-search/elements/hits'; console.log(SvcHits);`);
    assert.ok(!classOnly.inputs.includes('svc-search/dist/elements/hits/define.js'));
  });

  it('type-checks a consumer of every subpath with TypeScript (NodeNext and bundler resolution)', () => {
    const consumer = join(work, 'consumer');
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, 'app.tsx'),
      `import 'svc-search/define';
import type {} from 'svc-search/react';
import { SvcHits } from 'svc-search/elements/hits';
import 'svc-search/elements/hits/define';
import * as root from 'svc-search';
import * as store from 'svc-search/store';
import * as client from 'svc-search/client';
import * as insights from 'svc-search/insights';
import { SEARCH_PARAMETERS, validateInsightsEvent, type SearchResponse } from 'svc-search/protocol';
type Product = { name: string; price: number };
const hits = document.createElement('svc-hits');
const typed: SvcHits = hits;
const products = hits as unknown as SvcHits<Product>;
products.renderHit = (hit) => hit.price.toFixed(2) + hit.name;
export const tree = <svc-hits attribute="name" renderHit={(hit) => String(hit.name)} />;
// @ts-expect-error svc-hits has no such property
export const wrong = <svc-hits notAProperty="x" />;
export const hitsPerPage: string | undefined = SEARCH_PARAMETERS.hitsPerPage;
export const problem = validateInsightsEvent({})?.field;
export const answer: SearchResponse<Product> | undefined = undefined;
export { typed, root, store, client, insights };
`,
    );
    for (const moduleResolution of ['NodeNext', 'Bundler']) {
      const module = moduleResolution === 'NodeNext' ? 'NodeNext' : 'ESNext';
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module,
            moduleResolution,
            jsx: 'react-jsx',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            types: [],
          },
          files: ['app.tsx'],
        }),
      );
      const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, `tsc (${moduleResolution}) failed:\n${result.stdout}${result.stderr}`);
    }
  });
});
