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
import { migratePostgres } from '../../src/storage/postgres/migrations.js';
import { PgReplication, pruneLog, WRITE_LOCK } from '../../src/storage/postgres/replication.js';
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
  test('resumes, finds the entries it needed pruned, rebuilds from the tables and serves the writes it missed', {
    timeout: 120_000,
  }, async () => {
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

  test('while it rebuilds it is not ready (counted for no task), then replays from the head it registered at', {
    timeout: 60_000,
  }, async () => {
    let rebuilds = 0;
    let rebuildStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      rebuildStarted = resolve;
    });
    let finishRebuild!: () => void;
    const rebuilt = new Promise<void>((resolve) => {
      finishRebuild = resolve;
    });
    const log = await stalledReplica(async () => {
      rebuilds += 1;
      rebuildStarted();
      await rebuilt;
    });
    const { replica } = log;
    try {
      const caughtUp = replica.catchUp();
      await started;
      // Rebuilding: registered again at the head (e4, whose effect the tables hold), not ready.
      assert.equal(replica.ready, false);
      assert.deepEqual(await log.row(), { ready: false, applied: log.head });
      const e5 = await log.append('e5');
      finishRebuild();
      await caughtUp;

      // e2 to e4 came from the tables, e5 by replay from the head; ready again.
      assert.deepEqual(log.applied, ['e1', 'e5']);
      assert.equal(rebuilds, 1);
      assert.equal(replica.ready, true);
      assert.deepEqual(await log.row(), { ready: true, applied: e5 });
      // Caught up, with nothing pruned past it: no second rebuild.
      await replica.catchUp();
      assert.equal(rebuilds, 1);
    } finally {
      finishRebuild();
      await log.close();
    }
  });

  test('a write that meets the gap waits for the rebuild, outside the write turn; a failed rebuild is tried again', {
    timeout: 60_000,
  }, async () => {
    let rebuilds = 0;
    const writeTurnFree: boolean[] = [];
    const log = await stalledReplica(async () => {
      rebuilds += 1;
      // Another replica could take the write turn meanwhile (the advisory lock is free).
      const { rows } = await log.pool.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS free', [
        WRITE_LOCK,
      ]);
      writeTurnFree.push(rows[0]!.free);
      if (rebuilds === 1) throw new Error('the tables could not be read');
    });
    const { replica } = log;
    const write = () =>
      replica.exclusive(async (client) => {
        const { rows } = await client.query<{ seq: string }>(
          'INSERT INTO service_log (replica, changes, created_at) VALUES ($1, $2, $3) RETURNING seq',
          ['stalled', '[]', Date.now()],
        );
        await client.query('COMMIT');
        return rows[0]!.seq;
      });
    try {
      // The write finds the gap in its turn, leaves the turn, and the rebuild fails: the write fails with it.
      await assert.rejects(write(), /the tables could not be read/);
      assert.equal(replica.ready, false);
      assert.deepEqual(await log.row(), { ready: false, applied: log.head });
      // The next write rebuilds first (the second try), then takes its turn.
      const own = await write();
      assert.equal(rebuilds, 2);
      assert.deepEqual(writeTurnFree, [true, true]);
      assert.equal(replica.ready, true);
      assert.ok(Number(own) > Number(log.head));
      assert.deepEqual(log.applied, ['e1']);
    } finally {
      await log.close();
    }
  });
});

/**
 * A replica (in this process, on a new database) that applied entry e1, then stalled while e2 and e3 were
 * written and pruned (another live replica applied them; its own heartbeat set two hours back) and e4 was
 * written: the next catch-up finds the gap. The log is driven directly (rows of `service_log`); the
 * replica's memory is the list of entries its follower applied, and `rebuild` stands for the tables.
 */
async function stalledReplica(rebuild: () => Promise<void>) {
  const database = await newDatabase();
  const pool = new pg.Pool({ connectionString: database, max: 4 });
  await migratePostgres(pool);
  const append = async (name: string) =>
    (
      await pool.query<{ seq: string }>(
        'INSERT INTO service_log (replica, changes, created_at) VALUES ($1, $2, $3) RETURNING seq',
        ['test', JSON.stringify([{ area: 'catalog', type: 'dropIndex', name }]), Date.now()],
      )
    ).rows[0]!.seq;
  const row = async () =>
    (
      await pool.query<{ ready: boolean; applied: string }>(
        `SELECT ready, applied_seq AS applied FROM service_replicas WHERE id = 'stalled'`,
      )
    ).rows[0]!;
  // No heartbeat during the test: each catch-up is the test's.
  const replica = new PgReplication(pool, database, { id: 'stalled', heartbeatMs: 3_600_000 });
  const applied: string[] = [];
  await replica.register();
  replica.follow(async (changes) => {
    for (const change of changes) if (change.type === 'dropIndex') applied.push(change.name);
  }, rebuild);
  await replica.join();
  await append('e1');
  await replica.catchUp();
  assert.deepEqual(applied, ['e1']);
  await append('e2');
  const e3 = await append('e3');
  await pool.query(
    `INSERT INTO service_replicas (id, ready, applied_seq, started_at, heartbeat_at) VALUES ('live', TRUE, $1, now(), now())`,
    [e3],
  );
  await pool.query(`UPDATE service_replicas SET heartbeat_at = now() - interval '2 hours' WHERE id = 'stalled'`);
  assert.equal(await pruneLog(pool, Date.now() + 60_000), 3);
  const head = await append('e4');
  return {
    pool,
    replica,
    applied,
    append,
    row,
    /** The log's head once e4 is written: where the replica registers again. */
    head,
    async close() {
      await replica.close();
      await pool.end();
    },
  };
}
