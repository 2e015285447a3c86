/**
 * A worker's write turn (`SqliteReplication.exclusive`) takes SQLite's write lock without SQLite's busy wait:
 * while another connection holds the lock, it tries again on a timer (the event loop runs meanwhile), and
 * after the turn's bound (`writeLockWaitMs`) without the lock the write is refused with a 503 that says so,
 * nothing of it run. Once the lock frees within the bound, the write runs in its transaction. The lease of a
 * job run in one worker at a time (`runOnce`) and a starting worker's registration (`register`, `join`) wait
 * the same way.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ServiceError } from '../../src/errors.js';
import { SqliteStorage } from '../../src/storage/sqlite/storage.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A worker's storage on a new directory, and another connection to its file (the other process). */
async function workerAndOther(writeLockWaitMs: number): Promise<{ storage: SqliteStorage; other: Database.Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-write-lock-wait-'));
  dirs.push(dir);
  const storage = new SqliteStorage(dir, { worker: { id: 'w1', writeLockWaitMs } });
  storage.replication!.follow(async () => undefined);
  await storage.replication!.join();
  const other = new Database(join(dir, 'svc-search.sqlite'), { timeout: 0 });
  return { storage, other };
}

/** Counts the timer ticks (5 ms) until stopped: how often the event loop ran meanwhile. */
function ticking(): { ticks: () => number; stop: () => void } {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 5);
  return { ticks: () => ticks, stop: () => clearInterval(timer) };
}

describe('SQLite workers: a write turn waiting for the write lock', () => {
  test('held past the bound: refused with a 503 after it, the event loop running meanwhile, nothing run', async () => {
    const { storage, other } = await workerAndOther(600);
    other.exec('BEGIN IMMEDIATE');
    const clock = ticking();
    let ran = false;
    const started = Date.now();
    try {
      await assert.rejects(
        storage.tasks.exclusive!(async () => {
          ran = true;
        }),
        (error: unknown) =>
          error instanceof ServiceError &&
          error.status === 503 &&
          error.headers?.['Retry-After'] === '1' &&
          /write lock/.test(error.message) &&
          /retry/.test(error.message),
      );
    } finally {
      clock.stop();
      other.exec('ROLLBACK');
    }
    const waited = Date.now() - started;
    assert.equal(ran, false);
    assert.ok(waited >= 600, `waited ${waited} ms`);
    // SQLite's busy wait would have blocked the loop (no tick) for the 5 s busy timeout.
    assert.ok(clock.ticks() >= 10, `${clock.ticks()} ticks during the wait`);
    assert.equal(storage.db.inTransaction, false);
    // The next write takes the lock at once.
    assert.equal(await storage.tasks.exclusive!(async () => storage.db.inTransaction), true);
    other.close();
    await storage.close();
  });

  test('freed within the bound: the write runs in its transaction once the lock is free', async () => {
    const { storage, other } = await workerAndOther(30_000);
    other.exec('BEGIN IMMEDIATE');
    const clock = ticking();
    let released = false;
    try {
      const turn = storage.tasks.exclusive!(async () => {
        assert.equal(released, true, 'not before the other connection let go');
        return storage.db.inTransaction;
      });
      // Let go once the event loop has run a while with the turn waiting (a condition: ticks counted).
      while (clock.ticks() < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      released = true;
      other.exec('ROLLBACK');
      assert.equal(await turn, true);
    } finally {
      clock.stop();
      if (other.inTransaction) other.exec('ROLLBACK');
    }
    other.close();
    await storage.close();
  });

  test('the lease of a one-at-a-time job is taken and given back once the lock frees, the loop running', async () => {
    const { storage, other } = await workerAndOther(30_000);
    other.exec('BEGIN IMMEDIATE');
    const clock = ticking();
    let released = false;
    let ran = false;
    try {
      const run = storage.runOnce!('rebuild', async () => {
        assert.equal(released, true, 'not before the other connection let go');
        ran = true;
      });
      while (clock.ticks() < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      released = true;
      other.exec('ROLLBACK');
      assert.equal(await run, true);
    } finally {
      clock.stop();
      if (other.inTransaction) other.exec('ROLLBACK');
    }
    assert.equal(ran, true);
    assert.equal(
      (other.prepare('SELECT COUNT(*) AS n FROM service_jobs').get() as { n: number }).n,
      0,
      'the lease was given back',
    );
    other.close();
    await storage.close();
  });

  test("a worker starting during another process's hold registers and joins once the lock frees", async () => {
    const { storage, other } = await workerAndOther(30_000);
    other.exec('BEGIN IMMEDIATE');
    const clock = ticking();
    let second: SqliteStorage | undefined;
    try {
      second = new SqliteStorage(dirname(storage.db.name), { worker: { id: 'w2' } });
      second.replication!.follow(async () => undefined);
      let joined = false;
      const joining = second.replication!.join().then(() => {
        joined = true;
      });
      while (clock.ticks() < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(joined, false, 'joined during the hold');
      other.exec('ROLLBACK');
      await joining;
    } finally {
      clock.stop();
      if (other.inTransaction) other.exec('ROLLBACK');
    }
    assert.equal(second.replication!.ready, true);
    assert.deepEqual(other.prepare("SELECT ready FROM service_replicas WHERE id = 'w2'").get(), { ready: 1 });
    other.close();
    await second.close();
    await storage.close();
  });
});
