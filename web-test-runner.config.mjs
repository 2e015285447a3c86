// Browser tests: real Debian Chromium, the real local service mounted in the test server (same origin).
// Run through `node --import tsx` (see package.json) so this file can load the TypeScript service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
// Embedding tests (React/Vue/Angular, issue 7) are served as esbuild bundles; see the plugin file.
import { embeddingBundlePlugin } from './test/embedding/bundle-plugin.mjs';

const { createService } = await import('./src/service/index.ts');
const service = await createService({ dataDir: mkdtempSync(join(tmpdir(), 'svc-wtr-')) });

export default {
  files: ['test/**/*.browser.test.ts', 'test/**/*.browser.test.tsx'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [embeddingBundlePlugin(), esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  middleware: [
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
