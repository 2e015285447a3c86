/**
 * With `serve --workers 2 --demo`, the first worker keeps the demo's order history recent (on the first
 * Recommend request after a turn of the day it moves the seeded events forward). A first worker that
 * crashed is started again in the same role: its replacement, under the same name, moves the history at
 * the next turn of the day as the first one did. (A replacement started without the demo role never moves
 * it: its Recommend answers come from a history that grows older every day.)
 *
 * The turn of the day is the replacement's clock moved one day forward (`next-day.ts`, preloaded into every
 * process of the cluster; a signal moves it).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ask, askEach, startWorkers, type Workers } from './helpers.js';

const NEXT_DAY = fileURLToPath(new URL('./next-day.ts', import.meta.url));
const DAY = 24 * 3600 * 1000;
const TRENDING = {
  requests: [{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 5 }],
};

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

/** The time of each seeded demo event, in their order. */
function demoTimestamps(db: Database.Database): number[] {
  const rows = db
    .prepare(
      `SELECT timestamp FROM insights_events
       WHERE received_at = (SELECT seeded_at FROM recommend_demo_seed WHERE index_name = 'products') ORDER BY id`,
    )
    .all() as Array<{ timestamp: number }>;
  return rows.map((row) => row.timestamp);
}

describe('serve --workers 2 --demo: a first worker that crashed comes back in its role', () => {
  test('the replacement of w1 (SIGKILL) keeps the demo history recent at the next turn of the day', async () => {
    const workers = await startWorkers(2, ['--demo'], [NEXT_DAY]);
    running.push(workers);
    // The demo's Query Suggestions build (started by the first worker) is done before w1 is killed.
    for (;;) {
      const status = await ask(workers.url, 'GET', '/1/configs/products_query_suggestions/status');
      assert.equal(status.status, 200, JSON.stringify(status.body));
      if (!status.body.isRunning && status.body.lastBuiltAt) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { readonly: true, timeout: 5000 });
    const before = demoTimestamps(db);
    assert.ok(before.length > 1000, `${before.length} seeded events`);

    const killed = workers.pids().get('w1')!;
    process.kill(killed, 'SIGKILL');
    await workers.printed('worker w1 exited (SIGKILL)');
    await workers.printed(/worker w1: pid \d+[\s\S]*worker w1: pid \d+/, 60_000);
    const replacement = workers.pids().get('w1')!;
    assert.notEqual(replacement, killed);
    // The replacement answers, as w1.
    const first = await askEach(workers.url, ['w1'], 'POST', '/1/indexes/*/recommendations', TRENDING);
    assert.equal(first.get('w1')!.status, 200, JSON.stringify(first.get('w1')!.body));
    assert.deepEqual(demoTimestamps(db), before, 'a recent history is left as it is');

    // Midnight passes for the replacement: its next Recommend request moves the history by whole days.
    process.kill(replacement, 'SIGUSR2');
    await workers.printed(`clock of pid ${replacement}: 1 day(s) ahead`);
    const answer = (await askEach(workers.url, ['w1'], 'POST', '/1/indexes/*/recommendations', TRENDING)).get('w1')!;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.results[0].hits.length, 5);
    const moved = demoTimestamps(db);
    assert.equal(moved.length, before.length, 'no event added or lost');
    // One day, or two if the real clock passed midnight during the test.
    const shift = moved[0]! - before[0]!;
    assert.ok(shift % DAY === 0 && shift >= DAY, `moved ${shift / DAY} days`);
    assert.deepEqual(
      moved.map((timestamp) => timestamp - shift),
      before,
    );
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|could not be written/);
    await workers.stop();
  });
});
