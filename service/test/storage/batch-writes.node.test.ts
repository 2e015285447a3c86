/**
 * The write path of large batches: records stored by multi-row statements (a later duplicate objectID wins,
 * as one by one), read back after a restart, and the engine's upkeep paid once per index per task
 * (`Index.beginBatch`/`endBatch`).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startService, tempDir } from '../service-helpers.js';

const dirs: string[] = [];
after(async () => {
  const { rmSync } = await import('node:fs');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('batch writes', () => {
  test('250 records with a repeated objectID are stored by multi-row upserts; the later one wins, after a restart too', async (t) => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const running = await startService({ dataDir });
    // Stopped even when an assertion fails: a service left listening keeps the test process (and the run) alive.
    t.after(() => running.stop({ keepData: true }));
    const requests = Array.from({ length: 250 }, (_, i) => ({
      action: 'addObject',
      body: { objectID: `r${i}`, name: `record ${i}` },
    }));
    // the same objectID twice inside the first 100-row statement, and once more in the one-by-one tail
    requests[50] = { action: 'updateObject', body: { objectID: 'r10', name: 'second r10' } };
    requests[249] = { action: 'updateObject', body: { objectID: 'r10', name: 'third r10' } };
    await running.ok('POST', '/1/indexes/big/batch', { requests });
    // What storage kept (either backend), through the catalog store.
    const stored = await running.service.services.storage.catalog.items('records', 'big');
    assert.equal(stored.length, 248);
    assert.deepEqual(
      stored.find((record) => record.objectID === 'r10'),
      { objectID: 'r10', name: 'third r10' },
    );
    const before = await running.ok('GET', '/1/indexes/big/r10');
    assert.equal(before.name, 'third r10');
    await running.stop({ keepData: true });

    const again = await startService({ dataDir });
    t.after(() => again.stop({ keepData: true }));
    const count = await again.ok('POST', '/1/indexes/big/query', { query: '', hitsPerPage: 0 });
    assert.equal(count.nbHits, 248);
    assert.equal((await again.ok('GET', '/1/indexes/big/r10')).name, 'third r10');
    assert.equal((await again.call('GET', '/1/indexes/big/r249')).status, 404, 'replaced by the last r10');
  });

  test('a batch of many operations pays the engine upkeep once per index, just after it is acknowledged', async (t) => {
    const running = await startService({ dataDir: ':memory:' });
    t.after(() => running.stop());
    await running.ok('POST', '/1/indexes/items/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'a' } }],
    });
    const index = running.service.services.catalog.get('items')!;
    let ends = 0;
    const endBatch = index.endBatch.bind(index);
    index.endBatch = () => {
      ends += 1;
      endBatch();
    };
    const requests = [
      ...Array.from({ length: 20 }, (_, i) => ({ action: 'addObject', body: { objectID: `n${i}`, name: 'chair' } })),
      { action: 'deleteObject', body: { objectID: 'a' } },
      { action: 'partialUpdateObject', body: { objectID: 'n1', name: { _operation: 'Increment', value: 1 } } },
      ...Array.from({ length: 5 }, (_, i) => ({ action: 'updateObject', body: { objectID: `m${i}`, name: 'table' } })),
    ];
    await running.ok('POST', '/1/indexes/items/batch', { requests });
    // The upkeep is scheduled behind the answer (setImmediate); one turn of the loop later it has run.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ends, 1, 'one endBatch for the whole task');
    const found = await running.ok('POST', '/1/indexes/items/query', { query: 'chair' });
    assert.equal(found.nbHits, 19);
  });

  test('a search between the acknowledgement and the upkeep sees the write, and consecutive writes share one upkeep', async (t) => {
    const running = await startService({ dataDir: ':memory:' });
    t.after(() => running.stop());
    const { catalog, tasks } = running.service.services;
    await tasks.run({ indexName: 'items', kind: 'batch' }, (write) =>
      catalog.saveObjects(write, 'items', [{ objectID: 'a', name: 'chair' }]),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const index = catalog.get('items')!;
    let ends = 0;
    const endBatch = index.endBatch.bind(index);
    index.endBatch = () => {
      ends += 1;
      endBatch();
    };
    await tasks.run({ indexName: 'items', kind: 'batch' }, (write) =>
      catalog.saveObjects(write, 'items', [{ objectID: 'b', name: 'oak chair' }]),
    );
    // Same turn of the event loop as the acknowledgement: the upkeep has not run, the search does it.
    assert.equal(ends, 0);
    assert.deepEqual(
      index.search({ query: 'oak' }).hits.map((hit) => hit.objectID),
      ['b'],
    );
    await tasks.run({ indexName: 'items', kind: 'batch' }, (write) =>
      catalog.saveObjects(write, 'items', [{ objectID: 'c', name: 'pine chair' }]),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ends, 2, 'each write ends its batch once');
    assert.equal(index.search({ query: 'chair' }).nbHits, 3);
  });
});
