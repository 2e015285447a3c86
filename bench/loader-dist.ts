/** The packed `dist/` the page benchmarks (size, byte-map, network) load: built once per `npm run bench`. */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
let built = false;

/**
 * The folder of the loader build: `SVC_BENCH_DIST` as given, or `dist/` after `vite build --mode loader`, run
 * by the first section that asks (the sections of one `npm run bench` share that build).
 *
 * @example
 * const dist = loaderDist();
 */
export function loaderDist(): string {
  if (process.env.SVC_BENCH_DIST) return process.env.SVC_BENCH_DIST;
  if (!built) {
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'loader', '--logLevel', 'error'],
      // the worker's source maps kept (not named in its files) for the byte map's worker section
      { cwd: root, stdio: 'inherit', env: { ...process.env, SVC_BENCH_WORKER_MAPS: '1' } },
    );
    if (result.status !== 0) throw new Error('vite build --mode loader failed');
    built = true;
  }
  return join(root, 'dist');
}
