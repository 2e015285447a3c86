/** `GET /1/logs`: the latest calls, newest first, filtered by type and index, keys masked; logs right. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService({ dataDir: ':memory:' });
});
after(() => svc.stop());

test('records calls newest first with method, url, code, bodies; filters by type and indexName', async () => {
  await svc.ok('PUT', '/1/indexes/logged/1', { name: 'chair' });
  await svc.ok('POST', '/1/indexes/logged/query', { query: 'chair' }, { key: SEARCH_KEY });
  await svc.call('POST', '/1/indexes/missing/query', { query: 'x' }, { key: SEARCH_KEY });
  await svc.ok('PUT', '/1/indexes/other/1', { name: 'other' });

  const all = await svc.ok('GET', '/1/logs?length=4');
  assert.equal(all.logs.length, 4);
  assert.deepEqual(
    all.logs.map((entry: { method: string; url: string }) => `${entry.method} ${entry.url}`),
    [
      'PUT /1/indexes/other/1',
      'POST /1/indexes/missing/query',
      'POST /1/indexes/logged/query',
      'PUT /1/indexes/logged/1',
    ],
  );
  const search = all.logs[2];
  assert.equal(search.answer_code, '200');
  assert.equal(search.index, 'logged');
  assert.deepEqual(JSON.parse(search.query_body), { query: 'chair' });
  assert.match(search.answer, /"nbHits":1/);
  assert.ok(!search.query_headers.includes(SEARCH_KEY), 'the API key is masked');
  assert.match(search.timestamp, /T/);

  const errors = await svc.ok('GET', '/1/logs?type=error');
  assert.ok(errors.logs.every((entry: { answer_code: string }) => Number(entry.answer_code) >= 400));
  assert.equal(errors.logs[0].url, '/1/indexes/missing/query');
  const queries = await svc.ok('GET', '/1/logs?type=query&indexName=logged');
  assert.deepEqual(
    queries.logs.map((entry: { url: string }) => entry.url),
    ['/1/indexes/logged/query'],
  );
  const builds = await svc.ok('GET', '/1/logs?type=build&length=100');
  assert.ok(builds.logs.every((entry: { method: string }) => entry.method !== 'GET'));
  assert.equal((await svc.ok('GET', '/1/logs?offset=1&length=1')).logs[0].url, '/1/indexes/missing/query');
});

test('needs the logs right; bad parameters 400', async () => {
  assert.equal((await svc.call('GET', '/1/logs', undefined, { key: SEARCH_KEY })).status, 403);
  const { key } = await svc.ok('POST', '/1/keys', { acl: ['logs'] });
  assert.equal((await svc.call('GET', '/1/logs', undefined, { key })).status, 200);
  assert.equal((await svc.call('GET', '/1/logs?length=0')).status, 400);
  assert.equal((await svc.call('GET', '/1/logs?type=weird')).status, 400);
});

test('bodies are cut at 1,000 characters and the request still works', async () => {
  const big = { name: 'x'.repeat(5000) };
  await svc.ok('PUT', '/1/indexes/logged/big', big);
  assert.equal((await svc.ok('GET', '/1/indexes/logged/big')).name.length, 5000);
  const [entry] = (await svc.ok('GET', '/1/logs?type=build&length=1')).logs;
  assert.ok(entry.query_body.length <= 1001);
  assert.ok(entry.query_body.endsWith('…'));
});

test('keeps the last 1,000 calls, newest first, across the trims of the kept calls', async () => {
  await svc.ok('PUT', '/1/indexes/counted/1', { name: 'one' });
  for (let i = 0; i < 2100; i++) await svc.call('GET', `/1/indexes/counted/1?n=${i}`);
  const tail = await svc.ok('GET', '/1/logs?offset=995&length=10');
  assert.deepEqual(
    tail.logs.map((entry: { url: string }) => entry.url),
    [2099 - 995, 2099 - 996, 2099 - 997, 2099 - 998, 2099 - 999].map((n) => `/1/indexes/counted/1?n=${n}`),
  );
  assert.equal((await svc.ok('GET', '/1/logs?length=1')).logs[0].url, '/1/indexes/counted/1?n=2099');
});
