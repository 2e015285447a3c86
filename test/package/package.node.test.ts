/**
 * The published package, as a user gets it: `npm pack` of the built tree, unpacked into a temporary
 * project's `node_modules/svc-search`, then
 * - the tarball holds every `exports` target and nothing from tests, stories, benches or local data;
 * - esbuild (the way an app's bundler does it) resolves every browser subpath, refuses `svc-search/service`
 *   for the browser, and — checked on its metafile — importing one element pulls in only that element
 *   (every `./elements/<name>/define` bundled alone: its element, the extras it documents, no client/store/insights
 *   but for `<svc-search>`);
 * - TypeScript resolves the declarations of every subpath (NodeNext and bundler resolution);
 * - Node imports `svc-search/service` and starts the service.
 *
 * `dist/` is built first (`npm run build`) when it is missing or older than a source file; set
 * `SVC_PACKAGE_REBUILD=1` to force it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { elementFolders, packageFields, packageFieldsDiff } from '../../scripts/package-exports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

type Conditional = { types: string; default: string };
const exportsMap = packageFields().exports as Record<string, string | Conditional | { node: Conditional }>;

/** Every file an `exports` entry points at. */
function exportTargets(): string[] {
  const out: string[] = [];
  for (const value of Object.values(exportsMap)) {
    if (typeof value === 'string') out.push(value);
    else if ('node' in value) out.push(value.node.types, value.node.default);
    else out.push(value.types, value.default);
  }
  return out.map((path) => path.replace(/^\.\//, ''));
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureBuilt(): void {
  const marker = join(root, 'dist/index.js');
  const stale =
    !existsSync(marker) ||
    !existsSync(join(root, 'dist/svc-search.js')) ||
    statSync(marker).mtimeMs < newestMtime(join(root, 'src'));
  if (stale || process.env.SVC_PACKAGE_REBUILD) {
    const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, `npm run build failed:\n${result.stdout}\n${result.stderr}`);
  }
  if (!existsSync(join(root, 'custom-elements.json'))) {
    const result = spawnSync(npm, ['run', 'analyze', '--silent'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, `npm run analyze failed:\n${result.stdout}\n${result.stderr}`);
  }
}

describe('package.json', () => {
  it('exports, sideEffects, files and types match the source tree (scripts/package-exports.ts)', () => {
    assert.deepEqual(packageFieldsDiff(), [], 'run: node --import tsx scripts/package-exports.ts --write');
  });

  it('has the subpaths of issue 7: root, define, each element and its define file, store, client, insights, service (node only)', () => {
    for (const key of ['.', './define', './store', './client', './insights'])
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
    assert.deepEqual(Object.keys(exportsMap['./service'] as object), ['node']);
    const sideEffects = packageFields().sideEffects as string[];
    assert.ok(
      sideEffects.every((path) => /(^|\/)define\.(js|ts)$|svc-search\.js$/.test(path)),
      `sideEffects names more than define files: ${sideEffects}`,
    );
  });
});

describe('npm pack', () => {
  let work: string;
  let files: string[];
  const pkgDir = () => join(work, 'node_modules/svc-search');

  before(() => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
    const json = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    });
    const [packed] = JSON.parse(json) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed!.files.map((file) => file.path);
    mkdirSync(pkgDir(), { recursive: true });
    execFileSync('tar', ['-xzf', join(work, packed!.filename), '-C', pkgDir(), '--strip-components=1']);
    // The project's dependencies, as an install would provide them (links to this repository's node_modules).
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name === 'svc-search' || name.startsWith('.')) continue;
      symlinkSync(join(root, 'node_modules', name), join(work, 'node_modules', name));
    }
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('holds every exports target, the bundle, the declarations and the manifest', () => {
    for (const target of exportTargets())
      assert.ok(files.includes(target), `tarball lacks ${target} (an exports target)`);
    for (const path of ['package.json', 'README.md', 'dist/svc-search.js', 'custom-elements.json'])
      assert.ok(files.includes(path), `tarball lacks ${path}`);
    for (const name of elementFolders()) {
      assert.ok(
        files.includes(`dist/elements/${name}/svc-${name}.d.ts`),
        `tarball lacks the declarations of svc-${name}`,
      );
    }
  });

  it('holds nothing from tests, stories, benches, Storybook, CI or local data', () => {
    const unwanted = files.filter(
      (path) =>
        /^(test|tests|stories|bench|\.storybook|\.ci|\.data|docs|node_modules|storybook-static|coverage)\//.test(
          path,
        ) ||
        /\.(test|stories)\.[cm]?[jt]sx?$/.test(path) ||
        /(^|\/)\.(env|DS_Store)|\.tsbuildinfo$|\.sqlite3?(-wal|-shm)?$|\.db$/.test(path),
    );
    assert.deepEqual(unwanted, []);
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
      external: platform === 'node' ? ['better-sqlite3', 'node:*'] : [],
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
    // A template's <svc-highlight>/<svc-snippet> must work: hits/define registers both (documented on svc-hits).
    hits: ['highlight/define', 'highlight/svc-highlight', 'highlight/styles', 'snippet/define', 'snippet/svc-snippet'],
    // Same templates; and the SvcHits class (not its tag) for its list, empty and error strings.
    'infinite-hits': [
      'highlight/define',
      'highlight/svc-highlight',
      'highlight/styles',
      'snippet/define',
      'snippet/svc-snippet',
      'hits/svc-hits',
      'hits/styles',
    ],
    // SvcSnippet extends SvcHighlight; <svc-highlight> is not registered.
    snippet: ['highlight/svc-highlight', 'highlight/styles'],
    // The search box's look, shared.
    autocomplete: ['search-box/styles'],
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

  it('resolves every browser subpath with esbuild, and the whole define entry reaches no service code', async () => {
    for (const key of Object.keys(exportsMap)) {
      if (
        key === './service' ||
        key === './client/secured-key' ||
        key.endsWith('.json') ||
        key === './react' ||
        key === './vue'
      )
        continue;
      const specifier = `svc-search${key.slice(1)}`;
      const { inputs } = await bundle(`import * as m from '${specifier}'; console.log(m);`);
      assert.ok(inputs.length > 0, specifier);
      assert.deepEqual(
        inputs.filter((path) => path.startsWith('svc-search/dist/service/')),
        [],
        `${specifier} reaches service code`,
      );
    }
  });

  it('refuses svc-search/service for the browser and resolves it for Node', async () => {
    await assert.rejects(bundle(`import 'svc-search/service';`), /service/);
    // Secured API keys are made on servers: the subpath exists for Node only, too.
    await assert.rejects(bundle(`import 'svc-search/client/secured-key';`), /secured-key/);
    const secured = await bundle(`export { generateSecuredApiKey } from 'svc-search/client/secured-key';`, 'node');
    assert.ok(secured.inputs.some((path) => path.startsWith('svc-search/dist/client/secured-key')));
    const { inputs } = await bundle(`export { createService } from 'svc-search/service';`, 'node');
    assert.ok(inputs.some((path) => path.startsWith('svc-search/dist/service/')));
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
type Product = { name: string; price: number };
const hits = document.createElement('svc-hits');
const typed: SvcHits = hits;
const products = hits as unknown as SvcHits<Product>;
products.renderHit = (hit) => hit.price.toFixed(2) + hit.name;
export const tree = <svc-hits attribute="name" renderHit={(hit) => String(hit.name)} />;
// @ts-expect-error svc-hits has no such property
export const wrong = <svc-hits notAProperty="x" />;
export { typed, root, store, client, insights };
`,
    );
    writeFileSync(
      join(consumer, 'server.ts'),
      `import { createService } from 'svc-search/service';\nexport const start = () => createService({ dataDir: ':memory:' });\n`,
    );
    for (const moduleResolution of ['NodeNext', 'Bundler']) {
      const module = moduleResolution === 'NodeNext' ? 'NodeNext' : 'ESNext';
      const files = moduleResolution === 'NodeNext' ? ['app.tsx', 'server.ts'] : ['app.tsx'];
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
          files,
        }),
      );
      const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, `tsc (${moduleResolution}) failed:\n${result.stdout}${result.stderr}`);
    }
  });

  it('the packaged CLI (bin svc-search) starts the service and answers', async () => {
    const { spawn } = await import('node:child_process');
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-pack-cli-'));
    const child = spawn(
      process.execPath,
      [join(pkgDir(), 'bin/svc-search.js'), 'serve', '--port', '0', '--data-dir', dataDir],
      { cwd: work },
    );
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no "listening on" within 20 s:\n${out}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolveUrl(match[1]!);
          }
        });
        child.stderr.on('data', (chunk: Buffer) => (out += chunk));
        child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      const response = await fetch(`${url}/1/indexes`, {
        headers: { 'x-service-application-id': 'SVCLOCAL', 'x-service-api-key': 'local-admin-key' },
      });
      assert.equal(response.status, 200);
    } finally {
      child.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('Node imports svc-search/service from the package (a separate process in the consumer project) and the service answers', () => {
    const script = `
      const { createService, DEV_CREDENTIALS } = await import('svc-search/service');
      const service = await createService({ dataDir: ':memory:' });
      const { url } = await service.listen(0, '127.0.0.1');
      const headers = { 'x-service-application-id': DEV_CREDENTIALS.appId, 'x-service-api-key': DEV_CREDENTIALS.adminKey, 'content-type': 'application/json' };
      const put = await fetch(url + '/1/indexes/pack_test/1', { method: 'PUT', headers, body: JSON.stringify({ name: 'Packed phone' }) });
      const task = await put.json();
      await fetch(url + '/1/indexes/pack_test/task/' + task.taskID, { headers });
      const search = await fetch(url + '/1/indexes/pack_test/query', { method: 'POST', headers, body: JSON.stringify({ query: 'packed' }) });
      const body = await search.json();
      await service.close();
      console.log(JSON.stringify({ status: search.status, nbHits: body.nbHits }));
    `;
    const consumer = join(work, 'node-consumer');
    mkdirSync(consumer, { recursive: true });
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout.trim().split('\n').pop()!), { status: 200, nbHits: 1 });
  });
});
