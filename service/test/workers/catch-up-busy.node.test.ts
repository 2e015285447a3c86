/**
 * With `serve --workers 2`, a worker that catches up with the log (another worker committed) records the
 * entry it applied in `service_replicas`, so that the writer's task is published. While another process holds
 * the file's write lock, that record is left to the next heartbeat that gets the lock, instead of SQLite's
 * busy wait (which blocked the worker, every search of it, up to the 5 s busy timeout, then logged "catching
 * up failed"): both workers answer searches with the entry applied during the hold, and record it after.
 *
 * The entry is the test's: it commits one to the log and takes the write lock again at once, before a worker
 * had the time to catch up (checked: no worker recorded it), and holds the lock until both workers answered
 * searches from memory that has it — conditions, not a duration.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ask, startWorkers, takeWriteLock, waitForTask, type Workers } from './helpers.js';

const SEARCHES_PER_WORKER = 10;

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

/** How many workers recorded an applied position at `seq` or past it. */
function recorded(db: Database.Database, seq: number): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM service_replicas WHERE applied_seq >= ?').get(seq) as { n: number }).n;
}

describe('serve --workers 2: catching up with the log while another process holds the write lock', () => {
  test('both workers apply the entry and answer searches during the hold, and record it after', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const written = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, written.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const append = db.prepare('INSERT INTO service_log (replica, changes, created_at) VALUES (?, ?, ?)');
    let seq = 0;
    let objectID = '';
    // The entry committed, then the lock taken again in the same turn of this process's event loop; should a
    // worker still have caught up in between (it got the lock first), again with another entry.
    for (let attempt = 0; attempt < 5 && seq === 0; attempt++) {
      await takeWriteLock(db);
      objectID = `elm-${attempt}`;
      const change = {
        area: 'catalog',
        type: 'putItems',
        kind: 'records',
        indexName: 'shop',
        items: [{ name: 'Elm chair', objectID }],
      };
      const entry = Number(append.run('test', JSON.stringify([change]), Date.now()).lastInsertRowid);
      db.exec('COMMIT');
      await takeWriteLock(db);
      if (recorded(db, entry) === 0) seq = entry;
      else db.exec('ROLLBACK');
    }
    assert.ok(seq > 0, 'the lock was taken again before a worker recorded the entry');

    try {
      // Each worker applies the entry (its heartbeat wakes it within 500 ms), then answers searches.
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', { query: 'elm' });
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        const applied = answer.body.hits.some((hit: { objectID: string }) => hit.objectID === objectID);
        if (applied || perWorker.has(answer.worker))
          perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
        if (perWorker.has(answer.worker)) assert.ok(applied, `${answer.worker} has the entry`);
      }
      assert.equal(recorded(db, seq), 0, 'not recorded during the hold');
    } finally {
      db.exec('ROLLBACK');
    }

    // Recorded by each worker's next heartbeat once the lock is free.
    const deadline = Date.now() + 10_000;
    while (recorded(db, seq) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(recorded(db, seq), 2);
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
