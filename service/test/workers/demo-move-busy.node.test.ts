/**
 * With `serve --workers 2 --demo`, the first worker keeps the demo's order history recent: on the first
 * Recommend request after a turn of the day it moves the seeded events forward (their rows replaced in one
 * transaction in the one SQLite file). While another process holds the file's write lock, that worker waits
 * for it on a timer instead of SQLite's busy wait (which blocked it, every search of it, up to the 5 s busy
 * timeout, then answered the Recommend request with a 500): both workers keep answering searches meanwhile,
 * and once the lock is free the move completes — every seeded event moved by whole days, none lost or added.
 *
 * The turn of the day is the first worker's clock moved one day forward (`next-day.ts`, preloaded; a signal
 * moves it). The long holder is this test: it takes the file's write lock (`BEGIN IMMEDIATE` on its own
 * connection) and lets go once the Recommend request is known to wait in the first worker — conditions, not
 * a duration.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type Answer, ask, askEach, startWorkers, takeWriteLock, type Workers } from './helpers.js';

const NEXT_DAY = fileURLToPath(new URL('./next-day.ts', import.meta.url));
const DAY = 24 * 3600 * 1000;
/** Searches each worker answers after a Recommend request was sent, before the test looks where it went. */
const SEARCHES_PER_WORKER = 5;
const TRENDING = {
  requests: [{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 5 }],
};

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

/** The seeded demo events (their time), in their order, and how many events the file holds in all. */
function demoEvents(db: Database.Database): { timestamps: number[]; all: number } {
  const rows = db
    .prepare(
      `SELECT timestamp FROM insights_events
       WHERE received_at = (SELECT seeded_at FROM recommend_demo_seed WHERE index_name = 'products') ORDER BY id`,
    )
    .all() as Array<{ timestamp: number }>;
  const all = (db.prepare('SELECT COUNT(*) AS n FROM insights_events').get() as { n: number }).n;
  return { timestamps: rows.map((row) => row.timestamp), all };
}

/** A request whose answer can be looked at without waiting for it. */
function tracked(answer: Promise<Answer>): { promise: Promise<Answer>; answer?: Answer } {
  const request: { promise: Promise<Answer>; answer?: Answer } = { promise: answer };
  answer.then((value) => {
    request.answer = value;
  });
  return request;
}

describe('serve --workers 2 --demo: the demo history moves while another process holds the write lock', () => {
  test('both workers answer searches while the move waits, and it completes after the hold with every event moved', async () => {
    const workers = await startWorkers(2, ['--demo'], [NEXT_DAY]);
    running.push(workers);
    // The models of both workers are built, and the first worker's check finds the history recent.
    for (const answer of (
      await askEach(workers.url, ['w1', 'w2'], 'POST', '/1/indexes/*/recommendations', TRENDING)
    ).values()) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.results[0].hits.length, 5);
    }
    // The demo's Query Suggestions build (started by the first worker) has written its index: no write turn
    // of a worker meets the lock below (a write still waits for it in the busy wait, a known limit).
    for (;;) {
      const status = await ask(workers.url, 'GET', '/1/configs/products_query_suggestions/status');
      assert.equal(status.status, 200, JSON.stringify(status.body));
      if (!status.body.isRunning && status.body.lastBuiltAt) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const before = demoEvents(db);
    assert.ok(before.timestamps.length > 1000, `${before.timestamps.length} seeded events`);

    // Midnight passes for the first worker (the one that keeps the demo recent).
    const pid = workers.pids().get('w1')!;
    process.kill(pid, 'SIGUSR2');
    await workers.printed(`clock of pid ${pid}: 1 day(s) ahead`);

    let moving: ReturnType<typeof tracked> | undefined;
    await takeWriteLock(db);
    try {
      // Recommend requests until one waits: the second worker answers its own at once; the first one's waits
      // for the lock to move the history. Both workers answer searches meanwhile (the first one's busy wait
      // kept it from taking connections, and ended with the request answered 500).
      for (let attempt = 0; attempt < 10 && !moving; attempt++) {
        const request = tracked(ask(workers.url, 'POST', '/1/indexes/*/recommendations', TRENDING));
        const perWorker = new Map<string, number>();
        while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
          const answer = await ask(workers.url, 'POST', '/1/indexes/products/query', { query: 'chair' });
          assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
          perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
        }
        if (request.answer === undefined) moving = request;
        else assert.equal(request.answer.worker, 'w2', `answered during the hold: ${JSON.stringify(request.answer)}`);
      }
      assert.ok(moving, 'a Recommend request reached the first worker');
      // Nothing moved yet (read inside the test's own transaction).
      assert.deepEqual(demoEvents(db), before);
    } finally {
      db.exec('ROLLBACK');
    }

    const answer = await moving.promise;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.worker, 'w1');
    assert.equal(answer.body.results[0].hits.length, 5);
    const moved = demoEvents(db);
    assert.equal(moved.all, before.all, 'no event added or lost');
    assert.equal(moved.timestamps.length, before.timestamps.length);
    // Moved together by whole days (one, or two if the real clock passed midnight during the test).
    const shift = moved.timestamps[0]! - before.timestamps[0]!;
    assert.ok(shift % DAY === 0 && shift >= DAY, `moved ${shift / DAY} days`);
    assert.deepEqual(
      moved.timestamps.map((timestamp) => timestamp - shift),
      before.timestamps,
    );
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
