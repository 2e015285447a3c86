/**
 * A replica that closes leaves at once: the next service to start on the database does not count it as live
 * (it would then leave what the closed one interrupted — a reindex, pending tasks — unfinished), even when the
 * closing replica had a heartbeat under way whose `heartbeat_at = now()` could commit after the leaving update.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { PostgresStorage } from '../../src/storage/postgres/storage.js';
import { newDatabase, stopPostgres } from './helpers.js';

after(() => stopPostgres());

test('a closed replica is not live for the next one, even with heartbeats under way when it closed', async () => {
  const database = await newDatabase();
  const observer = await PostgresStorage.open(database, { id: 'observer' });
  try {
    // A heartbeat every millisecond: each close meets heartbeats in flight (waiting for a connection or
    // for the server); twenty closes in a row.
    for (let round = 0; round < 20; round++) {
      const leaving = await PostgresStorage.open(database, { id: 'leaving', heartbeatMs: 1 });
      await leaving.replication.join();
      for (let i = 0; i < 10_000 && !(await observer.replication.othersLive()); i++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(await observer.replication.othersLive(), true, `round ${round}: live once joined`);
      await leaving.close();
      assert.equal(await observer.replication.othersLive(), false, `round ${round}: live after close`);
    }
  } finally {
    await observer.close();
  }
});
