/**
 * `serve --workers 2` starting on a data directory whose schema needs migrating while another process holds
 * the file's write lock (a worker of a previous run, a backup, the sqlite3 shell): the primary brings the
 * schema up to date waiting for the lock on a timer, says so, and outlasts SQLite's 5 s busy timeout (which
 * failed the start with SQLITE_BUSY); once the lock frees, the steps run, then the workers start on the
 * migrated file and answer.
 *
 * The holder is this test (`BEGIN IMMEDIATE` on its own connection, a second process): it holds the lock
 * until the primary said it waits, and 5.5 s more — longer than the busy timeout the start would have failed
 * at — then lets go.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../src/storage/sqlite/migrations.js';
import { ask } from './helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
/** better-sqlite3's busy timeout, which the start waited in before, plus a margin. */
const PAST_BUSY_TIMEOUT_MS = 5500;

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('serve --workers 2: the schema migrated while another process holds the write lock', () => {
  test('the primary waits on a timer past the busy timeout, then migrates and the workers answer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-migrate-busy-'));
    // A file of no schema yet (every step pending), held by this process.
    const holder = new Database(join(dataDir, 'svc-search.sqlite'), { timeout: 0 });
    holder.pragma('journal_mode = WAL');
    holder.exec('BEGIN IMMEDIATE');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'serve', '--port', '0', '--data-dir', dataDir, '--workers', '2'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (holder.open) holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const printed = async (pattern: RegExp, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        assert.ok(child.exitCode === null, `serve exited (${child.exitCode}):\n${output}`);
        assert.ok(Date.now() < deadline, `not printed within ${timeoutMs} ms: ${pattern}\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    try {
      await printed(/schema: waiting for the database write lock/, 30_000);
      await new Promise((resolve) => setTimeout(resolve, PAST_BUSY_TIMEOUT_MS));
      assert.equal(child.exitCode, null, `the start gave up:\n${output}`);
      assert.doesNotMatch(output, /listening on|SQLITE_BUSY|database is locked/);
      assert.equal(holder.pragma('user_version', { simple: true }), 0, 'no step ran during the hold');
    } finally {
      holder.exec('ROLLBACK');
    }
    await printed(/worker w2: pid \d+/, 60_000);
    assert.equal(holder.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
    const written = await ask(url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.match(written.worker, /^w[12]$/);
    assert.doesNotMatch(output, /SQLITE_BUSY|database is locked|Error/);
  });
});
