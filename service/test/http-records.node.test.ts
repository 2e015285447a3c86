/**
 * Records, indices, settings and tasks over HTTP: every write endpoint and its acknowledgement, the
 * seven built-in operations of partial updates (with ignored updates), batches, get object(s), clear,
 * delete by query, list/delete/copy/move indices, settings with replicas, task status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const get = (indexName: string, objectID: string) =>
  svc.call('GET', `/1/indexes/${indexName}/${encodeURIComponent(objectID)}`);
const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID).sort();

async function published(indexName: string, taskID: number) {
  const answer = await svc.ok('GET', `/1/indexes/${indexName}/task/${taskID}`);
  assert.deepEqual(answer, { status: 'published' });
}

describe('single records', () => {
  test('add without ID assigns an objectID; answer has createdAt, taskID, objectID', async () => {
    const answer = await svc.ok('POST', '/1/indexes/rec', { name: 'lamp' });
    assert.equal(typeof answer.objectID, 'string');
    assert.ok(answer.objectID.length > 0);
    assert.equal(typeof answer.taskID, 'number');
    assert.match(answer.createdAt, ISO);
    await published('rec', answer.taskID);
    const record = await get('rec', answer.objectID);
    assert.deepEqual(record.body, { name: 'lamp', objectID: answer.objectID });
  });

  test('add or replace with ID replaces the whole record', async () => {
    const first = await svc.ok('PUT', '/1/indexes/rec/chair-1', { name: 'chair', color: 'red' });
    assert.deepEqual(Object.keys(first).sort(), ['objectID', 'taskID', 'updatedAt']);
    assert.equal(first.objectID, 'chair-1');
    assert.match(first.updatedAt, ISO);
    await svc.ok('PUT', '/1/indexes/rec/chair-1', { name: 'chair v2' });
    assert.deepEqual((await get('rec', 'chair-1')).body, { name: 'chair v2', objectID: 'chair-1' });
  });

  test('delete answers deletedAt and taskID; the record is gone', async () => {
    await svc.ok('PUT', '/1/indexes/rec/gone', { name: 'x' });
    const answer = await svc.ok('DELETE', '/1/indexes/rec/gone');
    assert.deepEqual(Object.keys(answer).sort(), ['deletedAt', 'taskID']);
    assert.match(answer.deletedAt, ISO);
    assert.equal((await get('rec', 'gone')).status, 404);
  });

  test('get object with attributesToRetrieve (comma list and JSON array); unknown object and index 404', async () => {
    await svc.ok('PUT', '/1/indexes/rec/full', { a: 1, b: 2, c: { d: 3, e: 4 } });
    assert.deepEqual(await svc.ok('GET', '/1/indexes/rec/full?attributesToRetrieve=a,c'), {
      a: 1,
      c: { d: 3, e: 4 },
      objectID: 'full',
    });
    assert.deepEqual(await svc.ok('GET', `/1/indexes/rec/full?attributesToRetrieve=${encodeURIComponent('["b"]')}`), {
      b: 2,
      objectID: 'full',
    });
    assert.equal((await get('rec', 'nope')).status, 404);
    assert.equal((await get('no-such-index', 'full')).status, 404);
    // The search key may read objects.
    assert.equal((await svc.call('GET', '/1/indexes/rec/full', undefined, { key: SEARCH_KEY })).status, 200);
  });

  test('unretrievableAttributes are hidden from the search key, shown to the admin key (get, search, browse)', async () => {
    await svc.ok('PUT', '/1/indexes/secret/s1', { name: 'thing', cost: 12 });
    await svc.ok('PUT', '/1/indexes/secret/settings', { unretrievableAttributes: ['cost'] });
    const asSearch = await svc.call('GET', '/1/indexes/secret/s1', undefined, { key: SEARCH_KEY });
    assert.deepEqual(asSearch.body, { name: 'thing', objectID: 's1' });
    assert.equal((await svc.ok('GET', '/1/indexes/secret/s1')).cost, 12);
    // Search and browse too: hidden from the search key, shown to the admin key unless not asked for.
    const searched = await svc.ok('POST', '/1/indexes/secret/query', { query: 'thing' }, { key: SEARCH_KEY });
    assert.equal(searched.hits[0].cost, undefined);
    assert.equal((await svc.ok('POST', '/1/indexes/secret/query', { query: 'thing' })).hits[0].cost, 12);
    assert.equal((await svc.ok('POST', '/1/indexes/secret/browse', {})).hits[0].cost, 12);
    assert.equal(
      (await svc.ok('POST', '/1/indexes/secret/query', { query: 'thing', attributesToRetrieve: ['name'] })).hits[0]
        .cost,
      undefined,
    );
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['search', 'seeUnretrievableAttributes'] });
    assert.equal((await svc.ok('POST', '/1/indexes/secret/query', { query: 'thing' }, { key })).hits[0].cost, 12);
  });

  test('get several objects: results in order, null for missing', async () => {
    await svc.ok('PUT', '/1/indexes/rec/o1', { name: 'one', extra: true });
    await svc.ok('PUT', '/1/indexes/other/o2', { name: 'two' });
    const answer = await svc.ok('POST', '/1/indexes/*/objects', {
      requests: [
        { indexName: 'rec', objectID: 'o1', attributesToRetrieve: ['name'] },
        { indexName: 'other', objectID: 'o2' },
        { indexName: 'rec', objectID: 'missing' },
        { indexName: 'missing-index', objectID: 'o1' },
      ],
    });
    assert.deepEqual(answer.results, [{ name: 'one', objectID: 'o1' }, { name: 'two', objectID: 'o2' }, null, null]);
  });

  test('bad bodies: an array as record, a non-string objectID, invalid index name', async () => {
    assert.equal((await svc.call('POST', '/1/indexes/rec', [{ a: 1 }])).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/rec', { objectID: { x: 1 } })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/rec', 'text')).status, 400);
    assert.equal((await svc.call('PUT', '/1/indexes/rec/x', null)).status, 400);
    const star = await svc.call('POST', '/1/indexes/a*b', { a: 1 });
    assert.equal(star.status, 400);
    assert.match(star.body.message, /indexName/);
  });
});

describe('partial updates', () => {
  const partial = (objectID: string, body: unknown, query = '') =>
    svc.call('POST', `/1/indexes/ops/${objectID}/partial${query}`, body);
  const record = async (objectID: string) => (await get('ops', objectID)).body;

  test('plain attributes add or replace first-level attributes; nested objects replace their ancestor', async () => {
    await svc.ok('PUT', '/1/indexes/ops/p1', { name: 'desk', dims: { w: 1, h: 2 }, keep: 'yes' });
    const answer = await partial('p1', { name: 'big desk', dims: { w: 3 } });
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body).sort(), ['objectID', 'taskID', 'updatedAt']);
    assert.deepEqual(await record('p1'), { name: 'big desk', dims: { w: 3 }, keep: 'yes', objectID: 'p1' });
  });

  test('createIfNotExists: true by default creates, false ignores', async () => {
    assert.equal((await partial('new-1', { a: 1 })).status, 200);
    assert.deepEqual(await record('new-1'), { a: 1, objectID: 'new-1' });
    const ignored = await partial('new-2', { a: 1 }, '?createIfNotExists=false');
    assert.equal(ignored.status, 200);
    assert.equal(typeof ignored.body.taskID, 'number');
    assert.equal((await get('ops', 'new-2')).status, 404);
    assert.equal((await partial('new-3', { a: 1 }, '?createIfNotExists=maybe')).status, 400);
  });

  test('Increment and Decrement', async () => {
    await svc.ok('PUT', '/1/indexes/ops/n', { stock: 10 });
    await partial('n', { stock: { _operation: 'Increment', value: 5 }, views: { _operation: 'Increment', value: 2 } });
    assert.deepEqual(await record('n'), { stock: 15, views: 2, objectID: 'n' });
    await partial('n', { stock: { _operation: 'Decrement', value: 3.5 } });
    assert.equal((await record('n')).stock, 11.5);
    assert.equal((await partial('n', { stock: { _operation: 'Increment', value: 'x' } })).status, 400);
  });

  test('Add, Remove, AddUnique', async () => {
    await svc.ok('PUT', '/1/indexes/ops/arr', { tags: ['a', 'b', 'a'], nums: [1, 2] });
    await partial('arr', { tags: { _operation: 'Add', value: 'c' }, fresh: { _operation: 'Add', value: 7 } });
    assert.deepEqual(await record('arr'), { tags: ['a', 'b', 'a', 'c'], nums: [1, 2], fresh: [7], objectID: 'arr' });
    await partial('arr', { tags: { _operation: 'Remove', value: 'a' }, nums: { _operation: 'Remove', value: 2 } });
    assert.deepEqual((await record('arr')).tags, ['b', 'c']);
    assert.deepEqual((await record('arr')).nums, [1]);
    await partial('arr', { tags: { _operation: 'AddUnique', value: 'b' } });
    await partial('arr', { tags: { _operation: 'AddUnique', value: 'd' } });
    assert.deepEqual((await record('arr')).tags, ['b', 'c', 'd']);
    assert.equal((await partial('arr', { tags: { _operation: 'Add', value: { x: 1 } } })).status, 400);
  });

  test('Remove and AddUnique are silently ignored on arrays holding objects or arrays', async () => {
    await svc.ok('PUT', '/1/indexes/ops/nested', { list: [{ a: 1 }, 'x'], other: [[1], 2] });
    const first = await partial('nested', {
      list: { _operation: 'Remove', value: 'x' },
      other: { _operation: 'AddUnique', value: 3 },
    });
    assert.equal(first.status, 200);
    assert.deepEqual(await record('nested'), { list: [{ a: 1 }, 'x'], other: [[1], 2], objectID: 'nested' });
  });

  test('IncrementFrom: applied when value equals the current value, else the whole update is ignored', async () => {
    await svc.ok('PUT', '/1/indexes/ops/v', { version: 1, name: 'before' });
    await partial('v', { version: { _operation: 'IncrementFrom', value: 1 }, name: 'after' });
    assert.deepEqual(await record('v'), { version: 2, name: 'after', objectID: 'v' });
    const ignored = await partial('v', { version: { _operation: 'IncrementFrom', value: 1 }, name: 'ignored' });
    assert.equal(ignored.status, 200);
    assert.deepEqual(await record('v'), { version: 2, name: 'after', objectID: 'v' });
    // Missing record: created only when value is 0.
    await partial('vf-0', { version: { _operation: 'IncrementFrom', value: 0 } });
    assert.deepEqual(await record('vf-0'), { version: 1, objectID: 'vf-0' });
    await partial('vf-5', { version: { _operation: 'IncrementFrom', value: 5 } });
    assert.equal((await get('ops', 'vf-5')).status, 404);
    assert.equal((await partial('v', { version: { _operation: 'IncrementFrom', value: 1.5 } })).status, 400);
  });

  test('IncrementSet: applied when value is greater than the current value, else ignored', async () => {
    await svc.ok('PUT', '/1/indexes/ops/s', { version: 3, name: 'before' });
    await partial('s', { version: { _operation: 'IncrementSet', value: 7 }, name: 'after' });
    assert.deepEqual(await record('s'), { version: 7, name: 'after', objectID: 's' });
    await partial('s', { version: { _operation: 'IncrementSet', value: 7 }, name: 'ignored' });
    await partial('s', { version: { _operation: 'IncrementSet', value: 2 }, name: 'ignored' });
    assert.deepEqual(await record('s'), { version: 7, name: 'after', objectID: 's' });
    // Missing record: created only when value > 0.
    await partial('is-0', { version: { _operation: 'IncrementSet', value: 0 } });
    assert.equal((await get('ops', 'is-0')).status, 404);
    await partial('is-4', { version: { _operation: 'IncrementSet', value: 4 } });
    assert.deepEqual(await record('is-4'), { version: 4, objectID: 'is-4' });
  });

  test('an attribute named __proto__ is kept as data', async () => {
    const answer = await svc.call('POST', '/1/indexes/ops/proto/partial', undefined, {
      raw: '{"__proto__":{"polluted":true},"a":1}',
    });
    assert.equal(answer.status, 200);
    const stored = await record('proto');
    assert.deepEqual(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('concurrent increments are applied one after the other, none lost; task ids grow', async () => {
    await svc.ok('PUT', '/1/indexes/ops/counter', { hits: 0 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        svc.ok('POST', '/1/indexes/ops/counter/partial', { hits: { _operation: 'Increment', value: 1 } }),
      ),
    );
    assert.equal((await record('counter')).hits, 40);
    assert.equal(new Set(answers.map((answer) => answer.taskID)).size, 40);
  });

  test('unknown _operation answers 400 and changes nothing', async () => {
    await svc.ok('PUT', '/1/indexes/ops/u', { a: 1 });
    const answer = await partial('u', { a: { _operation: 'Multiply', value: 2 } });
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /Multiply/);
    assert.deepEqual(await record('u'), { a: 1, objectID: 'u' });
  });
});

describe('batches', () => {
  test('one index: all seven actions in order; answer taskID and objectIDs', async () => {
    await svc.ok('PUT', '/1/indexes/bat/keep', { n: 1 });
    const answer = await svc.ok('POST', '/1/indexes/bat/batch', {
      requests: [
        { action: 'clear' },
        { action: 'addObject', body: { objectID: 'a', n: 1 } },
        { action: 'addObject', body: { n: 2 } },
        { action: 'updateObject', body: { objectID: 'b', n: 3 } },
        { action: 'partialUpdateObject', body: { objectID: 'a', n: { _operation: 'Increment', value: 10 } } },
        { action: 'partialUpdateObject', body: { objectID: 'c', n: 5 } },
        { action: 'partialUpdateObjectNoCreate', body: { objectID: 'd', n: 6 } },
        { action: 'deleteObject', body: { objectID: 'b' } },
      ],
    });
    assert.equal(typeof answer.taskID, 'number');
    assert.equal(answer.objectIDs.length, 7);
    assert.equal(answer.objectIDs[0], 'a');
    const generated = answer.objectIDs[1];
    await published('bat', answer.taskID);
    const all = await svc.ok('POST', '/1/indexes/bat/browse', {});
    assert.deepEqual(ids(all), ['a', 'c', generated].sort());
    assert.equal((await get('bat', 'a')).body.n, 11);

    const deleted = await svc.ok('POST', '/1/indexes/bat/batch', { requests: [{ action: 'delete' }] });
    await published('bat', deleted.taskID);
    assert.equal((await svc.call('POST', '/1/indexes/bat/query', {})).status, 404);
  });

  test('a batch with one bad request writes nothing (400)', async () => {
    await svc.ok('PUT', '/1/indexes/atomic/x', { n: 1 });
    for (const requests of [
      [
        { action: 'addObject', body: { objectID: 'y' } },
        { action: 'fly', body: {} },
      ],
      [
        { action: 'addObject', body: { objectID: 'y' } },
        { action: 'toString', body: { objectID: 'x' } },
      ],
      [
        { action: 'addObject', body: { objectID: 'y' } },
        { action: 'updateObject', body: { n: 1 } },
      ],
      [
        { action: 'addObject', body: { objectID: 'y' } },
        { action: 'deleteObject', body: 'x' },
      ],
    ]) {
      const answer = await svc.call('POST', '/1/indexes/atomic/batch', { requests });
      assert.equal(answer.status, 400, JSON.stringify(requests));
    }
    assert.equal((await svc.call('POST', '/1/indexes/atomic/batch', { requests: 'nope' })).status, 400);
    assert.equal((await get('atomic', 'y')).status, 404);
  });

  test('several indices: {action, indexName, body}; taskID per index', async () => {
    const answer = await svc.ok('POST', '/1/indexes/*/batch', {
      requests: [
        { action: 'addObject', indexName: 'multi-a', body: { objectID: '1', v: 'a' } },
        { action: 'addObject', indexName: 'multi-b', body: { objectID: '2', v: 'b' } },
        { action: 'partialUpdateObjectNoCreate', indexName: 'multi-a', body: { objectID: '1', w: true } },
        { action: 'deleteObject', indexName: 'multi-b', body: { objectID: '2' } },
      ],
    });
    assert.deepEqual(Object.keys(answer.taskID).sort(), ['multi-a', 'multi-b']);
    assert.deepEqual(answer.objectIDs, ['1', '2', '1', '2']);
    await published('multi-a', answer.taskID['multi-a']);
    assert.deepEqual((await get('multi-a', '1')).body, { objectID: '1', v: 'a', w: true });
    assert.equal((await get('multi-b', '2')).status, 404);
    const missingIndex = await svc.call('POST', '/1/indexes/*/batch', {
      requests: [{ action: 'addObject', body: {} }],
    });
    assert.equal(missingIndex.status, 400);
  });
});

describe('clear and delete by query', () => {
  test('clear removes the records and keeps the settings', async () => {
    await svc.ok('PUT', '/1/indexes/clr/settings', { attributesForFaceting: ['kind'] });
    await svc.ok('PUT', '/1/indexes/clr/1', { kind: 'x' });
    const answer = await svc.ok('POST', '/1/indexes/clr/clear');
    assert.deepEqual(Object.keys(answer).sort(), ['taskID', 'updatedAt']);
    assert.equal((await svc.ok('POST', '/1/indexes/clr/query', {})).nbHits, 0);
    assert.deepEqual((await svc.ok('GET', '/1/indexes/clr/settings')).attributesForFaceting, ['kind']);
  });

  test('deleteByQuery deletes what the filters match; an empty filter is refused', async () => {
    await svc.ok('PUT', '/1/indexes/dbq/settings', { attributesForFaceting: ['kind'] });
    await svc.ok('POST', '/1/indexes/dbq/batch', {
      requests: [
        { action: 'addObject', body: { objectID: '1', kind: 'old', price: 5 } },
        { action: 'addObject', body: { objectID: '2', kind: 'old', price: 50 } },
        { action: 'addObject', body: { objectID: '3', kind: 'new', price: 5 } },
      ],
    });
    for (const body of [{}, { params: '' }, { filters: '' }, { params: 'query=old' }, { facetFilters: [] }]) {
      const refused = await svc.call('POST', '/1/indexes/dbq/deleteByQuery', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.body.message, /filter/);
    }
    const bad = await svc.call('POST', '/1/indexes/dbq/deleteByQuery', { filters: 'kind:old AND (' });
    assert.equal(bad.status, 400);
    const answer = await svc.ok('POST', '/1/indexes/dbq/deleteByQuery', {
      params: 'filters=kind%3Aold%20AND%20price%20%3C%2010',
    });
    assert.deepEqual(Object.keys(answer).sort(), ['deletedAt', 'taskID']);
    assert.deepEqual(ids(await svc.ok('POST', '/1/indexes/dbq/browse', {})), ['2', '3']);
    await svc.ok('POST', '/1/indexes/dbq/deleteByQuery', { numericFilters: ['price>=50'] });
    assert.deepEqual(ids(await svc.ok('POST', '/1/indexes/dbq/browse', {})), ['3']);
    assert.equal((await svc.call('POST', '/1/indexes/nope/deleteByQuery', { filters: 'a:b' })).status, 404);
  });
});

describe('indices', () => {
  test('list indices with entries and dates; delete index', async () => {
    await svc.ok('PUT', '/1/indexes/listed/1', { a: 1 });
    await svc.ok('PUT', '/1/indexes/listed/2', { a: 2 });
    const list = await svc.ok('GET', '/1/indexes');
    const item = list.items.find((entry: { name: string }) => entry.name === 'listed');
    assert.equal(item.entries, 2);
    assert.match(item.createdAt, ISO);
    assert.match(item.updatedAt, ISO);
    assert.equal(typeof item.dataSize, 'number');
    assert.equal(list.nbPages, 1);
    const deleted = await svc.ok('DELETE', '/1/indexes/listed');
    assert.match(deleted.deletedAt, ISO);
    assert.equal(typeof deleted.taskID, 'number');
    assert.ok(!(await svc.ok('GET', '/1/indexes')).items.some((entry: { name: string }) => entry.name === 'listed'));
    assert.equal((await svc.call('POST', '/1/indexes/listed/query', {})).status, 404);
  });

  test('copy (whole, and with scope) and move', async () => {
    await svc.ok('PUT', '/1/indexes/src/settings', { customRanking: ['desc(n)'] });
    await svc.ok('PUT', '/1/indexes/src/1', { n: 1 });
    const copy = await svc.ok('POST', '/1/indexes/src/operation', { operation: 'copy', destination: 'dst' });
    assert.deepEqual(Object.keys(copy).sort(), ['taskID', 'updatedAt']);
    assert.equal((await get('dst', '1')).status, 200);
    assert.deepEqual((await svc.ok('GET', '/1/indexes/dst/settings')).customRanking, ['desc(n)']);

    await svc.ok('PUT', '/1/indexes/scoped/9', { n: 9 });
    await svc.ok('POST', '/1/indexes/src/operation', { operation: 'copy', destination: 'scoped', scope: ['settings'] });
    assert.deepEqual((await svc.ok('GET', '/1/indexes/scoped/settings')).customRanking, ['desc(n)']);
    assert.equal((await get('scoped', '9')).status, 200, 'records kept when scope is settings only');
    assert.equal((await get('scoped', '1')).status, 404);

    await svc.ok('POST', '/1/indexes/src/operation', { operation: 'move', destination: 'moved' });
    assert.equal((await get('moved', '1')).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/src/query', {})).status, 404);

    assert.equal(
      (await svc.call('POST', '/1/indexes/nope/operation', { operation: 'copy', destination: 'x' })).status,
      404,
    );
    assert.equal(
      (await svc.call('POST', '/1/indexes/moved/operation', { operation: 'rename', destination: 'x' })).status,
      400,
    );
    assert.equal((await svc.call('POST', '/1/indexes/moved/operation', { operation: 'copy' })).status, 400);
    assert.equal(
      (await svc.call('POST', '/1/indexes/moved/operation', { operation: 'copy', destination: 'x', scope: ['colors'] }))
        .status,
      400,
    );
  });

  test('task status: published for known tasks, 404 for unknown, 400 for a non-number', async () => {
    const { taskID } = await svc.ok('PUT', '/1/indexes/tasks/1', { a: 1 });
    await published('tasks', taskID);
    assert.equal((await svc.call('GET', '/1/indexes/tasks/task/999999')).status, 404);
    assert.equal((await svc.call('GET', '/1/indexes/tasks/task/abc')).status, 400);
    // Any valid key may read a task.
    assert.equal(
      (await svc.call('GET', `/1/indexes/tasks/task/${taskID}`, undefined, { key: SEARCH_KEY })).status,
      200,
    );
    assert.deepEqual(await svc.ok('GET', `/1/task/${taskID}`), { status: 'published' });
    assert.equal((await svc.call('GET', '/1/task/999999')).status, 404);
  });
});

describe('settings', () => {
  test('PUT is a partial update answering updatedAt and taskID; GET returns full settings', async () => {
    const answer = await svc.ok('PUT', '/1/indexes/set/settings', {
      searchableAttributes: ['title', 'unordered(body)'],
      hitsPerPage: 5,
    });
    assert.deepEqual(Object.keys(answer).sort(), ['taskID', 'updatedAt']);
    await svc.ok('PUT', '/1/indexes/set/settings', { customRanking: ['desc(rank)'] });
    const settings = await svc.ok('GET', '/1/indexes/set/settings');
    assert.deepEqual(settings.searchableAttributes, ['title', 'unordered(body)']);
    assert.equal(settings.hitsPerPage, 5);
    assert.deepEqual(settings.customRanking, ['desc(rank)']);
    assert.equal(settings.minWordSizefor1Typo, 4);
    assert.equal(settings.minWordSizefor2Typos, 8);
  });

  test('bad settings answer 400 naming the setting; unknown index 404', async () => {
    const answer = await svc.call('PUT', '/1/indexes/set/settings', { hitsPerPage: 'many' });
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /hitsPerPage/);
    assert.equal((await svc.call('PUT', '/1/indexes/set/settings', { customRanking: ['popularity'] })).status, 400);
    assert.equal((await svc.call('PUT', '/1/indexes/set/settings', [1])).status, 400);
    assert.equal((await svc.call('GET', '/1/indexes/unknown-index/settings')).status, 404);
  });

  test('a refused settings change on a new index leaves no index behind (rolled back in memory too)', async () => {
    assert.equal((await svc.call('PUT', '/1/indexes/born-bad/settings', { ranking: ['magic'] })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/born-bad/query', {})).status, 404);
    assert.ok(!(await svc.ok('GET', '/1/indexes')).items.some((item: { name: string }) => item.name === 'born-bad'));
    // A refused change on an existing index keeps its previous settings.
    await svc.ok('PUT', '/1/indexes/born-good/settings', { hitsPerPage: 3 });
    assert.equal(
      (await svc.call('PUT', '/1/indexes/born-good/settings', { hitsPerPage: 4, ranking: ['magic'] })).status,
      400,
    );
    assert.equal((await svc.ok('GET', '/1/indexes/born-good/settings')).hitsPerPage, 3);
  });

  test('deleting a primary detaches its replicas; virtual(...) replicas are accepted', async () => {
    await svc.ok('PUT', '/1/indexes/prim/settings', { replicas: ['virtual(prim_virtual)', 'prim_std'] });
    await svc.ok('PUT', '/1/indexes/prim/1', { name: 'x', price: 1 });
    assert.equal((await svc.ok('GET', '/1/indexes/prim_virtual/settings')).primary, 'prim');
    assert.deepEqual((await svc.ok('GET', '/1/indexes/prim/settings')).replicas, ['prim_virtual', 'prim_std']);
    await svc.ok('DELETE', '/1/indexes/prim');
    const replica = await svc.ok('GET', '/1/indexes/prim_std/settings');
    assert.equal(replica.primary, undefined);
    assert.equal((await svc.ok('POST', '/1/indexes/prim_std/query', {})).nbHits, 1);
    assert.equal((await svc.call('PUT', '/1/indexes/prim_std/2', { name: 'now writable' })).status, 200);
  });

  test('replicas mirror the primary’s records and sort on their own ranking; forwardToReplicas', async () => {
    await svc.ok('PUT', '/1/indexes/shop/settings', {
      attributesForFaceting: ['brand'],
      replicas: ['shop_price_asc', 'shop_price_desc'],
    });
    await svc.ok('PUT', '/1/indexes/shop_price_asc/settings', {
      ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
    });
    await svc.ok('PUT', '/1/indexes/shop_price_desc/settings', {
      ranking: ['desc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
    });
    await svc.ok('POST', '/1/indexes/shop/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'm', name: 'lamp medium', price: 20, brand: 'x' } },
        { action: 'addObject', body: { objectID: 'c', name: 'lamp cheap', price: 5, brand: 'y' } },
        { action: 'addObject', body: { objectID: 'e', name: 'lamp expensive', price: 90, brand: 'x' } },
      ],
    });
    const primary = await svc.ok('GET', '/1/indexes/shop/settings');
    assert.deepEqual(primary.replicas, ['shop_price_asc', 'shop_price_desc']);
    const replica = await svc.ok('GET', '/1/indexes/shop_price_asc/settings');
    assert.equal(replica.primary, 'shop');
    assert.deepEqual(replica.attributesForFaceting, ['brand'], 'a new replica starts with the primary settings');
    const order = async (indexName: string) =>
      (await svc.ok('POST', `/1/indexes/${indexName}/query`, { query: 'lamp' }, { key: SEARCH_KEY })).hits.map(
        (hit: { objectID: string }) => hit.objectID,
      );
    assert.deepEqual(await order('shop_price_asc'), ['c', 'm', 'e']);
    assert.deepEqual(await order('shop_price_desc'), ['e', 'm', 'c']);

    // Writes to the primary reach the replicas.
    await svc.ok('PUT', '/1/indexes/shop/z', { name: 'lamp free', price: 0, brand: 'y' });
    await svc.ok('DELETE', '/1/indexes/shop/e');
    await svc.ok('POST', '/1/indexes/shop/m/partial', { price: 1 });
    assert.deepEqual(await order('shop_price_asc'), ['z', 'm', 'c']);
    // Records are written to the primary, not to a replica.
    assert.equal((await svc.call('PUT', '/1/indexes/shop_price_asc/q', { name: 'x' })).status, 400);

    await svc.ok('PUT', '/1/indexes/shop/settings?forwardToReplicas=true', { hitsPerPage: 7 });
    assert.equal((await svc.ok('GET', '/1/indexes/shop_price_desc/settings')).hitsPerPage, 7);
    await svc.ok('PUT', '/1/indexes/shop/settings', { hitsPerPage: 9 });
    assert.equal(
      (await svc.ok('GET', '/1/indexes/shop_price_desc/settings')).hitsPerPage,
      7,
      'not forwarded without the flag',
    );
    assert.equal(
      (await svc.call('PUT', '/1/indexes/shop/settings?forwardToReplicas=perhaps', { hitsPerPage: 9 })).status,
      400,
    );

    // Removing a replica from the list detaches it (it stays as a regular index).
    await svc.ok('PUT', '/1/indexes/shop/settings', { replicas: ['shop_price_asc'] });
    assert.equal((await svc.ok('GET', '/1/indexes/shop_price_desc/settings')).primary, undefined);
    assert.equal((await svc.call('PUT', '/1/indexes/shop/settings', { replicas: 'shop_price_asc' })).status, 400);
  });
});
