/**
 * Starts the Next.js example as `npm run example:ssr` starts the plain one:
 *
 *   npm run build   # the library's dist/: the server renderer and the browser modules the page bundles
 *   npm run example:nextjs -- --port 3000 --hosts http://127.0.0.1:8787 --app-id SVCLOCAL --api-key local-search-key [--index-name products]
 *
 * The example is not a workspace of the repository (Next.js is about 330 MB installed, which the library's
 * contributors need not download): its dependencies are installed here on the first start (`npm install` in
 * `examples/nextjs`, from its own lock file), and the app is built (`next build`) when its build is missing or
 * older than its sources or the library's `dist/`. Then `next start` serves it; the configuration reaches the
 * page through the environment (`SVC_APP_ID`, `SVC_API_KEY`, `SVC_HOSTS`, `SVC_SERVER_HOSTS`, `SVC_INDEX_NAME`).
 *
 * Prints `listening on http://HOST:PORT` once the server accepts connections (`--port 0`: a free port).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, '../..');
const next = join(here, 'node_modules/next/dist/bin/next');
const quiet = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** Newest modification time of the files under `path` (a file: its own). */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = 0;
  for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry)));
  return time;
}

/** Runs a step of the setup in the example's directory, its output on stderr; exits when it fails. */
function step(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: here, env: quiet, stdio: ['ignore', process.stderr, 'inherit'] });
  if (result.status !== 0) {
    console.error(`example:nextjs: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

/** A free loopback port, for `--port 0` (`next start` needs a number it can print). */
function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '127.0.0.1' },
    hosts: { type: 'string' },
    'server-hosts': { type: 'string' },
    'app-id': { type: 'string' },
    'api-key': { type: 'string' },
    'index-name': { type: 'string', default: 'products' },
  },
});
if (!values.hosts || !values['app-id'] || !values['api-key']) {
  console.error(
    'usage: npm run example:nextjs -- --port P --hosts URL --app-id ID --api-key KEY [--index-name products]',
  );
  process.exit(2);
}
const dist = join(repository, 'dist');
if (!existsSync(join(dist, 'ssr/index.js'))) {
  console.error('example:nextjs: the library is not built: run `npm run build` first');
  process.exit(1);
}

const installed = join(here, 'node_modules/.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(here, 'package-lock.json')).mtimeMs) {
  step('npm', ['install', '--no-audit', '--no-fund']);
}
const build = join(here, '.next/BUILD_ID');
const sources = Math.max(
  newest(join(here, 'app')),
  newest(join(here, 'next.config.mjs')),
  newest(join(here, 'package-lock.json')),
  newest(dist),
);
if (!existsSync(build) || statSync(build).mtimeMs < sources) step(process.execPath, [next, 'build']);

const host = values.host!;
const port = values.port === '0' ? await freePort(host) : Number(values.port);
const server = spawn(process.execPath, [next, 'start', '--port', String(port), '--hostname', host], {
  cwd: here,
  env: {
    ...quiet,
    SVC_APP_ID: values['app-id'],
    SVC_API_KEY: values['api-key'],
    SVC_HOSTS: values.hosts,
    SVC_SERVER_HOSTS: values['server-hosts'] ?? '',
    SVC_INDEX_NAME: values['index-name'],
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let announced = false;
server.stdout!.on('data', (chunk: Buffer) => {
  process.stderr.write(chunk);
  if (!announced && /Ready in/.test(chunk.toString('utf8'))) {
    announced = true;
    console.log(`listening on http://${host}:${port}`);
  }
});
server.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
