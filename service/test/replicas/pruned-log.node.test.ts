/**
 * A replica that stalled past the task log's pruning (`storage/postgres/replication.ts`): log entries are
 * pruned once every replica seen in the last hour has applied them, so a replica stalled for longer may
 * resume to find the entries after its position gone. It must not carry on from the next entry left (it would
 * silently miss the writes in between): it rebuilds its memory from the tables, not ready meanwhile, and
 * serves every write it missed.
 *
 * The stall is real (SIGSTOP of the replica's process); the hour is the replica's heartbeat set two hours
 * back in its row, and the pruning runs with a cut-off the test sets (`pruneLog`, what every replica runs
 * every 30 s with a 10-minute cut-off).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { pruneLog } from '../../src/storage/postgres/replication.js';
import { newDatabase, present, type Replica, startReplica, stopPostgres, waitForTask } from './helpers.js';

const running: Replica[] = [];
after(async () => {
  for (const replica of running) await replica.kill().catch(() => undefined);
  stopPostgres();
});

/** Polls `condition` until it holds; throws after `timeoutMs` (a bound against hanging, not a figure tested). */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a replica behind a pruned task log', () => {
  test('resumes, finds the entries it needed pruned, rebuilds from the tables and serves the writes it missed', async () => {
    const database = await newDatabase();
    const [a, b] = await Promise.all([startReplica(database, 'a'), startReplica(database, 'b')]);
    running.push(a, b);
    const admin = new pg.Pool({ connectionString: database, max: 1 });
    try {
      const first = await a.call('POST', '/1/indexes/shop/batch', {
        requests: [
          { action: 'addObject', body: { objectID: 'gone', name: 'Pine chair' } },
          { action: 'addObject', body: { objectID: 'kept', name: 'Oak chair' } },
        ],
      });
      await waitForTask(a, first.body.taskID);
      assert.equal((await present(b, 'shop', ['gone', 'kept'])).size, 2);

      b.process.kill('SIGSTOP');
      let pruned: { min: number | null; count: number };
      try {
        // Written while B is stalled: a record added, one deleted, a settings change (rebuilt on replay), a
        // new index.
        const missed = [
          await a.call('POST', '/1/indexes/shop/batch', {
            requests: [
              { action: 'addObject', body: { objectID: 'missed', name: 'Walnut table' } },
              { action: 'deleteObject', body: { objectID: 'gone' } },
            ],
          }),
          await a.call('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['name'] }),
          await a.call('PUT', '/1/indexes/lamps/l1', { name: 'Brass lamp' }),
        ];
        for (const answer of missed) assert.equal(answer.status, 200, JSON.stringify(answer.body));
        // An hour passes for B (its heartbeat that old: the pruning no longer waits for it), and the log is
        // pruned with a cut-off after every entry.
        await admin.query(`UPDATE service_replicas SET heartbeat_at = now() - interval '2 hours' WHERE id = 'b'`);
        assert.ok((await pruneLog(admin, Date.now() + 60_000)) >= 4, 'the entries B needs are pruned');
        // One more write after the pruning: the next entry B finds is past the gap.
        const later = await a.call('PUT', '/1/indexes/shop/later', { name: 'Cedar shelf' });
        assert.equal(later.status, 200);
        pruned = (
          await admin.query<{ min: number | null; count: number }>(
            'SELECT MIN(seq)::int AS min, COUNT(*)::int AS count FROM service_log',
          )
        ).rows[0]!;
        assert.equal(pruned.count, 1, 'only the entry written after the pruning is left');
      } finally {
        b.process.kill('SIGCONT');
      }

      // B, resumed, has every write it missed, the deletion included.
      await until(async () => (await present(b, 'shop', ['missed', 'later'])).size === 2, 'B to serve the writes');
      assert.deepEqual([...(await present(b, 'shop', ['gone', 'kept']))], ['kept']);
      assert.equal((await b.call('GET', '/1/indexes/lamps/l1')).body.name, 'Brass lamp');
      assert.deepEqual((await b.call('GET', '/1/indexes/shop/settings')).body.attributesForFaceting, ['name']);
      await until(async () => /ready again/.test(b.output()), 'B to say it is ready again');
      assert.match(b.output(), /replica b stalled past the log's pruning/);
      const row = (
        await admin.query<{ ready: boolean; applied: number }>(
          `SELECT ready, applied_seq::int AS applied FROM service_replicas WHERE id = 'b'`,
        )
      ).rows[0]!;
      assert.equal(row.ready, true);
      assert.ok(row.applied >= pruned.min!, 'registered again at the head, past the gap');
      assert.deepEqual((await b.call('GET', '/1/status')).body, { status: { 'c1-local-1': 'operational' } });

      // And it follows the log again: a write on A reaches B by replay.
      const next = await a.call('PUT', '/1/indexes/shop/next', { name: 'Ash stool' });
      await waitForTask(b, next.body.taskID);
      assert.equal((await present(b, 'shop', ['next'])).size, 1);
    } finally {
      await admin.end();
    }
    for (const replica of [a, b]) await replica.stop();
  });
});
