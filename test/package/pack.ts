/**
 * Building and packing the two packages of the workspace for the package tests: the library `svc-search`
 * (the repository root) and `@svc-search/service` (`service/`), as `npm pack` makes them for the registry.
 *
 * Both are built first (`npm run build`) when a build output is missing or older than a source file; set
 * `SVC_PACKAGE_REBUILD=1` to force it.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale = (output: string, sources: string[]) =>
  !existsSync(join(root, output)) ||
  statSync(join(root, output)).mtimeMs < Math.max(...sources.map((dir) => newestMtime(join(root, dir))));

/** Builds both packages unless their outputs are newer than every source file. */
export function ensureBuilt(): void {
  const needed =
    process.env.SVC_PACKAGE_REBUILD ||
    !existsSync(join(root, 'dist/svc-search.js')) ||
    stale('dist/index.js', ['src']) ||
    stale('service/dist/cli.js', ['src/protocol', 'service/src']);
  if (needed) {
    const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, `npm run build failed:\n${result.stdout}\n${result.stderr}`);
  }
  if (!existsSync(join(root, 'custom-elements.json'))) {
    const result = spawnSync(npm, ['run', 'analyze', '--silent'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, `npm run analyze failed:\n${result.stdout}\n${result.stderr}`);
  }
}

export interface Packed {
  name: string;
  /** Absolute path of the tarball. */
  tarball: string;
  /** Paths inside the tarball (without the `package/` prefix). */
  files: string[];
}

/**
 * Packs the library and the service into `destination` (after `ensureBuilt`; pack scripts are skipped since
 * the build is current).
 *
 * @example
 * const { library, service } = packAll(mkdtempSync(join(tmpdir(), 'svc-pack-')));
 */
export function packAll(destination: string): { library: Packed; service: Packed } {
  ensureBuilt();
  const json = execFileSync(
    npm,
    [
      'pack',
      '--json',
      '--ignore-scripts',
      '--workspaces',
      '--include-workspace-root',
      '--pack-destination',
      destination,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const packed = (JSON.parse(json) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>).map(
    (entry): Packed => ({
      name: entry.name,
      tarball: join(destination, entry.filename),
      files: entry.files.map((file) => file.path),
    }),
  );
  const library = packed.find((entry) => entry.name === 'svc-search');
  const service = packed.find((entry) => entry.name === '@svc-search/service');
  assert.ok(library && service, `npm pack made ${packed.map((entry) => entry.name)}`);
  return { library, service };
}
