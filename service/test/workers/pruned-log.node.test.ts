/**
 * A worker of `serve --workers N` that stalled past the task log's pruning (`storage/sqlite/replication.ts`):
 * log entries are pruned once every worker seen in the last hour has applied them, so a worker stalled for
 * longer may resume to find the entries after its position gone. It must not carry on from the next entry
 * left (it would silently miss the writes in between): it rebuilds its memory from the tables, not ready
 * meanwhile, and serves every write it missed.
 *
 * The stall is real (SIGSTOP of the worker's process); the hour is the worker's heartbeat set two hours back
 * in its row, and the pruning runs with a cut-off the test sets (`pruneLog`, what every worker runs every
 * 30 s with a 10-minute cut-off).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import { pruneLog } from '../../src/storage/sqlite/replication.js';
import { SqliteStorage } from '../../src/storage/sqlite/storage.js';
import { UsageLog } from '../../src/usage/log.js';
import { Monitoring } from '../../src/usage/monitoring.js';
import { type Answer, ask, askEach, startWorkers, waitForTask, type Workers } from './helpers.js';

const running: Workers[] = [];
const dirs: string[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Polls `condition` until it holds; throws after `timeoutMs` (a bound against hanging, not a figure tested). */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The objects of `objectIDs` that `worker`'s memory holds (getObjects answers from the engine's indices). */
async function presentOn(url: string, worker: string, indexName: string, objectIDs: string[]): Promise<Set<string>> {
  const requests = objectIDs.map((objectID) => ({ indexName, objectID }));
  const answer = (await askEach(url, [worker], 'POST', '/1/indexes/*/objects', { requests })).get(worker)!;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const found = new Set<string>();
  for (const result of answer.body.results as Array<{ objectID: string } | null>)
    if (result) found.add(result.objectID);
  return found;
}

/** Whether the process is stopped (state `T` in `/proc/<pid>/stat`), so the test knows SIGSTOP took effect. */
function stopped(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

/** Whether `db` can take the file's write lock within `withinMs` (then it lets go at once). */
async function lockFreeWithin(db: Database.Database, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return true;
      } catch (error) {
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
      }
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    db.pragma('busy_timeout = 5000');
  }
}

/**
 * Stops the worker's process (SIGSTOP), but not in the middle of one of its writes: a worker stopped while it
 * holds the file's write lock (a heartbeat's commit, a log batch) would hold it until resumed, and block every
 * other writer. Then it is resumed and stopped again.
 */
async function stopOutsideWrites(pid: number, db: Database.Database): Promise<void> {
  for (;;) {
    process.kill(pid, 'SIGSTOP');
    await until(async () => stopped(pid), 'the worker to stop');
    // The other worker's writes end within moments; a stopped one's never does.
    if (await lockFreeWithin(db, 2000)) return;
    process.kill(pid, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a worker behind a pruned task log', () => {
  test('resumes, finds the entries it needed pruned, rebuilds from the tables and serves the writes it missed', {
    timeout: 180_000,
  }, async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const { url } = workers;
    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'));
    db.pragma('busy_timeout = 5000');
    try {
      const first = await ask(url, 'POST', '/1/indexes/shop/batch', {
        requests: [
          { action: 'addObject', body: { objectID: 'gone', name: 'Pine chair' } },
          { action: 'addObject', body: { objectID: 'kept', name: 'Oak chair' } },
        ],
      });
      await waitForTask(url, first.body.taskID);
      assert.equal((await presentOn(url, 'w2', 'shop', ['gone', 'kept'])).size, 2);

      const pid = workers.pids().get('w2')!;
      let stalledProbe: Promise<Answer> | undefined;
      let left: { min: number; count: number };
      try {
        await stopOutsideWrites(pid, db);
        // The cluster hands a connection to a worker that acknowledged the previous one: after the stop, one
        // of two connections goes to w2 (it answers once resumed), then every one to w1. The answered one is
        // w1's, the other is w2's.
        const probes = [ask(url, 'GET', '/1/status'), ask(url, 'GET', '/1/status')];
        const answered = await Promise.race(probes.map(async (probe, index) => ({ answer: await probe, index })));
        assert.equal(answered.answer.worker, 'w1');
        stalledProbe = probes[1 - answered.index];

        // Written while w2 is stalled: a record added, one deleted, a settings change (rebuilt on replay), a
        // new index.
        const missed = [
          await ask(url, 'POST', '/1/indexes/shop/batch', {
            requests: [
              { action: 'addObject', body: { objectID: 'missed', name: 'Walnut table' } },
              { action: 'deleteObject', body: { objectID: 'gone' } },
            ],
          }),
          await ask(url, 'PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['name'] }),
          await ask(url, 'PUT', '/1/indexes/lamps/l1', { name: 'Brass lamp' }),
        ];
        for (const answer of missed) {
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.equal(answer.worker, 'w1');
        }
        // An hour passes for w2 (its heartbeat that old: the pruning no longer waits for it), and the log is
        // pruned with a cut-off after every entry.
        db.prepare(`UPDATE service_replicas SET heartbeat_at = ? WHERE id = 'w2'`).run(Date.now() - 7_200_000);
        assert.ok(pruneLog(db, Date.now() + 60_000) >= 4, 'the entries w2 needs are pruned');
        // One more write after the pruning: the next entry w2 finds is past the gap.
        const later = await ask(url, 'PUT', '/1/indexes/shop/later', { name: 'Cedar shelf' });
        assert.equal(later.status, 200);
        left = db.prepare('SELECT MIN(seq) AS min, COUNT(*) AS count FROM service_log').get() as typeof left;
        assert.equal(left.count, 1, 'only the entry written after the pruning is left');
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // The connection w2 held while stopped is answered now.
      assert.equal((await stalledProbe).worker, 'w2');

      // w2, resumed, has every write it missed, the deletion included.
      await until(
        async () => (await presentOn(url, 'w2', 'shop', ['missed', 'later'])).size === 2,
        'w2 to serve the writes',
      );
      assert.deepEqual([...(await presentOn(url, 'w2', 'shop', ['gone', 'kept']))], ['kept']);
      assert.equal((await askEach(url, ['w2'], 'GET', '/1/indexes/lamps/l1')).get('w2')!.body.name, 'Brass lamp');
      const settings = (await askEach(url, ['w2'], 'GET', '/1/indexes/shop/settings')).get('w2')!;
      assert.deepEqual(settings.body.attributesForFaceting, ['name']);
      await workers.printed('worker w2 rebuilt from the tables, ready again');
      assert.match(workers.output(), /worker w2 stalled past the log's pruning/);
      const row = db.prepare(`SELECT ready, applied_seq AS applied FROM service_replicas WHERE id = 'w2'`).get() as {
        ready: number;
        applied: number;
      };
      assert.equal(row.ready, 1);
      assert.ok(row.applied >= left.min, 'registered again at the head, past the gap');
      const status = (await askEach(url, ['w2'], 'GET', '/1/status')).get('w2')!;
      assert.deepEqual(status.body, { status: { 'c1-local-1': 'operational' } });

      // And it follows the log again: a write on w1 reaches w2 by replay (published: every ready worker has it).
      const next = (await askEach(url, ['w1'], 'PUT', '/1/indexes/shop/next', { name: 'Ash stool' })).get('w1')!;
      await waitForTask(url, next.body.taskID);
      assert.equal((await presentOn(url, 'w2', 'shop', ['next'])).size, 1);
    } finally {
      db.close();
    }
  });

  test('while it rebuilds it is not ready (counted for no task, /1/status degraded), then replays from the head', {
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
    const log = stalledWorker(async () => {
      rebuilds += 1;
      rebuildStarted();
      await rebuilt;
    });
    const { worker } = log;
    try {
      await log.ready;
      const caughtUp = worker.catchUp();
      await started;
      // Rebuilding: registered again at the head (e4, whose effect the tables hold), not ready.
      assert.equal(worker.ready, false);
      assert.deepEqual(log.row(), { ready: 0, applied: log.head });
      assert.deepEqual(log.monitoring.status(), { status: { 'c1-local-1': 'degraded_performance' } });
      const e5 = log.append('e5');
      finishRebuild();
      await caughtUp;

      // e2 to e4 came from the tables, e5 by replay from the head; ready again.
      assert.deepEqual(log.applied, ['e1', 'e5']);
      assert.equal(rebuilds, 1);
      assert.equal(worker.ready, true);
      assert.deepEqual(log.row(), { ready: 1, applied: e5 });
      assert.deepEqual(log.monitoring.status(), { status: { 'c1-local-1': 'operational' } });
      // Caught up, with nothing pruned past it: no second rebuild.
      await worker.catchUp();
      assert.equal(rebuilds, 1);
    } finally {
      finishRebuild();
      await log.close();
    }
  });

  test('a write that meets the gap waits for the rebuild, outside the write lock; a failed rebuild is tried again', {
    timeout: 60_000,
  }, async () => {
    let rebuilds = 0;
    const lockFree: boolean[] = [];
    const log = stalledWorker(async () => {
      rebuilds += 1;
      // Another worker could take the write lock meanwhile.
      lockFree.push(log.lockIsFree());
      if (rebuilds === 1) throw new Error('the tables could not be read');
    });
    const { worker } = log;
    const write = () =>
      worker.exclusive(async () => {
        const { lastInsertRowid } = log.db
          .prepare(`INSERT INTO service_log (replica, changes, created_at) VALUES ('stalled', '[]', ?)`)
          .run(Date.now());
        log.db.exec('COMMIT');
        return Number(lastInsertRowid);
      });
    try {
      await log.ready;
      // The write finds the gap, and the rebuild fails: the write fails with it.
      await assert.rejects(write(), /the tables could not be read/);
      assert.equal(worker.ready, false);
      assert.deepEqual(log.row(), { ready: 0, applied: log.head });
      // The next write rebuilds first (the second try), then takes the lock.
      const own = await write();
      assert.equal(rebuilds, 2);
      assert.deepEqual(lockFree, [true, true]);
      assert.equal(worker.ready, true);
      assert.ok(own > log.head);
      assert.deepEqual(log.applied, ['e1']);
    } finally {
      await log.close();
    }
  });
});

/**
 * A worker (in this process, the storage of a worker on a new data directory) that applied entry e1, then stalled while e2 and e3
 * were written and pruned (another live worker applied them; its own heartbeat set two hours back) and e4 was
 * written: the next catch-up finds the gap. The log is driven directly (rows of `service_log`, through a
 * second connection, as another worker's); the worker's memory is the list of entries its follower applied,
 * and `rebuild` stands for the tables.
 */
function stalledWorker(rebuild: () => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-workers-pruned-'));
  dirs.push(dir);
  // No heartbeat during the test: each catch-up is the test's.
  const storage = new SqliteStorage(dir, { worker: { id: 'stalled', heartbeatMs: 3_600_000 } });
  const { db } = storage;
  const worker = storage.replication!;
  const monitoring = new Monitoring({
    now: Date.now,
    usage: new UsageLog(storage.usage, async () => new Set()),
    storage,
  });
  const other = openDatabase(dir);
  const append = (name: string) =>
    Number(
      other
        .prepare('INSERT INTO service_log (replica, changes, created_at) VALUES (?, ?, ?)')
        .run('test', JSON.stringify([{ area: 'catalog', type: 'dropIndex', name }]), Date.now()).lastInsertRowid,
    );
  const row = () =>
    other.prepare(`SELECT ready, applied_seq AS applied FROM service_replicas WHERE id = 'stalled'`).get() as {
      ready: number;
      applied: number;
    };
  const applied: string[] = [];
  worker.follow(async (changes) => {
    for (const change of changes) if (change.type === 'dropIndex') applied.push(change.name);
  }, rebuild);
  const state = { head: 0 };
  const ready = (async () => {
    await worker.join();
    append('e1');
    await worker.catchUp();
    assert.deepEqual(applied, ['e1']);
    append('e2');
    const e3 = append('e3');
    other
      .prepare(
        `INSERT INTO service_replicas (id, ready, applied_seq, started_at, heartbeat_at) VALUES ('live', 1, ?, ?, ?)`,
      )
      .run(e3, Date.now(), Date.now());
    other.prepare(`UPDATE service_replicas SET heartbeat_at = ? WHERE id = 'stalled'`).run(Date.now() - 7_200_000);
    assert.equal(pruneLog(other, Date.now() + 60_000), 3);
    state.head = append('e4');
  })();
  return {
    db,
    worker,
    monitoring,
    applied,
    append,
    row,
    /** Resolves once the worker stalled behind the pruning. */
    ready,
    /** The log's head once e4 is written: where the worker registers again. */
    get head() {
      return state.head;
    },
    /** Whether another connection can take the write lock now (without waiting). */
    lockIsFree(): boolean {
      other.pragma('busy_timeout = 0');
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
        return true;
      } catch {
        return false;
      } finally {
        other.pragma('busy_timeout = 5000');
      }
    },
    async close() {
      await storage.close();
      other.close();
    },
  };
}
