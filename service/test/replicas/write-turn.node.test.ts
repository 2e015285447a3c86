/**
 * The cluster's write turn (`storage/postgres/replication.ts`): a replica applies the log before it takes the
 * turn (the advisory write lock), so a long replay (an index rebuilt after another replica's settings change)
 * holds no other replica's write back; in the turn, only what was committed in between is applied. The log
 * is driven directly (rows of `service_log`, another replica's writes), the replica runs in this process.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { migratePostgres } from '../../src/storage/postgres/migrations.js';
import { PgReplication, WRITE_LOCK } from '../../src/storage/postgres/replication.js';
import { newDatabase, stopPostgres } from './helpers.js';

after(() => stopPostgres());

test('a write applies the log before it takes the write turn, then writes after it', { timeout: 60_000 }, async () => {
  const database = await newDatabase();
  const pool = new pg.Pool({ connectionString: database, max: 4 });
  await migratePostgres(pool);
  // No heartbeat during the test: the catch-ups are the write's.
  const replica = new PgReplication(pool, database, { id: 'b', heartbeatMs: 3_600_000 });
  const turnFreeDuringReplay: boolean[] = [];
  try {
    await replica.register();
    replica.follow(async () => {
      // Could another replica take the write turn now?
      const { rows } = await pool.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS free', [
        WRITE_LOCK,
      ]);
      turnFreeDuringReplay.push(rows[0]!.free);
    });
    await replica.join();
    await replica.catchUp();
    const other = await pool.query<{ seq: string }>(
      'INSERT INTO service_log (replica, changes, created_at) VALUES ($1, $2, $3) RETURNING seq',
      ['a', JSON.stringify([{ area: 'keys', type: 'putKey' }]), Date.now()],
    );
    const own = await replica.exclusive(async (client) => {
      const { rows } = await client.query<{ seq: string }>(
        'INSERT INTO service_log (replica, changes, created_at) VALUES ($1, $2, $3) RETURNING seq',
        ['b', '[]', Date.now()],
      );
      await client.query('COMMIT');
      return rows[0]!.seq;
    });
    assert.deepEqual(turnFreeDuringReplay, [true], "the other replica's entry was applied once, outside the turn");
    assert.equal(replica.applied, Number(other.rows[0]!.seq));
    assert.ok(Number(own) > Number(other.rows[0]!.seq));
  } finally {
    await replica.close();
    await pool.end();
  }
});
