/**
 * The Usage API (document 3) over HTTP against the real service: real calls (settings, batch, add
 * record, searches by POST and GET, a multi-query over two indices, the five API key operations, a
 * search with the search key, get/delete record, save and search rules) made at chosen times through
 * the injected clock (`createService({ now })`), then the statistics of the whole application and of
 * each index worked out by hand below, daily and hourly; groups; omitted metrics; rights (admin key,
 * dedicated usage key, other keys refused); 422s naming the parameter; durability across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Day D, 00:00 UTC. */
const D = Date.parse('2026-03-10T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const USAGE_KEY = 'dedicated-usage-key';

let clock = D + 10 * HOUR + 5 * 60_000;
const now = () => clock;
let svc: Running;

async function usage(path: string, startMs: number, endMs: number, granularity?: string) {
  const q = new URLSearchParams({ startDate: iso(startMs), endDate: iso(endMs) });
  if (granularity) q.set('granularity', granularity);
  return svc.call('GET', `/1/usage/${path}?${q}`);
}
async function stats(path: string, startMs: number, endMs: number, granularity?: string) {
  const answer = await usage(path, startMs, endMs, granularity);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as Record<string, Array<{ t: number; v: any }>>;
}
/** The three days D-1, D, D+1 (daily points). */
const days = (...values: number[]) => values.map((v, i) => ({ t: D + (i - 1) * DAY, v }));

async function makeCalls(running: Running) {
  // D 10:05 — indexing
  clock = D + 10 * HOUR + 5 * 60_000;
  await running.ok('PUT', '/1/indexes/shop/settings', { searchableAttributes: ['name'] });
  await running.ok('POST', '/1/indexes/shop/batch', {
    requests: [
      { action: 'addObject', body: { objectID: 'a', name: 'oak chair' } },
      { action: 'addObject', body: { objectID: 'b', name: 'garden chair' } },
      { action: 'addObject', body: { objectID: 'c', name: 'desk lamp' } },
    ],
  });
  const added = await svc.call('POST', '/1/indexes/other', { name: 'floor lamp' });
  assert.equal(added.status, 200);
  // D 10:10:00 — four searches in one second: 2 POST query, 1 GET, 1 multi-query of 3 requests (shop ×2, other ×1)
  clock = D + 10 * HOUR + 10 * 60_000;
  await running.ok('POST', '/1/indexes/shop/query', { query: 'chair' });
  await running.ok('POST', '/1/indexes/shop/query', { query: 'lamp' });
  await running.ok('GET', '/1/indexes/shop?query=oak');
  await running.ok('POST', '/1/indexes/*/queries', {
    requests: [
      { indexName: 'shop', query: 'chair' },
      { indexName: 'other', query: 'lamp' },
      { indexName: 'shop', query: 'desk' },
    ],
  });
  // D 11:20 — the five API key operations and a search with the search key
  clock = D + 11 * HOUR + 20 * 60_000;
  const key = (await running.ok('POST', '/1/keys', { acl: ['search'] })).key as string;
  await running.ok('GET', '/1/keys');
  await running.ok('GET', `/1/keys/${key}`);
  await running.ok('PUT', `/1/keys/${key}`, { acl: ['search', 'browse'] });
  await running.ok('DELETE', `/1/keys/${key}`);
  await running.ok('POST', '/1/indexes/shop/query', { query: 'oak' }, { key: SEARCH_KEY });
  // D+1 09:00 — records and rules
  clock = D + DAY + 9 * HOUR;
  await running.ok('GET', '/1/indexes/shop/a');
  await running.ok('DELETE', '/1/indexes/shop/c');
  await running.ok('PUT', '/1/indexes/shop/rules/r1', {
    objectID: 'r1',
    conditions: [{ pattern: 'oak', anchoring: 'contains' }],
    consequence: { params: { query: 'chair' } },
  });
  await running.ok('POST', '/1/indexes/shop/rules/search', { query: '' });
  clock = D + DAY + 12 * HOUR;
}

describe('Usage API', () => {
  let dataDir: string;
  before(async () => {
    svc = await startService({ now, usageKey: USAGE_KEY });
    dataDir = svc.dataDir;
    await makeCalls(svc);
  });
  after(async () => {
    await svc.stop();
  });

  test('whole application, daily: every operation counted once per call', async () => {
    const body = await stats('*', D - DAY, D + 2 * DAY);
    assert.deepEqual(body.queries_operations, days(0, 4, 0));
    assert.deepEqual(body.multi_queries_operations, days(0, 1, 0));
    assert.deepEqual(body.set_settings_operations, days(0, 1, 0));
    assert.deepEqual(body.batch_operations, days(0, 1, 0));
    assert.deepEqual(body.add_record_operations, days(0, 1, 0));
    for (const op of ['add_api_key', 'get_api_keys', 'get_api_key', 'update_api_key', 'delete_api_key'])
      assert.deepEqual(body[`${op}_operations`], days(0, 1, 0), op);
    assert.deepEqual(body.get_record_operations, days(0, 0, 1));
    assert.deepEqual(body.delete_record_operations, days(0, 0, 1));
    assert.deepEqual(body.save_rules_operations, days(0, 0, 1));
    assert.deepEqual(body.search_rules_operations, days(0, 0, 1));
    assert.deepEqual(body.total_search_operations, days(0, 5, 0));
    assert.deepEqual(body.total_acl_operations, days(0, 5, 0));
    assert.deepEqual(body.total_indexing_operations, days(0, 1, 0));
    assert.deepEqual(body.total_records_operations, days(0, 2, 2));
    assert.deepEqual(body.total_rules_operations, days(0, 0, 2));
    // writes: settings, batch, add record, add/update/delete key; then delete record, save rule
    assert.deepEqual(body.total_write_operations, days(0, 6, 2));
    assert.deepEqual(body.total_read_operations, days(0, 7, 2));
    assert.deepEqual(body.total_operations, days(0, 13, 4));
    // search requests: 4 single searches + the 3 queries of the multi-query
    assert.deepEqual(body.total_search_requests, days(0, 7, 0));
    // 10:10:00: 3 searches + 3 multi-query requests in the same second
    assert.deepEqual(
      body.max_qps,
      days(0, 0, 0).map((p, i) => ({ t: p.t, v: { 'c1-local-1': [0, 6, 0][i] } })),
    );
    assert.deepEqual(body.region_max_qps?.[1], { t: D, v: { local: 6 } });
    assert.deepEqual(body.total_max_qps, days(0, 6, 0));
    // never measured or without data: omitted
    for (const absent of [
      'used_search_capacity',
      'degraded_queries_ssd_used_queries_impacted',
      'total_synonym_operations',
      'batch_synonym_operations',
      'querysuggestions_total_operations',
      'total_recommend_requests',
      'insights_operations',
      'queries_above_last_ms_processing_time',
      'wait_task_operations',
    ]) {
      assert.equal(body[absent], undefined, absent);
    }
    // processing times: only the day with searches, integers, 99p ≥ 90p
    for (const metric of ['avg_processing_time', '90p_processing_time', '99p_processing_time']) {
      assert.equal(body[metric]!.length, 1, metric);
      assert.equal(body[metric]![0]!.t, D);
      assert.ok(Number.isInteger(body[metric]![0]!.v) && body[metric]![0]!.v >= 0);
    }
    assert.ok(body['99p_processing_time']![0]!.v >= body['90p_processing_time']![0]!.v);
    // sizes: one point, the present day (D+1): a, b (shop) and the record of other
    assert.deepEqual(body.records, [{ t: D + DAY, v: 3 }]);
    assert.ok(body.file_size![0]!.v > body.data_size![0]!.v && body.data_size![0]!.v > 0);
  });

  test('per index: each index gets its own rows of a multi-index call', async () => {
    const body = await stats('*/shop', D - DAY, D + 2 * DAY);
    assert.deepEqual(body.queries_operations, days(0, 4, 0));
    assert.deepEqual(body.multi_queries_operations, days(0, 1, 0));
    assert.deepEqual(body.total_operations, days(0, 7, 4));
    assert.equal(body.add_api_key_operations, undefined); // key calls have no index
    assert.deepEqual(body.records, [{ t: D + DAY, v: 2 }]);
    const o = await stats('total_operations,search_operations,record_operations,records/other', D - DAY, D + 2 * DAY);
    assert.deepEqual(Object.keys(o).sort(), [
      'add_record_operations',
      'multi_queries_operations',
      'records',
      'total_operations',
    ]);
    assert.deepEqual(o.total_operations, days(0, 2, 0));
    assert.deepEqual(o.records, [{ t: D + DAY, v: 1 }]);
    assert.deepEqual(await stats('*/nothing-here', D - DAY, D + 2 * DAY), {});
  });

  test('hourly granularity and date ranges (start inclusive, end exclusive)', async () => {
    const body = await stats('queries_operations,total_operations', D + 10 * HOUR, D + 12 * HOUR, 'hourly');
    assert.deepEqual(body.queries_operations, [
      { t: D + 10 * HOUR, v: 3 },
      { t: D + 11 * HOUR, v: 1 },
    ]);
    assert.deepEqual(body.total_operations, [
      { t: D + 10 * HOUR, v: 7 },
      { t: D + 11 * HOUR, v: 6 },
    ]);
    // from 10:10:00 (inclusive) to 11:00: the four searches only; before 10:10:00 nothing searched
    assert.deepEqual(
      (await stats('search_operations', D + 10 * HOUR + 10 * 60_000, D + 11 * HOUR, 'hourly')).queries_operations,
      [{ t: D + 10 * HOUR, v: 3 }],
    );
    assert.deepEqual(await stats('search_operations', D + 9 * HOUR, D + 10 * HOUR + 10 * 60_000, 'hourly'), {});
    // a range without calls
    assert.deepEqual(await stats('*', D - 30 * DAY, D - 20 * DAY), {});
  });

  test('groups expand to their members; capacity metrics are accepted and omitted', async () => {
    const body = await stats('acl_operations', D, D + DAY);
    assert.deepEqual(Object.keys(body).sort(), [
      'add_api_key_operations',
      'delete_api_key_operations',
      'get_api_key_operations',
      'get_api_keys_operations',
      'update_api_key_operations',
    ]);
    assert.deepEqual(
      await stats('used_search_capacity,degraded_queries_max_capacity_seconds_impacted', D, D + DAY),
      {},
    );
    assert.deepEqual(Object.keys(await stats('rule_operations,synonym_operations', D, D + 2 * DAY)).sort(), [
      'save_rules_operations',
      'search_rules_operations',
    ]);
  });

  test('usage calls are not counted', async () => {
    const before = (await stats('total_operations', D + DAY, D + 2 * DAY)).total_operations;
    await stats('*', D, D + 2 * DAY);
    await stats('*/shop', D, D + 2 * DAY);
    assert.deepEqual((await stats('total_operations', D + DAY, D + 2 * DAY)).total_operations, before);
  });

  test('422 for validation failures, naming the parameter, with status and message', async () => {
    const cases: Array<[string, string]> = [
      [`/1/usage/queries_operations?endDate=${iso(D + DAY)}`, 'startDate'],
      [`/1/usage/queries_operations?startDate=${iso(D)}`, 'endDate'],
      [`/1/usage/queries_operations?startDate=yesterday&endDate=${iso(D + DAY)}`, 'startDate'],
      [`/1/usage/queries_operations?startDate=${iso(D)}&endDate=${iso(D + DAY)}&granularity=weekly`, 'granularity'],
      [`/1/usage/queries_operations?startDate=${iso(D)}&endDate=${iso(D)}`, 'endDate'],
      [
        `/1/usage/queries_operations?startDate=${iso(D)}&endDate=${iso(D + 7 * DAY + HOUR)}&granularity=hourly`,
        'hourly',
      ],
      [`/1/usage/queries_operations?startDate=${iso(D)}&endDate=${iso(D + 366 * DAY)}`, 'daily'],
      [`/1/usage/queries_operations,nope_operations?startDate=${iso(D)}&endDate=${iso(D + DAY)}`, 'nope_operations'],
      [`/1/usage/max_qps/shop?startDate=${iso(D)}&endDate=${iso(D + DAY)}`, 'whole application'],
    ];
    for (const [path, named] of cases) {
      const answer = await svc.call('GET', path);
      assert.equal(answer.status, 422, path);
      assert.equal(answer.body.status, 422, path);
      assert.match(answer.body.message, new RegExp(named), path);
    }
    // the limits themselves are allowed
    assert.equal((await usage('total_operations', D, D + 7 * DAY, 'hourly')).status, 200);
    assert.equal((await usage('total_operations', D, D + 365 * DAY)).status, 200);
  });

  test('rights: the admin key and the dedicated usage key; every other key 403, no key 401', async () => {
    const path = `/1/usage/total_operations?startDate=${iso(D)}&endDate=${iso(D + DAY)}`;
    const dedicated = await svc.call('GET', path, undefined, { key: USAGE_KEY });
    assert.equal(dedicated.status, 200);
    assert.deepEqual(dedicated.body.total_operations, [{ t: D, v: 13 }]);
    for (const key of [SEARCH_KEY, 'wrong', null]) {
      const answer = await svc.call('GET', path, undefined, { key });
      assert.equal(answer.status, key === null ? 401 : 403, String(key));
      assert.equal(answer.body.status, answer.status);
      assert.equal(typeof answer.body.message, 'string');
    }
    assert.equal((await svc.call('GET', path, undefined, { key: USAGE_KEY, appId: 'OTHER' })).status, 403);
    const created = (
      await svc.ok('POST', '/1/keys', { acl: ['search', 'browse', 'analytics', 'logs', 'settings', 'listIndexes'] })
    ).key as string;
    assert.equal((await svc.call('GET', path, undefined, { key: created })).status, 403);
    // the usage key opens nothing else
    assert.equal((await svc.call('GET', '/1/indexes', undefined, { key: USAGE_KEY })).status, 403);
  });

  test('durable: the statistics survive a restart', async () => {
    const before = await stats('*', D - DAY, D + 2 * DAY);
    await svc.stop({ keepData: true });
    svc = await startService({ now, dataDir });
    const afterRestart = await stats('*', D - DAY, D + 2 * DAY);
    // the calls made by this test after the first read (a key creation, a list refused with the usage key) add to D+1
    assert.deepEqual(afterRestart.queries_operations, before.queries_operations);
    assert.deepEqual(afterRestart.total_search_requests, before.total_search_requests);
    assert.deepEqual(afterRestart.total_operations, before.total_operations);
  });

  test('written in batches: stored by the batch timer (every 250 ms), without a close or a read that flushes', async () => {
    // Read from the storage itself (not through the Usage log, whose reads flush it first).
    const { storage } = svc.service.services;
    const stored = async () =>
      (await storage.usage.rows(0, Number.MAX_SAFE_INTEGER)).filter((row) => row.op === 'queries').length;
    // On SQLite, also what another connection sees in the file (the commit reached the disk's WAL).
    const inFile = () => {
      if (storage.kind !== 'sqlite') return undefined;
      const db = new Database(join(dataDir, 'svc-search.sqlite'), { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM usage_calls WHERE op = 'queries'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = await stored();
    const beforeInFile = inFile();
    await svc.ok('POST', '/1/indexes/shop/query', { query: 'chair' });
    // Polled, not slept: the batch timer (250 ms) fires late on a busy machine, but it fires with no read or close.
    const deadline = Date.now() + 20_000;
    while ((await stored()) === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(await stored(), before + 1);
    if (beforeInFile !== undefined) assert.equal(inFile(), beforeInFile + 1);
  });
});
