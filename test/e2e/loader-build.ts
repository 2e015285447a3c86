/**
 * The loader the end-to-end pages load (`dist/svc-search.js`, which imports the element chunks from `dist/chunks/`),
 * built from the sources when it is missing or older than them: only the bundle step (`vite build --mode loader`,
 * no type check). `SVC_E2E_REBUILD=1` forces the build; `npm run build` builds the same files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The newest modification time of the files under `dir`, recursively.
 *
 * @example
 * const stale = statSync('storybook-static/index.html').mtimeMs < newestFileTime('src');
 */
export function newestFileTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestFileTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist/svc-search.js` and its chunks when missing, older than a file under `src/` or than the build's
 * configuration (`vite.config.ts`, `scripts/element-chunks.ts`), or when `SVC_E2E_REBUILD=1`; fails the test with
 * Vite's output if the build fails.
 *
 * @example
 * before(() => ensureLoaderBuilt());
 */
export function ensureLoaderBuilt(): void {
  const loader = join(root, 'dist/svc-search.js');
  const sources = Math.max(
    newestFileTime(join(root, 'src')),
    statSync(join(root, 'vite.config.ts')).mtimeMs,
    statSync(join(root, 'scripts/element-chunks.ts')).mtimeMs,
  );
  const stale = !existsSync(loader) || statSync(loader).mtimeMs < sources;
  if (!stale && !process.env.SVC_E2E_REBUILD) return;
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'loader', '--logLevel', 'error'],
    { cwd: root, encoding: 'utf8' },
  );
  assert.equal(result.status, 0, `vite build failed:\n${result.stdout}\n${result.stderr}`);
}
