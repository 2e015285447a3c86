/**
 * With `serve --workers 2`, each worker writes its own Analytics and Usage batches (every 250 ms) and
 * heartbeat (every 500 ms) into the one SQLite file, whose write lock one writer holds at a time. A writer
 * that holds it longer than SQLite's busy timeout (5 s: a write turn that rebuilds a large index, a big batch)
 * must not make the others' batches fail with SQLITE_BUSY and block their event loop meanwhile: they wait
 * for the lock without blocking, then commit, every search counted exactly once.
 *
 * The long holder is this test: it takes the file's write lock (`BEGIN IMMEDIATE` on its own connection)
 * for 8 s while searches reach both workers, then lets go.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ask, startWorkers, takeWriteLock, waitForTask, type Workers } from './helpers.js';

const HOLD_MS = 8000;
const SEARCHES_PER_WORKER = 10;

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

describe('serve --workers 2: Analytics and Usage flushes while another process holds the write lock', () => {
  test('no SQLITE_BUSY is logged, the event loop keeps answering, and every search is counted exactly once', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const written = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, written.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    let searches = 0;
    await takeWriteLock(db);
    try {
      const held = Date.now();
      // Searches on both workers while the lock is held: each worker queues them and tries to flush. One user
      // token per search (two searches of one user would make a typing series, counted once).
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', {
          query: 'oak',
          userToken: `user-${searches}`,
        });
        assert.equal(answer.status, 200, answer.worker);
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
        searches += 1;
      }
      assert.ok(Date.now() - held < HOLD_MS, 'the workers answered while the lock was held');
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS - (Date.now() - held)));
    } finally {
      db.exec('ROLLBACK');
    }

    // Every search is in the file once both workers flushed, and only once.
    const counted = () =>
      (db.prepare("SELECT COUNT(*) AS n FROM analytics_searches WHERE index_name = 'shop'").get() as { n: number }).n;
    const deadline = Date.now() + 30_000;
    while (counted() < searches && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(counted(), searches);
    const count = await ask(workers.url, 'GET', '/2/searches/count?index=shop');
    assert.equal(count.body.count, searches);
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
