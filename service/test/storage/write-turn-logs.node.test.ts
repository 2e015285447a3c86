/**
 * A worker's write turn (`SqliteReplication.exclusive`) keeps `BEGIN IMMEDIATE` open on the worker's one
 * connection across its awaits. A log's batch committed on that connection meanwhile (Usage calls, Analytics
 * searches, Insights events, a search log row) would be a savepoint of the turn's transaction: acknowledged,
 * then rolled back with the turn when its write fails. The batches wait instead (`WriteTurnOpen`, retried on
 * the 20 ms timer) and are written once the turn's transaction has ended, whatever its outcome.
 *
 * The production turns await only promises of synchronous SQLite calls (no timer or I/O inside them: see
 * `docs/scaling.md`, "A write turn and the logs"), so no batch meets one there; the turn here awaits a
 * macrotask on purpose, as a turn that read the log or built asynchronously would.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStorage } from '../../src/storage/sqlite/storage.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function count(db: Database.Database, table: string): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe('SQLite workers: the logs and a write turn that rolls back', () => {
  test('batches sent while the turn is open are written after it, not rolled back with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-write-turn-logs-'));
    dirs.push(dir);
    const storage = new SqliteStorage(dir, { worker: { id: 'w1' } });
    storage.replication!.follow(async () => undefined);
    await storage.replication!.join();
    const reader = new Database(join(dir, 'svc-search.sqlite'), { readonly: true });

    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const turn = storage.tasks.exclusive!(async () => {
      opened();
      // The write is being built (a macrotask passes with the transaction open), then fails.
      await failing;
      throw new Error('the build failed');
    });
    await open;
    assert.ok(storage.db.inTransaction, "the turn's transaction is open");

    const now = Date.now();
    const batches = Promise.all([
      storage.usage.append([{ ts: now, idx: 'shop', op: 'search', app: 1, n: 1, ms: 2, status: 200, qs: 0 }]),
      storage.analytics.append(
        [
          {
            indexName: 'shop',
            ts: now,
            query: 'oak',
            nbHits: 1,
            userKey: 'u1',
            anonymous: false,
            page: 0,
            hitsPerPage: 20,
            objectIDs: ['oak'],
            filters: [],
            tags: [],
          },
        ],
        () => false,
      ),
      storage.events.append([
        {
          eventType: 'click',
          eventName: 'Hit clicked',
          index: 'shop',
          userToken: 'u1',
          timestamp: now,
          receivedAt: now,
          objectIDs: ['oak'],
          fingerprint: null,
        },
      ]),
      storage.searchLog.record({
        queryID: 'a'.repeat(32),
        indexName: 'shop',
        query: 'oak',
        page: 0,
        hitsPerPage: 20,
        objectIDs: ['oak'],
        createdAt: now,
      }),
    ]);
    // A macrotask: the batches have had their first try, inside the open turn.
    await new Promise((resolve) => setImmediate(resolve));
    fail();
    await assert.rejects(turn, /the build failed/);
    assert.equal(storage.db.inTransaction, false, 'rolled back');
    await batches;
    // Written on the timer once the transaction ended (the search log row on its pending rows' timer).
    const deadline = Date.now() + 10_000;
    while (count(reader, 'service_search_log') === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(
      ['usage_calls', 'analytics_searches', 'insights_events', 'service_search_log'].map((table) => [
        table,
        count(reader, table),
      ]),
      [
        ['usage_calls', 1],
        ['analytics_searches', 1],
        ['insights_events', 1],
        ['service_search_log', 1],
      ],
    );
    reader.close();
    await storage.close();
  });
});
