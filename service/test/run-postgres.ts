/**
 * `npm run test:postgres`: the service's storage-touching test files again, on PostgreSQL
 * (`SVC_TEST_STORAGE=postgres`: `startService` gives each data directory its own database on a throwaway
 * server of the test process, `service-helpers.ts`). One suite run twice, not a copy.
 *
 * Which files: every service test file that starts a service, except the ones that are about SQLite itself
 * or read its file behind the service's back, and one racing test (listed below with why); the engine's
 * tests touch no storage,
 * and the replica tests (`replicas/`) run on PostgreSQL in `test:node` already.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const testDir = join(root, 'service/test');

/**
 * Left out, and why: SQLite's own tests (its file, its pragmas, its migrations, rows read or written straight
 * in its tables), and one whose client races the server's answer.
 */
const LEFT_OUT: Record<string, string> = {
  'service/test/body-limits.node.test.ts':
    "a chunked upload to every route: POST …/clear answers without reading the body and the server closes the connection; a PostgreSQL write answers later than SQLite's, so the test's client is still writing and meets the closed socket (EPIPE) before it reads the answer",
  'service/test/durability.node.test.ts': 'the SQLite file across kill -9 and restarts (replicas/ covers PostgreSQL)',
  'service/test/storage/migrations.node.test.ts': "SQLite's migration list and its pre-migration fixtures",
  'service/test/storage/analytics-reports.node.test.ts': 'writes searches straight into the SQLite file',
  'service/test/http-monitoring.node.test.ts': 'reads the SQLite file read-only to compare figures',
  'service/test/handler.node.test.ts': "checks SQLite's synchronous pragma on the service's handle",
  'service/test/http-abtests.node.test.ts': 'reads Analytics rows from SQLite; migrates a pre-A/B SQLite table',
  'service/test/http-usage.node.test.ts': 'counts Usage rows in the SQLite file while the service runs',
  'service/test/recommend-demo.node.test.ts': 'ages the seeded order history straight in SQLite',
  'service/test/usertoken-deletion.node.test.ts': 'counts SQLite rows after a user token is deleted',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'engine' || entry.name === 'replicas' ? [] : testFiles(path);
    return entry.name.endsWith('.node.test.ts') ? [path] : [];
  });
}

const files = testFiles(testDir)
  .filter((path) => /startService|createService/.test(readFileSync(path, 'utf8')))
  .map((path) => relative(root, path))
  .filter((path) => !(path in LEFT_OUT))
  .sort();

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SVC_TEST_STORAGE: 'postgres' },
});
process.exit(result.status ?? 1);
