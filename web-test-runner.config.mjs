// Browser tests: real Debian Chromium, the real local service mounted in the test server (same origin).
// Run through `node --import tsx` (see package.json) so this file can load the TypeScript service.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
// Embedding tests (React/Vue/Angular, issue 7) are served as esbuild bundles; see the plugin file.
import { embeddingBundlePlugin } from './test/embedding/bundle-plugin.mjs';
// `page-visibility`: hides a test's page behind another tab (tests of what a hidden tab does).
import { pageVisibilityPlugin } from './test/browser/page-visibility-plugin.mjs';

const { createService } = await import('./service/src/index.ts');
const { exportFromService } = await import('./service/src/export.ts');
const service = await createService({ dataDir: mkdtempSync(join(tmpdir(), 'svc-wtr-')) });

// Local engine tests (svc-search/local): `/__svcidx/<index>.svcidx` exports an index of the test service as it
// is now (with Recommend answers), the file a static site would serve; `?recommendations=0` leaves them out.
async function svcidxExport(context, next) {
  const match = /^\/__svcidx\/([\w-]+)\.svcidx(\?.*)?$/.exec(context.req.url ?? '');
  if (!match) return next();
  const recommendations = new URLSearchParams(match[2] ?? '').get('recommendations');
  const { bytes } = await exportFromService(service, {
    index: match[1],
    recommendations: recommendations === null ? 10 : Number(recommendations),
  });
  context.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
  context.res.end(Buffer.from(bytes));
  return undefined;
}

// A module worker is started from a URL, not an import: `/src/**.js` with only a `.ts` beside it is the `.ts`
// (as imports are for esbuild), so `new Worker(new URL('./worker.js', import.meta.url))` works in tests too.
function sourceJsToTs(context, next) {
  const [path, query] = (context.req.url ?? '').split('?');
  if (/^\/src\/.*\.js$/.test(path) && !existsSync(`.${path}`) && existsSync(`.${path.replace(/\.js$/, '.ts')}`)) {
    context.req.url = path.replace(/\.js$/, '.ts') + (query ? `?${query}` : '');
  }
  return next();
}

// Insights tests (issue 5): `/__flaky/<key>/…` answers 503 to the first request of each key, then hands the
// requests to the service with the prefix removed; `GET /__flaky/<key>/_stats` tells what it did. Tests point
// the client's `insightsHost` at it to prove that a transient failure loses and duplicates nothing.
// `/__flaky<N>/<key>/…` fails the first N requests instead (N = 0: none, a recording proxy). The stats also log
// every request as it arrived (`log`: server time in ms, method, URL after the prefix, content type, whether
// credential headers came), so tests can assert retry gaps and how a keepalive request carried its credentials.
const flakyKeys = new Map();
function flakyInsightsHost(context, next) {
  const { req, res } = context;
  const match = /^\/__flaky(\d*)\/([A-Za-z0-9_-]+)(\/.*)$/.exec(req.url ?? '');
  if (!match) return next();
  const [, n, key, rest] = match;
  const failures = n === '' ? 1 : Number(n);
  const stats = flakyKeys.get(`${n}/${key}`) ?? { requests: 0, failed: 0, proxied: 0, log: [] };
  flakyKeys.set(`${n}/${key}`, stats);
  if (rest === '/_stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stats));
    return undefined;
  }
  stats.requests++;
  stats.log.push({
    at: Date.now(),
    method: req.method,
    url: rest,
    contentType: req.headers['content-type'],
    credentialHeaders: 'x-service-api-key' in req.headers,
  });
  if (stats.failed < failures) {
    stats.failed++;
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 503,
        message: `Service Unavailable (test host: the first ${failures} request(s) of each key fail)`,
      }),
    );
    return undefined;
  }
  stats.proxied++;
  req.url = rest;
  return new Promise((resolve) => {
    res.on('finish', resolve);
    res.on('close', resolve);
    service.handler(req, res, () => resolve(next()));
  });
}

export default {
  files: ['test/**/*.browser.test.ts', 'test/**/*.browser.test.tsx'],
  nodeResolve: { exportConditions: ['browser', 'production'] },
  plugins: [
    embeddingBundlePlugin(),
    pageVisibilityPlugin(),
    esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }),
  ],
  middleware: [
    sourceJsToTs,
    svcidxExport,
    flakyInsightsHost,
    function localService(context, next) {
      const { req, res } = context;
      if (!/^\/(1|2)\//.test(req.url ?? '')) return next();
      return new Promise((resolve) => {
        res.on('finish', resolve);
        res.on('close', resolve);
        service.handler(req, res, () => resolve(next()));
      });
    },
  ],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    }),
  ],
  concurrency: 1,
  testsFinishTimeout: 180000,
  testFramework: { config: { timeout: 20000 } },
};
