/**
 * What the server-side rendering tests and benchmark share: the built package (`dist/`, built when older than the
 * sources), the real service with the demo catalogue on a loopback port, the example server started as a user
 * starts it (`npm run example:ssr -- …`, ready once it prints `listening on http://HOST:PORT`), and Chromium.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createClient } from '../../src/client/index.js';
import type { SearchClient } from '../../src/client/types.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Newest modification time of the library's sources (and of the build configuration). */
function newestSourceTime(dir = join(root, 'src')): number {
  let newest = Math.max(
    statSync(join(root, 'vite.config.ts')).mtimeMs,
    statSync(join(root, 'scripts/build.ts')).mtimeMs,
  );
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the library (`dist/`, `npm run build` without the service) when it is missing or older than `src/`. */
export function ensureLibraryBuilt(): void {
  const marker = join(root, 'dist/ssr/index.js');
  const chunks = join(root, 'dist/chunks');
  const stale =
    !existsSync(marker) ||
    !existsSync(chunks) ||
    Math.min(statSync(marker).mtimeMs, statSync(join(root, 'dist/svc-search.js')).mtimeMs) < newestSourceTime();
  if (!stale && !process.env.SVC_E2E_REBUILD) return;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--library'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `build failed:\n${result.stdout}\n${result.stderr}`);
}

export interface DemoService {
  url: string;
  appId: string;
  searchKey: string;
  admin: SearchClient;
  close(): Promise<void>;
}

/** The service with the demo catalogue (`products` and its price replicas) on a loopback port. */
export async function startDemoService(): Promise<DemoService> {
  const { createService, DEV_CREDENTIALS } = await import('../../service/src/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-ssr-e2e-'));
  const service = await createService({ dataDir, demo: true });
  const { url } = await service.listen(0, '127.0.0.1');
  return {
    url,
    appId: DEV_CREDENTIALS.appId,
    searchKey: DEV_CREDENTIALS.searchKey,
    admin: createClient({ appId: DEV_CREDENTIALS.appId, apiKey: DEV_CREDENTIALS.adminKey, hosts: [url], cache: false }),
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The command-line arguments both SSR examples take (`npm run example:ssr|example:nextjs -- …`): a free port,
 * the given search hosts and the demo service's credentials, on the `products` index.
 */
export function exampleArgs(service: DemoService, hosts: string): string[] {
  return [
    '--port',
    '0',
    '--hosts',
    hosts,
    '--app-id',
    service.appId,
    '--api-key',
    service.searchKey,
    '--index-name',
    'products',
  ];
}

export interface RunningExample {
  url: string;
  /** What it printed (stdout and stderr). */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts a server as a user does, `npm run <script> -- <args>`, and resolves once it printed
 * `listening on http://HOST:PORT` (rejects when it exits first, or after `timeoutMs`).
 */
export function startNpmServer(script: string, args: string[], timeoutMs = 60_000): Promise<RunningExample> {
  const child: ChildProcess = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.on('data', (more: Buffer) => {
        output += more.toString('utf8');
      });
      resolvePromise({
        url: match[1]!,
        output: () => output,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            // The whole process group: npm and the server it started.
            process.kill(-child.pid!, 'SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before listening:\n${output}`));
    });
  });
}

/** Chromium as every end-to-end test here launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless=new',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
    ],
  });
}

/** The state script of a server-rendered page (the first root's). */
export function serverState(html: string): {
  state: string;
  initialResults: { results?: { queryID?: string; hits: Array<{ objectID: string; name: string }> } };
} {
  const match = /<script type="application\/json" id="svc-search-state-0">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(match, 'the page holds the state script');
  return JSON.parse(match[1]!);
}

/** The declarative shadow root of `<svc-hits>` in a server's HTML. */
export function hitsShadow(html: string): string {
  const start = html.indexOf('<svc-hits');
  return html.slice(
    html.indexOf('<template shadowroot="open" shadowrootmode="open"', start),
    html.indexOf('</svc-hits>', start),
  );
}

/** Text of HTML with its character references read (those Lit SSR writes). */
export const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The service's search requests a page sends from now on (multi-queries and single searches). */
export function searchRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/\/1\/indexes\/[^/]+\/(queries|query)/.test(request.url())) seen.push(request.url());
  });
  return seen;
}

/** The Insights events the service stored for `queryID`. */
export async function insightsEvents(
  admin: SearchClient,
  queryID: string,
  eventType: string,
): Promise<Array<Record<string, any>>> {
  const body = await admin.request<{ events: Array<Record<string, any>> }>(
    'GET',
    `/1/_local/events?queryID=${queryID}&eventType=${eventType}&limit=1000`,
  );
  return body.events;
}

/** Resolves once `check` holds; rejects after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
