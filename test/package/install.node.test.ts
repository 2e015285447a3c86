/**
 * What a new user gets from the registry: both packages packed (./pack.ts) and installed with `npm install`
 * into empty temporary projects, their dependencies fetched from the registry (no other network: prebuilt
 * binaries are not downloaded, better-sqlite3 compiles from source).
 *
 * - The library alone (`npm install svc-search`): nothing in `node_modules` but `svc-search` and Lit's own
 *   packages (10 with `@lit/context`, `@lit/task` and `@lit-labs/ssr-client`, Lit's hydration support), under
 *   9 MB, no install script anywhere, no service code in the tarball, and Node resolves `svc-search` and
 *   `svc-search/define`. Lit's server renderer `@lit-labs/ssr` is an optional peer dependency: not installed with
 *   the library; installed next to it, `svc-search/ssr` renders a page.
 * - The library and the service together: `svc-search-service serve --demo` (the compiled bin, no tsx in the
 *   tree) starts on a free port, prints its six lines and answers a search of the demo catalogue; the
 *   service's declarations type-check for a consumer.
 *
 * Each install's package count, size and time are printed (`svc-search alone: 9 packages, …`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { npm, type Packed, packAll, root } from './pack.js';

/** Lit's own packages: what `lit`, `@lit/context`, `@lit/task` and `@lit-labs/ssr-client` bring. */
const LIT_PACKAGE =
  /^(lit|lit-html|lit-element|@lit\/[\w-]+|@lit-labs\/ssr-dom-shim|@lit-labs\/ssr-client|@types\/trusted-types)$/;
/**
 * 9 MB: the search engine ships with the library since local search runs it in a worker (its sources, compiled
 * modules, maps and declarations, about 1 MB, that the service package held before).
 */
const LIBRARY_BYTES_LIMIT = 9 * 1024 * 1024;
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

interface InstalledPackage {
  name: string;
  dir: string;
  manifest: { name: string; scripts?: Record<string, string>; dependencies?: Record<string, string> };
}

/** Every package under `node_modules`, nested ones included. */
function installedPackages(nodeModules: string): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  if (!existsSync(nodeModules)) return out;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(nodeModules, entry.name)).map((name) => join(nodeModules, entry.name, name))
      : [join(nodeModules, entry.name)];
    for (const dir of dirs) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      out.push({ name: manifest.name, dir, manifest });
      out.push(...installedPackages(join(dir, 'node_modules')));
    }
  }
  return out;
}

/** Bytes of every file under `dir` (the sum of file sizes, as install-size tools count them). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** An empty project in a temporary folder with `tarballs` installed from the registry; returns its folder. */
function installInto(tarballs: Packed[]): { dir: string; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-install-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'new-user', version: '1.0.0', private: true }));
  const started = performance.now();
  const result = spawnSync(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.map((packed) => packed.tarball)],
    {
      cwd: dir,
      encoding: 'utf8',
      // No download of prebuilt binaries from outside the registry: native code compiles from source.
      env: { ...process.env, npm_config_build_from_source: 'true' },
    },
  );
  assert.equal(result.status, 0, `npm install failed:\n${result.stdout}\n${result.stderr}`);
  return { dir, seconds: (performance.now() - started) / 1000 };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

let work: string;
let library: Packed;
let service: Packed;
const projects: string[] = [];

before(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-install-pack-'));
  ({ library, service } = packAll(work));
});

after(() => {
  for (const dir of [work, ...projects]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm install svc-search (the library alone)', () => {
  let project: string;
  let packages: InstalledPackage[];

  before(() => {
    const { dir, seconds } = installInto([library]);
    project = dir;
    projects.push(dir);
    packages = installedPackages(join(dir, 'node_modules'));
    const bytes = bytesUnder(join(dir, 'node_modules'));
    console.log(
      `svc-search alone: ${packages.length} packages, ${megabytes(bytes)} (${bytes} B), ${seconds.toFixed(1)} s`,
    );
  });

  it("brings nothing but svc-search and Lit's own packages: 10 with @lit/context, @lit/task and @lit-labs/ssr-client", () => {
    const names = packages.map((pkg) => pkg.name).sort();
    assert.deepEqual(
      names.filter((name) => name !== 'svc-search' && !LIT_PACKAGE.test(name)),
      [],
      `not Lit: ${names}`,
    );
    assert.deepEqual(names, [
      '@lit-labs/ssr-client',
      '@lit-labs/ssr-dom-shim',
      '@lit/context',
      '@lit/reactive-element',
      '@lit/task',
      '@types/trusted-types',
      'lit',
      'lit-element',
      'lit-html',
      'svc-search',
    ]);
    const manifest = packages.find((pkg) => pkg.name === 'svc-search')!.manifest;
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}).sort(), [
      '@lit-labs/ssr-client',
      '@lit/context',
      '@lit/task',
      'lit',
    ]);
    // The server renderer is for those who render on a server: an optional peer, not installed.
    assert.deepEqual(Object.keys((manifest as { peerDependencies?: object }).peerDependencies ?? {}), [
      '@lit-labs/ssr',
    ]);
    assert.ok(!names.includes('@lit-labs/ssr'));
  });

  it('is under 9 MB', () => {
    const bytes = bytesUnder(join(project, 'node_modules'));
    assert.ok(bytes < LIBRARY_BYTES_LIMIT, `node_modules holds ${megabytes(bytes)}`);
  });

  it('has no install script anywhere in its tree (and no native code to build)', () => {
    const withScripts = packages.filter(
      (pkg) =>
        INSTALL_SCRIPTS.some((script) => pkg.manifest.scripts?.[script]) || existsSync(join(pkg.dir, 'binding.gyp')),
    );
    assert.deepEqual(
      withScripts.map((pkg) => pkg.name),
      [],
    );
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    assert.deepEqual(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path),
      [],
    );
  });

  it("Node resolves import('svc-search') and svc-search/define (classes exported, every tag registered)", () => {
    const script = `
      const root = await import('svc-search');
      await import('svc-search/define');
      console.log(JSON.stringify({
        classes: typeof root.SvcHits === 'function' && typeof root.SvcSearch === 'function',
        defined: ['svc-search', 'svc-search-box', 'svc-hits', 'svc-pagination'].every((tag) => customElements.get(tag)),
        resolved: [import.meta.resolve('svc-search'), import.meta.resolve('svc-search/define')],
      }));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    const answer = JSON.parse(result.stdout.trim().split('\n').pop()!);
    assert.equal(answer.classes, true);
    assert.equal(answer.defined, true);
    assert.match(answer.resolved[0], /node_modules\/svc-search\/dist\/index\.js$/);
    assert.match(answer.resolved[1], /node_modules\/svc-search\/dist\/define\.js$/);
  });

  it('with @lit-labs/ssr installed next to it, svc-search/ssr renders a page (an unreachable host: 503, error state)', () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies['@lit-labs/ssr'];
    const install = spawnSync(
      npm,
      ['install', '--no-audit', '--no-fund', '--prefer-offline', `@lit-labs/ssr@${version}`],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    assert.equal(install.status, 0, install.stderr);
    const script = `
      import { html } from 'lit';
      import { renderSearch } from 'svc-search/ssr';
      const page = html\`<svc-search index-name="products" routing><svc-hits attribute="name"></svc-hits></svc-search>\`;
      const { status, html: body } = await renderSearch(page, { url: '/?q=a', appId: 'A', apiKey: 'K', hosts: 'http://127.0.0.1:9' });
      console.log(JSON.stringify({ status, shadow: body.includes('shadowrootmode="open"'), error: body.includes('part="error"'), resolved: import.meta.resolve('svc-search/ssr') }));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    const answer = JSON.parse(result.stdout.trim().split('\n').pop()!);
    assert.deepEqual(
      { status: answer.status, shadow: answer.shadow, error: answer.error },
      { status: 503, shadow: true, error: true },
    );
    assert.match(answer.resolved, /node_modules\/svc-search\/dist\/ssr\/index\.js$/);
  });

  it('the tarball holds no service code: no service files, no Node built-in or service dependency imported', () => {
    assert.deepEqual(
      library.files.filter((path) => /(^|\/)(service|bin)\/|secured-key|cli\.[jt]s$/.test(path)),
      [],
    );
    const installed = join(project, 'node_modules/svc-search');
    const offending: string[] = [];
    for (const path of library.files.filter((file) => /\.(js|ts)$/.test(file) && !file.endsWith('.d.ts'))) {
      const source = readFileSync(join(installed, path), 'utf8');
      if (/\bfrom\s*['"](node:|better-sqlite3|hono|@hono\/|zod|cheerio|csv-parse|@svc-search\/)/.test(source))
        offending.push(path);
    }
    assert.deepEqual(offending, []);
  });
});

describe('npm install svc-search @svc-search/service (library and service together)', () => {
  let project: string;

  before(() => {
    const { dir, seconds } = installInto([library, service]);
    project = dir;
    projects.push(dir);
    const packages = installedPackages(join(dir, 'node_modules'));
    const bytes = bytesUnder(join(dir, 'node_modules'));
    console.log(
      `svc-search + @svc-search/service: ${packages.length} packages, ${megabytes(bytes)} (${bytes} B), ${seconds.toFixed(1)} s`,
    );
  });

  it('svc-search-service serve --demo starts on a free port, prints its lines and answers a search (no tsx in the tree)', async () => {
    assert.ok(!existsSync(join(project, 'node_modules/tsx')), 'tsx was installed: the service must run without it');
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-install-data-'));
    projects.push(dataDir);
    const bin = join(project, 'node_modules/.bin/svc-search-service');
    // `--port 0`: the system's free port, read from the first line (a port found free beforehand may be taken
    // by another process before the service listens on it).
    const child = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir, '--demo'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      const lines = await new Promise<string[]>((resolve, reject) => {
        const seen: string[] = [];
        const timer = setTimeout(() => reject(new Error(`no six lines within 60 s: ${seen}\n${stderr}`)), 60_000);
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
        createInterface({ input: child.stdout }).on('line', (line) => {
          seen.push(line);
          if (seen.length === 6) {
            clearTimeout(timer);
            resolve(seen);
          }
        });
      });
      const port = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/.exec(lines[0]!)?.[1];
      assert.ok(port && Number(port) > 0, lines[0]);
      assert.deepEqual(lines, [
        `listening on http://127.0.0.1:${port}`,
        'application id: SVCLOCAL',
        'admin key: local-admin-key',
        'search key: local-search-key',
        'crawler user id: local-crawler',
        'crawler api key: local-crawler-key',
      ]);
      const response = await fetch(`http://127.0.0.1:${port}/1/indexes/products/query`, {
        method: 'POST',
        headers: {
          'x-service-application-id': 'SVCLOCAL',
          'x-service-api-key': 'local-search-key',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ query: 'chair', hitsPerPage: 3 }),
      });
      assert.equal(response.status, 200);
      const answer = (await response.json()) as { nbHits: number; hits: Array<{ name: string }> };
      assert.ok(answer.nbHits > 50, `nbHits ${answer.nbHits}`);
      assert.match(answer.hits[0]!.name, /chair/i);
    } finally {
      child.kill();
    }
  });

  it("the service's declarations type-check for a TypeScript consumer (createService, handler, secured keys)", () => {
    const consumer = join(project, 'consumer');
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, 'server.ts'),
      `import { createService, DEV_CREDENTIALS, type Service } from '@svc-search/service';
import { generateSecuredApiKey } from '@svc-search/service/secured-key';
import type { SearchResponse } from 'svc-search/protocol';
export async function start(): Promise<Service> {
  const service = await createService({ dataDir: ':memory:', demo: false });
  const middleware: typeof service.handler = service.handler;
  void middleware;
  return service;
}
export const key: string = generateSecuredApiKey(DEV_CREDENTIALS.searchKey, { restrictIndices: ['products'] });
export type Answer = SearchResponse<{ name: string }>;
`,
    );
    // @types/node is the consumer's own (a server project has it); everything else comes from the install.
    mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
    if (!existsSync(join(project, 'node_modules/@types/node')))
      symlinkSync(join(root, 'node_modules/@types/node'), join(project, 'node_modules/@types/node'));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          lib: ['ES2023'],
          types: ['node'],
        },
        files: ['server.ts'],
      }),
    );
    const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
  });
});
