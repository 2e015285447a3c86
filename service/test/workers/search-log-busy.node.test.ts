/**
 * With `serve --workers 2`, a search answered with `clickAnalytics` writes its search log row (the queryID an
 * Insights event refers to) into the one SQLite file. While another process holds the file's write lock, that
 * row waits in the worker's pending rows instead of SQLite's busy wait (which blocked the worker, every search
 * of it, up to the 5 s busy timeout, then failed the search): searches keep answering, every row is in the
 * table once the lock is free, and a click naming a queryID of that time is accepted and attributed — on the
 * worker that holds the row pending and on the other one (requests alternate between the workers).
 *
 * The long holder is this test: it takes the file's write lock (`BEGIN IMMEDIATE` on its own connection) for
 * 8 s, then lets go.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { type Answer, ask, startWorkers, takeWriteLock, waitForTask, type Workers } from './helpers.js';

const HOLD_MS = 8000;
const SEARCHES_PER_WORKER = 10;

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

function rowsNow(db: Database.Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM service_search_log').get() as { n: number }).n;
}

describe('serve --workers 2: the search log while another process holds the write lock', () => {
  test('clickAnalytics searches answer during the hold, every row is written after it, and a click of that time is attributed', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const written = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, written.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const queryIDs = new Map<string, string>();
    let searches = 0;
    let slowest = 0;
    let click: Promise<Answer> | undefined;
    await takeWriteLock(db);
    try {
      const held = Date.now();
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const started = Date.now();
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', {
          query: 'oak',
          clickAnalytics: true,
          userToken: `user-${searches}`,
        });
        slowest = Math.max(slowest, Date.now() - started);
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.queryID, /^[0-9a-f]{32}$/);
        queryIDs.set(answer.worker, answer.body.queryID);
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
        searches += 1;
      }
      assert.ok(Date.now() - held < HOLD_MS, `the workers answered while the lock was held (${Date.now() - held} ms)`);
      // Before: the first such search of each worker waited the 5 s busy timeout, then failed.
      assert.ok(slowest < 4000, `no search waited for the lock (slowest ${slowest} ms)`);
      assert.equal(rowsNow(db), 0, 'nothing written yet');
      // A click on each worker's last hit, in one request (it reaches one worker: one queryID is its own
      // pending row, the other the other worker's). Its answer comes once the events are stored.
      click = ask(workers.url, 'POST', '/1/events', {
        events: ['w1', 'w2'].map((worker) => ({
          eventType: 'click',
          eventName: 'Hit clicked',
          index: 'shop',
          userToken: `clicker-${worker}`,
          queryID: queryIDs.get(worker),
          objectIDs: ['oak'],
          positions: [1],
        })),
      });
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS - (Date.now() - held)));
    } finally {
      db.exec('ROLLBACK');
    }

    const clicked = await click;
    assert.equal(clicked.status, 200, JSON.stringify(clicked.body));

    // Every row is in the table once the workers' timers found the lock free.
    const rows = () => rowsNow(db);
    const deadline = Date.now() + 30_000;
    while (rows() < searches && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(rows(), searches);

    // Both clicks are attributed to their search: its index, query and the hit's position.
    const stored = db
      .prepare('SELECT query_id, search_index, search_query, search_positions FROM insights_events ORDER BY user_token')
      .all() as Array<{ query_id: string; search_index: string; search_query: string; search_positions: string }>;
    assert.deepEqual(
      stored,
      ['w1', 'w2'].map((worker) => ({
        query_id: queryIDs.get(worker),
        search_index: 'shop',
        search_query: 'oak',
        search_positions: '[1]',
      })),
    );
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
