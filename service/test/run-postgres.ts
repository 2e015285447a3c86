/**
 * `npm run test:postgres`: the service's storage-touching test files again, on PostgreSQL
 * (`SVC_TEST_STORAGE=postgres`: `startService` gives each data directory its own database on a throwaway
 * server of the test process, `service-helpers.ts`). One suite run twice, not a copy.
 *
 * Which files: every service test file that starts a service.
 * Tests read what was stored through the storage interface, so the same assertions run on both backends;
 * what is SQLite's own (its pragmas, its migrations from files of older releases, its file read by a
 * second connection) runs on SQLite in both runs, and PostgreSQL's equivalent runs here (its migration list: storage/migrations). The
 * engine's tests touch no storage, and the replica tests (`replicas/`) run on PostgreSQL in `test:node`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const testDir = join(root, 'service/test');

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
  .sort();

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SVC_TEST_STORAGE: 'postgres' },
});
process.exit(result.status ?? 1);
