/**
 * `npm start [-- --port 6006] [--host 127.0.0.1] [--data-dir .data]`: the Storybook catalogue of the
 * elements, with the local service mounted in process on the same origin (`.storybook/local-service.ts`,
 * a Vite plugin's `configureServer`) and the demo catalogue loaded into `products` (and its price
 * replicas) on first start. Data persists in `--data-dir` (default `.data/`).
 *
 * It regenerates `custom-elements.json` (the autodocs read it), then runs `storybook dev` with telemetry
 * and version checks off. Stop it with Ctrl-C.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  args: process.argv.slice(2),
  strict: true,
  options: {
    port: { type: 'string', default: process.env.PORT ?? '6006' },
    host: { type: 'string', default: '127.0.0.1' },
    'data-dir': { type: 'string', default: process.env.SVC_DATA_DIR ?? '.data' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`npm start: --port must be an integer from 1 to 65535, got ${values.port}`);
  process.exit(2);
}

const analyze = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
    'analyze',
    '--config',
    'custom-elements-manifest.config.mjs',
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (analyze.status !== 0) {
  console.error('npm start: generating custom-elements.json failed');
  process.exit(analyze.status ?? 1);
}

const env = {
  ...process.env,
  STORYBOOK_DISABLE_TELEMETRY: '1',
  SVC_DATA_DIR: resolve(root, values['data-dir']!),
};
// `--import tsx`: the Storybook config loads the TypeScript service (relative `.js` imports of `.ts` files).
const storybook = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    join(root, 'node_modules/storybook/dist/bin/dispatcher.js'),
    'dev',
    '--port',
    String(port),
    '--host',
    values.host!,
    '--no-version-updates',
    '--no-open',
    '--exact-port',
  ],
  { cwd: root, env, stdio: 'inherit' },
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => storybook.kill(signal));
}
storybook.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
