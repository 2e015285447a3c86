/**
 * `serve --workers N`: several processes over one SQLite file and one port, as real child processes on
 * loopback. A write taken by one worker, once its task is published, is seen by a search on every worker; a
 * worker killed with SIGKILL is replaced, a write made meanwhile is published and the replacement has it;
 * concurrent writes through every worker land in one order, the same on every worker, none lost.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ask, askEach, startWorkers, waitForTask, type Workers } from './helpers.js';

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

async function start(count: number): Promise<Workers> {
  const workers = await startWorkers(count);
  running.push(workers);
  return workers;
}

function ids(answer: { body: { hits: Array<{ objectID: string }> } }): string[] {
  return answer.body.hits.map((hit) => hit.objectID);
}

describe('serve --workers', () => {
  test('a write taken by one worker is seen by a search on every worker once its task is published', async () => {
    const workers = await start(2);
    const written = await ask(workers.url, 'POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'oak', name: 'Oak chair' } }],
    });
    assert.equal(written.status, 200);
    assert.match(written.worker, /^w[12]$/);
    await waitForTask(workers.url, written.body.taskID);
    const searches = await askEach(workers.url, ['w1', 'w2'], 'POST', '/1/indexes/shop/query', { query: 'oak' });
    for (const [worker, answer] of searches) assert.deepEqual(ids(answer), ['oak'], `search on ${worker}`);

    // Settings travel too (the index is rebuilt on the other worker from the file).
    const settings = await ask(workers.url, 'PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['name'] });
    await waitForTask(workers.url, settings.body.taskID);
    const read = await askEach(workers.url, ['w1', 'w2'], 'GET', '/1/indexes/shop/settings');
    for (const [worker, answer] of read) assert.deepEqual(answer.body.attributesForFaceting, ['name'], worker);
    await workers.stop();
  });

  test('a worker killed with SIGKILL is replaced; a write made meanwhile is published and on every worker', async () => {
    const workers = await start(2);
    const first = await ask(workers.url, 'PUT', '/1/indexes/shop/before', { name: 'written before' });
    await waitForTask(workers.url, first.body.taskID);
    const killed = workers.pids().get('w2')!;
    process.kill(killed, 'SIGKILL');
    await workers.printed('worker w2 exited (SIGKILL)');
    // Written while w2 is gone or still starting: w1 takes it (a dead worker gets no connection).
    const during = await ask(workers.url, 'PUT', '/1/indexes/shop/during', { name: 'written meanwhile' });
    assert.equal(during.status, 200);
    await waitForTask(workers.url, during.body.taskID);
    // The replacement, under the same name (its pid printed a second time).
    await workers.printed(/worker w2: pid \d+[\s\S]*worker w2: pid \d+/);
    assert.notEqual(workers.pids().get('w2'), killed);
    const after = await ask(workers.url, 'PUT', '/1/indexes/shop/after', { name: 'written after' });
    await waitForTask(workers.url, after.body.taskID);
    const reads = await askEach(workers.url, ['w1', 'w2'], 'POST', '/1/indexes/*/objects', {
      requests: ['before', 'during', 'after'].map((objectID) => ({ indexName: 'shop', objectID })),
    });
    for (const [worker, answer] of reads) {
      assert.deepEqual(
        answer.body.results.map((result: { objectID: string } | null) => result?.objectID),
        ['before', 'during', 'after'],
        `records on ${worker}`,
      );
    }
    await workers.stop();
  });

  test('concurrent writes through every worker land in one order, the same on every worker, none lost', async () => {
    const workers = await start(2);
    const created = await ask(workers.url, 'PUT', '/1/indexes/log/entry', { counter: 0, trail: [] });
    await waitForTask(workers.url, created.body.taskID);
    const clients = 8;
    const each = 8;
    const taken = new Set<string>();
    let last = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < each; i++) {
          // Read-modify-write operations: a worker building one on memory that missed another's write loses it.
          const answer = await ask(workers.url, 'POST', '/1/indexes/log/entry/partial', {
            counter: { _operation: 'Increment', value: 1 },
            trail: { _operation: 'Add', value: `c${client}-${i}` },
          });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          taken.add(answer.worker);
          last = Math.max(last, answer.body.taskID);
        }
      }),
    );
    assert.deepEqual([...taken].sort(), ['w1', 'w2'], 'both workers took writes');
    await waitForTask(workers.url, last);
    const reads = await askEach(workers.url, ['w1', 'w2'], 'GET', '/1/indexes/log/entry');
    const w1 = reads.get('w1')!.body;
    const w2 = reads.get('w2')!.body;
    assert.equal(w1.counter, clients * each, 'no increment lost');
    assert.equal(w1.trail.length, clients * each);
    assert.deepEqual(w2, w1, 'the same record, in the same order, on both workers');
    // Each client's own writes in the order it sent them.
    for (let client = 0; client < clients; client++) {
      const own = w1.trail.filter((entry: string) => entry.startsWith(`c${client}-`));
      assert.deepEqual(
        own,
        Array.from({ length: each }, (_, i) => `c${client}-${i}`),
      );
    }
    await workers.stop();
  });
});
