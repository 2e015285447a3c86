/**
 * What `published` means with workers, on the SQLite storage itself: two storages on one database file (two
 * connections, as two worker processes have), each following the log. A task is published once every live,
 * ready worker applied its log entry: not before the other worker caught up, at once after; a worker whose
 * heartbeat stopped no longer holds tasks back; a worker still starting (registered, not ready) never does.
 * The log is applied in commit order. A job that must run once runs in one worker at a time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStorage } from '../../src/storage/sqlite/storage.js';
import type { Change } from '../../src/storage/types.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A worker whose heartbeat never fires during the test (it is driven by hand) and that is stale after 1.5 s. */
function worker(dir: string, id: string): SqliteStorage {
  return new SqliteStorage(dir, { worker: { id, heartbeatMs: 3_600_000, staleMs: 1500 } });
}

function putRecord(objectID: string): Change[] {
  const at = Date.now();
  return [
    {
      area: 'catalog',
      type: 'putIndex',
      meta: { name: 'shop', settings: {}, replicas: [], createdAt: at, updatedAt: at },
    },
    { area: 'catalog', type: 'putItems', kind: 'records', indexName: 'shop', items: [{ objectID }] },
  ];
}

async function published(storage: SqliteStorage, taskID: number): Promise<boolean> {
  return (await storage.tasks.status(taskID))!.published;
}

describe('workers on one SQLite file', () => {
  test('a task is published once every live, ready worker applied it; stale and starting workers do not hold it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-workers-publish-'));
    dirs.push(dir);
    const a = worker(dir, 'a');
    const b = worker(dir, 'b');
    const seen: string[] = [];
    a.replication!.follow(async () => undefined);
    b.replication!.follow(async (changes) => {
      for (const change of changes) if (change.type === 'putItems') seen.push(String(change.items[0]!.objectID));
    });
    await a.replication!.join();
    await b.replication!.join();
    // The catch-up `join` queues last has run (one at a time, in call order).
    await b.replication!.catchUp();

    const first = await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('one'), Date.now());
    assert.equal(await published(a, first.taskIDs[0]!), false, 'b has not applied it yet');
    assert.equal(await published(b, first.taskIDs[0]!), false, 'the same answer from b');
    await b.replication!.catchUp();
    assert.deepEqual(seen, ['one']);
    assert.equal(await published(a, first.taskIDs[0]!), true, 'published once b applied it');

    // A worker still starting (registered at the log's head, not ready) holds nothing back.
    const c = worker(dir, 'c');
    const second = await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('two'), Date.now());
    const third = await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('three'), Date.now());
    await b.replication!.catchUp();
    assert.deepEqual(seen, ['one', 'two', 'three'], 'applied in commit order');
    assert.equal(await published(a, second.taskIDs[0]!), true);
    assert.equal(await published(a, third.taskIDs[0]!), true, 'c is not ready: not counted');
    await c.close();

    // b stops beating (as a killed worker would): its task is held back until its heartbeat is stale.
    const fourth = await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('four'), Date.now());
    assert.equal(await published(a, fourth.taskIDs[0]!), false);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    assert.equal(await published(a, fourth.taskIDs[0]!), true, 'b is stale: no longer counted');
    await a.close();
    await b.close();

    // One process alone on the file afterwards (plain `serve`): it loaded every committed write at its start.
    const alone = new SqliteStorage(dir);
    assert.equal(await published(alone, fourth.taskIDs[0]!), true);
    await alone.close();
  });

  test('a write from a worker whose memory is behind catches up with the log first, in its write turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-workers-turn-'));
    dirs.push(dir);
    const a = worker(dir, 'a');
    const b = worker(dir, 'b');
    const order: string[] = [];
    a.replication!.follow(async () => undefined);
    b.replication!.follow(async (changes) => {
      for (const change of changes) if (change.type === 'putItems') order.push(`replayed ${change.items[0]!.objectID}`);
    });
    await a.replication!.join();
    await b.replication!.join();
    // The catch-up `join` queues last has run (one at a time, in call order).
    await b.replication!.catchUp();
    await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('from-a'), Date.now());
    await b.tasks.exclusive!(async () => {
      order.push('b builds its write');
      await b.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('from-b'), Date.now());
    });
    assert.deepEqual(order, ['replayed from-a', 'b builds its write']);
    assert.equal(b.replication!.applied, a.replication!.applied + 1);
    await a.close();
    await b.close();
  });

  test("a write applies the log before it takes the file's write lock (a long replay holds no other worker back)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-workers-before-lock-'));
    dirs.push(dir);
    const a = worker(dir, 'a');
    const b = worker(dir, 'b');
    // A third connection asks, while b applies a's entry, whether another writer could take the lock now.
    const probe = new Database(join(dir, 'svc-search.sqlite'), { timeout: 0 });
    const lockFreeDuringReplay: boolean[] = [];
    a.replication!.follow(async () => undefined);
    b.replication!.follow(async (changes) => {
      if (!changes.some((change) => change.type === 'putItems')) return;
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
        lockFreeDuringReplay.push(true);
      } catch {
        lockFreeDuringReplay.push(false);
      }
    });
    await a.replication!.join();
    await b.replication!.join();
    await b.replication!.catchUp();
    await a.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('from-a'), Date.now());
    await b.tasks.commit([{ indexName: 'shop', kind: 'addObject' }], putRecord('from-b'), Date.now());
    assert.deepEqual(lockFreeDuringReplay, [true], "b replayed a's entry once, the lock free meanwhile");
    assert.equal(b.replication!.applied, a.replication!.applied + 1);
    probe.close();
    await a.close();
    await b.close();
  });

  test('a job that must run once runs in one worker at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-workers-once-'));
    dirs.push(dir);
    const a = worker(dir, 'a');
    const b = worker(dir, 'b');
    let inner: boolean | undefined;
    const ran = await a.runOnce!('rebuild', async () => {
      inner = await b.runOnce!('rebuild', async () => undefined);
    });
    assert.equal(ran, true);
    assert.equal(inner, false, 'b skips it while a (live) runs it');
    assert.equal(await b.runOnce!('rebuild', async () => undefined), true, 'b runs it once a is done');
    await a.close();
    await b.close();
  });
});
