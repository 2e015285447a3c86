/**
 * The multi-cluster user-ID mapping (document 1, "Endpoints > Multi-cluster") over real HTTP against the
 * local service, a single-cluster deployment (`c1-local`): every endpoint, the admin-key rule (403), user
 * ID validation (400), unknown users and clusters (404), batch, top, search, delete, pending, the record
 * counts of users from record writes carrying `X-Service-User-ID`, and persistence across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

const CLUSTER = 'c1-local';
const USER = 'X-Service-User-ID';
const size = (record: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(record));

describe('multi-cluster mapping over HTTP', () => {
  let running: Running;
  const dataDir = tempDir();

  before(async () => {
    running = await startService({ dataDir });
  });
  after(async () => {
    await running.stop();
  });

  test('every endpoint needs the admin key (403 with the search key or wrong credentials)', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/1/clusters/mapping', { cluster: CLUSTER }],
      ['POST', '/1/clusters/mapping/batch', { cluster: CLUSTER, users: ['a'] }],
      ['GET', '/1/clusters/mapping/top'],
      ['GET', '/1/clusters/mapping/someone'],
      ['GET', '/1/clusters'],
      ['GET', '/1/clusters/mapping'],
      ['DELETE', '/1/clusters/mapping/someone'],
      ['POST', '/1/clusters/mapping/search', { query: '' }],
      ['GET', '/1/clusters/mapping/pending'],
    ];
    for (const [method, path, body] of calls) {
      for (const key of [SEARCH_KEY, 'wrong-key']) {
        const answer = await running.call(method, path, body, { key, headers: { [USER]: 'someone' } });
        assert.equal(answer.status, 403, `${method} ${path} with ${key}`);
        assert.equal(typeof answer.body.message, 'string');
      }
    }
    assert.equal(
      (await running.call('GET', '/1/clusters', undefined, { key: 'wrong-key' })).body.message,
      'Invalid Application-Id or API-Key',
    );
  });

  test('assign one user: createdAt, then it is listed with zero records', async () => {
    const answer = await running.ok(
      'POST',
      '/1/clusters/mapping',
      { cluster: CLUSTER },
      { headers: { [USER]: 'alice' } },
    );
    assert.ok(!Number.isNaN(Date.parse(answer.createdAt)), answer.createdAt);
    assert.deepEqual(Object.keys(answer), ['createdAt']);
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/alice'), {
      userID: 'alice',
      clusterName: CLUSTER,
      nbRecords: 0,
      dataSize: 0,
    });
  });

  test('refusals: missing or invalid user ID (400), missing cluster (400), another cluster (404), unknown user (404)', async () => {
    const cases: Array<[number, string, string, unknown, Record<string, string>]> = [
      [400, 'POST', '/1/clusters/mapping', { cluster: CLUSTER }, {}],
      [400, 'POST', '/1/clusters/mapping', { cluster: CLUSTER }, { [USER]: 'bad id' }],
      [400, 'POST', '/1/clusters/mapping', { cluster: CLUSTER }, { [USER]: 'é' }],
      [400, 'POST', '/1/clusters/mapping', { cluster: CLUSTER }, { [USER]: 'x'.repeat(65) }],
      [400, 'POST', '/1/clusters/mapping', {}, { [USER]: 'bob' }],
      [400, 'POST', '/1/clusters/mapping', [], { [USER]: 'bob' }],
      [404, 'POST', '/1/clusters/mapping', { cluster: 'c2-other' }, { [USER]: 'bob' }],
      [400, 'POST', '/1/clusters/mapping/batch', { cluster: CLUSTER, users: [] }, {}],
      [400, 'POST', '/1/clusters/mapping/batch', { cluster: CLUSTER, users: 'bob' }, {}],
      [400, 'POST', '/1/clusters/mapping/batch', { cluster: CLUSTER, users: ['ok', 'not ok'] }, {}],
      [
        400,
        'POST',
        '/1/clusters/mapping/batch',
        { cluster: CLUSTER, users: Array.from({ length: 1001 }, (_, i) => `u${i}`) },
        {},
      ],
      [404, 'POST', '/1/clusters/mapping/batch', { cluster: 'c2-other', users: ['bob'] }, {}],
      [404, 'GET', '/1/clusters/mapping/nobody', undefined, {}],
      [400, 'GET', '/1/clusters/mapping/a.b', undefined, {}],
      [404, 'DELETE', '/1/clusters/mapping/nobody', undefined, {}],
      [400, 'GET', '/1/clusters/mapping?hitsPerPage=0', undefined, {}],
      [400, 'GET', '/1/clusters/mapping?page=-1', undefined, {}],
      [400, 'POST', '/1/clusters/mapping/search', { query: 3 }, {}],
      [404, 'POST', '/1/clusters/mapping/search', { query: '', clusterName: 'c2-other' }, {}],
      [400, 'POST', '/1/clusters/mapping/search', { query: '', hitsPerPage: 1001 }, {}],
      [400, 'GET', '/1/clusters/mapping/pending?getClusters=maybe', undefined, {}],
    ];
    for (const [status, method, path, body, headers] of cases) {
      const answer = await running.call(method, path, body, { headers });
      assert.equal(
        answer.status,
        status,
        `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)} ${JSON.stringify(headers)}: ${JSON.stringify(answer.body)}`,
      );
      assert.equal(typeof answer.body.message, 'string');
    }
    // Nothing refused was assigned.
    assert.equal((await running.call('GET', '/1/clusters/mapping/bob')).status, 404);
    assert.equal((await running.call('GET', '/1/clusters/mapping/ok')).status, 404);
    // 64 characters of the allowed set are accepted.
    const longest = `A-_9${'z'.repeat(60)}`;
    await running.ok('POST', '/1/clusters/mapping', { cluster: CLUSTER }, { headers: { [USER]: longest } });
    await running.ok('DELETE', `/1/clusters/mapping/${longest}`);
  });

  test('batch assigns every user; re-assigning keeps the user once', async () => {
    const answer = await running.ok('POST', '/1/clusters/mapping/batch', {
      cluster: CLUSTER,
      users: ['bob', 'carol', 'dave', 'bob', 'alice'],
    });
    assert.ok(!Number.isNaN(Date.parse(answer.createdAt)));
    const list = await running.ok('GET', '/1/clusters/mapping');
    assert.deepEqual(list, {
      userIDs: ['alice', 'bob', 'carol', 'dave'].map((userID) => ({
        userID,
        clusterName: CLUSTER,
        nbRecords: 0,
        dataSize: 0,
      })),
      page: 0,
      hitsPerPage: 100,
    });
    const paged = await running.ok('GET', '/1/clusters/mapping?page=1&hitsPerPage=3');
    assert.deepEqual(
      paged.userIDs.map((user: { userID: string }) => user.userID),
      ['dave'],
    );
    assert.equal(paged.page, 1);
    assert.equal(paged.hitsPerPage, 3);
    assert.deepEqual(await running.ok('GET', '/1/clusters'), {
      clusters: [{ clusterName: CLUSTER, nbRecords: 0, nbUserIDs: 4, dataSize: 0 }],
    });
  });

  test('record writes with X-Service-User-ID count records and bytes; deletions decrement; unassigned users are refused', async () => {
    const a1 = { objectID: 'a1', name: 'Oak chair', price: 120 };
    const a2 = { objectID: 'a2', name: 'Desk', price: 300 };
    const a3 = { name: 'Lamp' };
    // Batch on one index, POST without objectID, PUT.
    await running.ok(
      'POST',
      '/1/indexes/shop/batch',
      {
        requests: [
          { action: 'addObject', body: a1 },
          { action: 'updateObject', body: a2 },
        ],
      },
      { headers: { [USER]: 'alice' } },
    );
    const added = await running.ok('POST', '/1/indexes/shop', a3, { headers: { [USER]: 'alice' } });
    const b1 = { name: 'Shelf', tags: ['wood'] };
    await running.ok('PUT', '/1/indexes/shop/b1', b1, { headers: { [USER]: 'bob' } });
    // A record written without the header belongs to no one.
    await running.ok('PUT', '/1/indexes/shop/free', { name: 'Nobody' });
    // Multi-index batch.
    await running.ok(
      'POST',
      '/1/indexes/*/batch',
      {
        requests: [
          { action: 'addObject', indexName: 'other', body: { objectID: 'c1', v: 1 } },
          { action: 'addObject', indexName: 'shop', body: { objectID: 'c2', v: 2 } },
        ],
      },
      { headers: { [USER]: 'carol' } },
    );
    const aliceSize = size(a1) + size(a2) + size({ ...a3, objectID: added.objectID });
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/alice'), {
      userID: 'alice',
      clusterName: CLUSTER,
      nbRecords: 3,
      dataSize: aliceSize,
    });
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/bob'), {
      userID: 'bob',
      clusterName: CLUSTER,
      nbRecords: 1,
      dataSize: size({ ...b1, objectID: 'b1' }),
    });
    const carol = await running.ok('GET', '/1/clusters/mapping/carol');
    assert.equal(carol.nbRecords, 2);
    assert.equal(carol.dataSize, size({ objectID: 'c1', v: 1 }) + size({ objectID: 'c2', v: 2 }));

    // Partial update by bob of alice's record: the record is bob's now, with its new size.
    await running.ok(
      'POST',
      '/1/indexes/shop/a1/partial',
      { price: { _operation: 'Increment', value: 1000 } },
      { headers: { [USER]: 'bob' } },
    );
    const bob = await running.ok('GET', '/1/clusters/mapping/bob');
    assert.equal(bob.nbRecords, 2);
    assert.equal(bob.dataSize, size({ ...b1, objectID: 'b1' }) + size({ ...a1, price: 1120 }));
    assert.equal((await running.ok('GET', '/1/clusters/mapping/alice')).nbRecords, 2);

    // Unassigned or invalid user IDs on record writes are refused before anything is written.
    const refused = await running.call('PUT', '/1/indexes/shop/z', { name: 'z' }, { headers: { [USER]: 'stranger' } });
    assert.equal(refused.status, 404);
    assert.match(refused.body.message, /stranger/);
    assert.equal(
      (await running.call('PUT', '/1/indexes/shop/z', { name: 'z' }, { headers: { [USER]: 'bad id' } })).status,
      400,
    );
    assert.equal(
      (
        await running.call(
          'POST',
          '/1/indexes/shop/batch',
          { requests: [{ action: 'addObject', body: { objectID: 'z' } }] },
          { headers: { [USER]: 'stranger' } },
        )
      ).status,
      404,
    );
    assert.equal((await running.call('GET', '/1/indexes/shop/z')).status, 404);

    // Top: by record count, 10 at most per cluster.
    const top = await running.ok('GET', '/1/clusters/mapping/top');
    assert.equal(top.topUsers.length, 1);
    assert.deepEqual(Object.keys(top.topUsers[0]), [CLUSTER]);
    const listed = top.topUsers[0][CLUSTER] as Array<{
      userID: string;
      clusterName: string;
      nbRecords: number;
      dataSize: number;
    }>;
    assert.deepEqual(
      listed.map((user) => user.nbRecords),
      [2, 2, 2, 0],
    );
    assert.deepEqual(new Set(listed.slice(0, 3).map((user) => user.userID)), new Set(['alice', 'bob', 'carol']));
    assert.deepEqual(
      listed.find((user) => user.userID === 'bob'),
      await running.ok('GET', '/1/clusters/mapping/bob'),
    );
    const counts = top.topUsers[0][CLUSTER].map((user: { nbRecords: number }) => user.nbRecords);
    assert.deepEqual(
      counts,
      [...counts].sort((a: number, b: number) => b - a),
    );
    assert.equal(top.topUsers[0][CLUSTER].at(-1).userID, 'dave');

    // Deletions by any path decrement: delete object, batch deleteObject, clear, delete index.
    await running.ok('DELETE', '/1/indexes/shop/a2');
    assert.equal((await running.ok('GET', '/1/clusters/mapping/alice')).nbRecords, 1);
    await running.ok('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'deleteObject', body: { objectID: 'b1' } }],
    });
    assert.equal((await running.ok('GET', '/1/clusters/mapping/bob')).nbRecords, 1);
    await running.ok('DELETE', '/1/indexes/other');
    assert.equal((await running.ok('GET', '/1/clusters/mapping/carol')).nbRecords, 1);
    // A deleted record written again without the header is no longer counted.
    await running.ok('PUT', '/1/indexes/shop/a2', a2);
    assert.equal((await running.ok('GET', '/1/clusters/mapping/alice')).nbRecords, 1);

    const [cluster] = (await running.ok('GET', '/1/clusters')).clusters;
    const users = (await running.ok('GET', '/1/clusters/mapping')).userIDs as Array<{
      nbRecords: number;
      dataSize: number;
    }>;
    assert.equal(cluster.nbUserIDs, 4);
    assert.equal(
      cluster.nbRecords,
      users.reduce((sum, user) => sum + user.nbRecords, 0),
    );
    assert.equal(cluster.nbRecords, 3);
    assert.equal(
      cluster.dataSize,
      users.reduce((sum, user) => sum + user.dataSize, 0),
    );
  });

  test('top lists 10 users at most', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `top${String(i).padStart(2, '0')}`);
    await running.ok('POST', '/1/clusters/mapping/batch', { cluster: CLUSTER, users: many });
    for (const [i, userID] of many.entries()) {
      await running.ok(
        'POST',
        '/1/indexes/tops/batch',
        {
          requests: Array.from({ length: i + 1 }, (_, n) => ({
            action: 'addObject',
            body: { objectID: `${userID}-${n}` },
          })),
        },
        { headers: { [USER]: userID } },
      );
    }
    const listed = (await running.ok('GET', '/1/clusters/mapping/top')).topUsers[0][CLUSTER] as Array<{
      userID: string;
      nbRecords: number;
    }>;
    assert.equal(listed.length, 10);
    assert.deepEqual(
      listed.map((user) => user.userID),
      [...many].reverse().slice(0, 10),
    );
    assert.deepEqual(
      listed.map((user) => user.nbRecords),
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
    );
  });

  test('search user IDs: substring, case-insensitive, cluster filter, pages, highlight', async () => {
    const all = await running.ok('POST', '/1/clusters/mapping/search', { query: '' });
    assert.equal(all.nbHits, 16);
    assert.equal(all.page, 0);
    assert.equal(all.hitsPerPage, 20);
    assert.ok(!Number.isNaN(Date.parse(all.updatedAt)));
    const found = await running.ok('POST', '/1/clusters/mapping/search', { query: 'AR', clusterName: CLUSTER });
    assert.deepEqual(
      found.hits.map((hit: { userID: string }) => hit.userID),
      ['carol'],
    );
    const [hit] = found.hits;
    assert.equal(hit.objectID, 'carol');
    assert.equal(hit.clusterName, CLUSTER);
    assert.equal(hit.nbRecords, 1);
    assert.equal(hit._highlightResult.userID.value, 'c<em>ar</em>ol');
    assert.equal(hit._highlightResult.userID.matchLevel, 'full');
    const paged = await running.ok('POST', '/1/clusters/mapping/search', { query: 'top', page: 2, hitsPerPage: 5 });
    assert.equal(paged.nbHits, 12);
    assert.deepEqual(
      paged.hits.map((h: { userID: string }) => h.userID),
      ['top10', 'top11'],
    );
    assert.equal((await running.ok('POST', '/1/clusters/mapping/search', { query: 'nobody' })).nbHits, 0);
  });

  test('pending: always false, clusters {} with getClusters=true', async () => {
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/pending'), { pending: false });
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/pending?getClusters=true'), {
      pending: false,
      clusters: {},
    });
  });

  test('delete a user: deletedAt, gone from every listing, its records stay in the index', async () => {
    const answer = await running.ok('DELETE', '/1/clusters/mapping/carol');
    assert.ok(!Number.isNaN(Date.parse(answer.deletedAt)));
    assert.equal((await running.call('GET', '/1/clusters/mapping/carol')).status, 404);
    assert.equal((await running.call('DELETE', '/1/clusters/mapping/carol')).status, 404);
    assert.equal((await running.ok('POST', '/1/clusters/mapping/search', { query: 'carol' })).nbHits, 0);
    assert.equal((await running.ok('GET', '/1/clusters')).clusters[0].nbUserIDs, 15);
    assert.equal((await running.ok('GET', '/1/indexes/shop/c2')).v, 2);
    // Its writes are refused now; assigned again, it starts from zero.
    assert.equal((await running.call('PUT', '/1/indexes/shop/c3', {}, { headers: { [USER]: 'carol' } })).status, 404);
    await running.ok('POST', '/1/clusters/mapping', { cluster: CLUSTER }, { headers: { [USER]: 'carol' } });
    assert.equal((await running.ok('GET', '/1/clusters/mapping/carol')).nbRecords, 0);
    await running.ok('DELETE', '/1/clusters/mapping/carol');
  });

  test('the mapping and the record counts survive a restart', async () => {
    const before = {
      list: await running.ok('GET', '/1/clusters/mapping?hitsPerPage=1000'),
      clusters: await running.ok('GET', '/1/clusters'),
      alice: await running.ok('GET', '/1/clusters/mapping/alice'),
    };
    assert.equal(before.alice.nbRecords, 1);
    await running.stop({ keepData: true });
    running = await startService({ dataDir });
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping?hitsPerPage=1000'), before.list);
    assert.deepEqual(await running.ok('GET', '/1/clusters'), before.clusters);
    assert.deepEqual(await running.ok('GET', '/1/clusters/mapping/alice'), before.alice);
    // Writes still count after the restart.
    await running.ok('PUT', '/1/indexes/shop/a9', { name: 'after restart' }, { headers: { [USER]: 'alice' } });
    assert.equal((await running.ok('GET', '/1/clusters/mapping/alice')).nbRecords, 2);
  });
});
