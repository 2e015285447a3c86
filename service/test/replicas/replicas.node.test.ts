/**
 * Replicas over PostgreSQL, as separate processes on one database: a write on one replica, once its task is
 * published (asked on another), is seen by a search on the third; a replica killed with SIGKILL while writers
 * write through all three loses no acknowledged write, and comes back caught up; a replica that stops
 * answering holds its tasks back until its heartbeat is stale; a dropped LISTEN connection loses nothing.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { newDatabase, present, type Replica, startReplica, stopPostgres, waitForTask } from './helpers.js';

const running: Replica[] = [];
after(async () => {
  for (const replica of running) await replica.kill().catch(() => undefined);
  stopPostgres();
});

/** Polls `condition` until it holds; throws after `timeoutMs` (a bound against hanging, not a figure tested). */
async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function replicas(database: string, ids: string[]): Promise<Replica[]> {
  const started = await Promise.all(ids.map((id) => startReplica(database, id)));
  running.push(...started);
  return started;
}

describe('replicas on one PostgreSQL database', () => {
  test('write on A, wait for the task on B, search on C sees it', async () => {
    const database = await newDatabase();
    const [a, b, c] = await replicas(database, ['a', 'b', 'c']);
    const written = await a!.call('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'oak', name: 'Oak chair' } }],
    });
    assert.equal(written.status, 200);
    await waitForTask(b!, written.body.taskID);
    const search = await c!.call('POST', '/1/indexes/shop/query', { query: 'oak' });
    assert.equal(search.status, 200);
    assert.deepEqual(
      search.body.hits.map((hit: { objectID: string }) => hit.objectID),
      ['oak'],
    );
    // Settings and keys travel too: a settings change on C, a key created on B, both used on A.
    const settings = await c!.call('PUT', '/1/indexes/shop/settings', {
      searchableAttributes: ['name'],
      attributesForFaceting: ['name'],
    });
    await waitForTask(a!, settings.body.taskID);
    assert.deepEqual((await a!.call('GET', '/1/indexes/shop/settings')).body.attributesForFaceting, ['name']);
    const key = await b!.call('POST', '/1/keys', { acl: ['search'] });
    assert.equal(key.status, 200);
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await a!.call('POST', '/1/indexes/shop/query', { query: 'oak' }, { key: key.body.key })).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(status, 200, 'the key created on B works on A');
    for (const replica of [a, b, c]) await replica!.stop();
  });

  test('kill -9 of a replica while writers write through all three: every acknowledged write is on every replica, and the killed one catches up when restarted', async () => {
    const database = await newDatabase();
    const started = await replicas(database, ['a', 'b', 'c']);
    const acknowledged: string[] = [];
    let lastTask = 0;
    let refused = 0;
    let stop = false;
    // Three writers, each turning over the three replicas (as a client's hosts list would).
    const writer = async (w: number) => {
      for (let n = 0; !stop; n += 1) {
        const target = started[(w + n) % started.length]!;
        const objectIDs = [`w${w}-${n}-0`, `w${w}-${n}-1`];
        try {
          const answer = await target.call('POST', '/1/indexes/log/batch', {
            requests: objectIDs.map((objectID) => ({ action: 'addObject', body: { objectID, writer: w, n } })),
          });
          if (answer.status === 200) {
            acknowledged.push(...objectIDs);
            lastTask = Math.max(lastTask, answer.body.taskID);
          } else refused += 1;
        } catch {
          refused += 1; // the killed replica: not acknowledged
        }
      }
    };
    const writers = [0, 1, 2].map((w) => writer(w));
    // Wait for what the assertions below need, not for a fixed time: a slow machine acknowledges fewer writes
    // in a given time (20 in 700 ms on a loaded machine).
    try {
      await until(() => acknowledged.length > 50, 'more than 50 acknowledged writes before the kill');
      await started[1]!.kill();
      const beforeKill = acknowledged.length;
      await until(
        () => refused > 0 && acknowledged.length >= beforeKill + 30,
        'a refused write to the killed replica and 30 more acknowledged by the others',
      );
    } finally {
      // Also when a wait times out: writers left running would keep the test process alive.
      stop = true;
      await Promise.all(writers);
    }
    assert.ok(acknowledged.length > 50, `writes were acknowledged (${acknowledged.length})`);
    assert.ok(refused > 0, 'writes sent to the killed replica failed');

    const [a, , c] = started;
    await waitForTask(a!, lastTask);
    for (const replica of [a!, c!]) {
      const found = await present(replica, 'log', acknowledged);
      assert.equal(found.size, acknowledged.length, `replica ${replica.id} has every acknowledged write`);
    }
    // More writes while B is down, then B comes back (a new process, same name) and catches up.
    const more = await a!.call('POST', '/1/indexes/log/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'while-b-was-down' } }],
    });
    await waitForTask(c!, more.body.taskID);
    const b = await startReplica(database, 'b');
    running.push(b);
    const onB = await present(b, 'log', [...acknowledged, 'while-b-was-down']);
    assert.equal(onB.size, acknowledged.length + 1, 'the restarted replica has every write');
    const after = await c!.call('POST', '/1/indexes/log/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'after-b-came-back' } }],
    });
    await waitForTask(a!, after.body.taskID);
    assert.equal((await present(b, 'log', ['after-b-came-back'])).size, 1, 'and follows the log again');
    for (const replica of [a!, b, c!]) await replica.stop();
  });

  test('a task is published only once every live replica applied it; a stalled replica stops counting when its heartbeat is stale', async () => {
    const database = await newDatabase();
    const [a, b] = await replicas(database, ['a', 'b']);
    b!.process.kill('SIGSTOP');
    try {
      const written = await a!.call('POST', '/1/indexes/shop/batch', {
        requests: [{ action: 'addObject', body: { objectID: '1' } }],
      });
      const first = await a!.call('GET', `/1/task/${written.body.taskID}`);
      assert.equal(first.body.status, 'notPublished', 'B is live (fresh heartbeat) and has not applied it');
      // After the stale time (3 s) B no longer counts.
      await waitForTask(a!, written.body.taskID, 30_000);
    } finally {
      b!.process.kill('SIGCONT');
    }
    const later = await a!.call('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: '2' } }],
    });
    await waitForTask(a!, later.body.taskID);
    // B, resumed, catches up at its next wake-up (a notification or its heartbeat, every 500 ms).
    const deadline = Date.now() + 30_000;
    let seen = 0;
    while (Date.now() < deadline) {
      seen = (await present(b!, 'shop', ['1', '2'])).size;
      if (seen === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(seen, 2, 'B, resumed, caught up with both writes');
    for (const replica of [a, b]) await replica!.stop();
  });

  test('a dropped LISTEN connection loses nothing: the replica listens again and catches up by sequence number', async () => {
    const database = await newDatabase();
    const [a, b] = await replicas(database, ['a', 'b']);
    const admin = new pg.Client({ connectionString: database });
    await admin.connect();
    try {
      const dropped = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      );
      assert.equal(dropped.rowCount, 2, 'both replicas were listening');
    } finally {
      await admin.end();
    }
    const written = await a!.call('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'after-drop', name: 'Lamp' } }],
    });
    await waitForTask(b!, written.body.taskID);
    assert.equal((await b!.call('POST', '/1/indexes/shop/query', { query: 'lamp' })).body.nbHits, 1);
    for (const replica of [a, b]) await replica!.stop();
  });
});
