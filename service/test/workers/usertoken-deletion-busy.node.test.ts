/**
 * With `serve --workers 2`, `DELETE /1/usertokens/{userToken}` (the privacy request) deletes the token's
 * Insights events, takes the token off its search log rows and puts its Analytics searches under a stand-in,
 * in the one SQLite file. While another process holds the file's write lock, the worker that received the
 * request waits for it on a timer instead of SQLite's busy wait (which blocked that worker, every search of
 * it, up to the 5 s busy timeout, then answered the deletion with a 500): both workers keep answering
 * searches meanwhile, and once the lock is free the deletion completes, every search of the hold counted.
 *
 * The long holder is this test: it takes the file's write lock (`BEGIN IMMEDIATE` on its own connection) and
 * lets go once both workers answered searches with the deletion still waiting — conditions, not a duration.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { type Answer, ask, startWorkers, takeWriteLock, waitForTask, type Workers } from './helpers.js';

const SEARCHES_PER_WORKER = 10;

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

/** How many rows of `table` match `where` (a read of the test's own connection). */
function count(db: Database.Database, table: string, where: string, ...params: unknown[]): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A `clickAnalytics` search of `userToken` and a click on its first hit. */
async function searchAndClick(url: string, userToken: string): Promise<void> {
  const answer = await ask(url, 'POST', '/1/indexes/shop/query', { query: 'oak', clickAnalytics: true, userToken });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const clicked = await ask(url, 'POST', '/1/events', {
    events: [
      {
        eventType: 'click',
        eventName: 'Hit clicked',
        index: 'shop',
        userToken,
        queryID: answer.body.queryID,
        objectIDs: ['oak'],
        positions: [1],
      },
    ],
  });
  assert.equal(clicked.status, 200, JSON.stringify(clicked.body));
}

describe('serve --workers 2: a user token deletion while another process holds the write lock', () => {
  test('both workers answer searches during the hold, and the deletion completes after it with nothing else lost', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const written = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, written.body.taskID);
    await searchAndClick(workers.url, 'gone');
    await searchAndClick(workers.url, 'kept');

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    // Both users' searches are in Analytics (each worker flushes its batch within 250 ms).
    await until(() => count(db, 'analytics_searches', "index_name = 'shop'") >= 2, 'both searches in Analytics');
    assert.equal(count(db, 'analytics_searches', "user_key = 'gone'"), 1);
    assert.equal(count(db, 'service_search_log', "user_token = 'gone'"), 1);
    assert.equal(count(db, 'insights_events', "user_token = 'gone'"), 1);

    let searches = 0;
    let deletion: Answer | undefined;
    let deleting: Promise<Answer> | undefined;
    await takeWriteLock(db);
    try {
      deleting = ask(workers.url, 'DELETE', '/1/usertokens/gone');
      deleting.then((answer) => {
        deletion = answer;
      });
      // Searches on both workers while the deletion waits: the one that received it must answer too. (Its
      // busy wait kept it from taking connections, and ended with the deletion answered 500.)
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', {
          query: 'oak',
          userToken: `user-${searches}`,
        });
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        assert.equal(deletion, undefined, `the deletion waits for the lock: ${JSON.stringify(deletion)}`);
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
        searches += 1;
      }
      // Nothing of it is written yet (read inside the test's own transaction).
      assert.equal(count(db, 'insights_events', "user_token = 'gone'"), 1);
    } finally {
      db.exec('ROLLBACK');
    }

    const deleted = await deleting;
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    // The token's events are gone, its searches stay under a stand-in (still counted), its search log row
    // stays without it; the other user's event and search are untouched.
    assert.equal(count(db, 'insights_events', "user_token = 'gone'"), 0);
    assert.equal(count(db, 'insights_events', "user_token = 'kept'"), 1);
    assert.equal(count(db, 'analytics_searches', "user_key = 'gone'"), 0);
    assert.equal(count(db, 'analytics_searches', "user_key = 'kept'"), 1);
    assert.equal(count(db, 'analytics_searches', "user_key LIKE 'deleted-%'"), 1);
    assert.equal(count(db, 'service_search_log', "user_token = 'gone'"), 0);
    assert.equal(count(db, 'service_search_log', 'TRUE'), 2);
    // Every search of the hold is counted once the workers flushed.
    await until(
      () => count(db, 'analytics_searches', "index_name = 'shop'") >= searches + 2,
      'every search of the hold in Analytics',
    );
    assert.equal(count(db, 'analytics_searches', "index_name = 'shop'"), searches + 2);
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
