/**
 * The Monitoring API (document 3) over HTTP against the real service, the single server `c1-local-1`:
 * status, incidents (empty), inventory, latency and indexing time computed from real searches and
 * writes made at chosen times through the injected clock (hourly averages of the recorded processing
 * times of the last 24 hours, checked against the durations stored for those calls), reachability
 * probes, infrastructure metrics and periods, unknown servers (404), bad metric/period (400), rights
 * (admin key, dedicated monitoring key, other keys 403), durability across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, TEST_STORAGE, type Running } from './service-helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D = Date.parse('2026-03-10T00:00:00.000Z');
const MONITORING_KEY = 'dedicated-monitoring-key';
let clock = D + 8 * HOUR;
const now = () => clock;
let svc: Running;
let dataDir: string;

/**
 * The hourly averages of the stored durations, computed here from the rows the storage holds (read from it
 * directly: the Monitoring read before it wrote the queued calls).
 */
async function storedAverages(ops: string[]): Promise<Array<{ t: number; v: number }>> {
  const rows = (await svc.service.services.storage.usage.rows(clock - 24 * HOUR, Number.MAX_SAFE_INTEGER)).filter(
    (row) => row.app === 1 && ops.includes(row.op),
  );
  const sums = new Map<number, number[]>();
  for (const row of rows) {
    const t = Math.floor(row.ts / HOUR) * HOUR;
    sums.set(t, [...(sums.get(t) ?? []), row.ms]);
  }
  return [...sums].map(([t, list]) => ({ t, v: Math.round(list.reduce((a, b) => a + b, 0) / list.length) }));
}

describe('Monitoring API', () => {
  before(async () => {
    svc = await startService({ now, monitoringKey: MONITORING_KEY });
    dataDir = svc.dataDir;
    // yesterday 08:00 (more than 24 h before the reads): a write and a search, outside the window
    clock = D - DAY + 8 * HOUR;
    await svc.ok('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'a', name: 'oak chair' } }],
    });
    await svc.ok('POST', '/1/indexes/shop/query', { query: 'chair' });
    // D 09:15: two writes, three searches; D 10:30: one search, one settings change
    clock = D + 9 * HOUR + 15 * 60_000;
    await svc.ok('POST', '/1/indexes/shop/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'b', name: 'garden chair' } }],
    });
    await svc.ok('PUT', '/1/indexes/shop/b', { name: 'garden chair 2' });
    for (const query of ['chair', 'oak', 'garden']) await svc.ok('POST', '/1/indexes/shop/query', { query });
    clock = D + 10 * HOUR + 30 * 60_000;
    await svc.ok('GET', '/1/indexes/shop?query=chair');
    await svc.ok('PUT', '/1/indexes/shop/settings', { searchableAttributes: ['name'] });
    await svc.ok('GET', '/1/keys'); // neither a search nor an indexing write
    clock = D + 11 * HOUR;
  });
  after(async () => {
    await svc.stop();
  });

  test('status, incidents and inventory of the one local server', async () => {
    assert.deepEqual(await svc.ok('GET', '/1/status'), { status: { 'c1-local-1': 'operational' } });
    assert.deepEqual(await svc.ok('GET', '/1/status/c1-local-1'), { status: { 'c1-local-1': 'operational' } });
    assert.deepEqual(await svc.ok('GET', '/1/incidents'), { incidents: { 'c1-local-1': [] } });
    assert.deepEqual(await svc.ok('GET', '/1/incidents/c1-local-1,c1-local-1'), { incidents: { 'c1-local-1': [] } });
    assert.deepEqual(await svc.ok('GET', '/1/status/c1-local-1,c1-local'), {
      status: { 'c1-local-1': 'operational', 'c1-local': 'operational' },
    });
    assert.deepEqual(await svc.ok('GET', '/1/inventory/servers'), {
      inventory: [{ name: 'c1-local-1', region: 'local', is_replica: false, cluster: 'c1-local' }],
    });
  });

  test('latency: hourly average of the recorded search times of the last 24 hours', async () => {
    const body = await svc.ok('GET', '/1/latency/c1-local-1');
    const points = body.metrics.latency['c1-local-1'] as Array<{ t: number; v: number }>;
    assert.deepEqual(
      points.map((p) => p.t),
      [D + 9 * HOUR, D + 10 * HOUR],
    ); // yesterday's search is outside
    assert.deepEqual(points, await storedAverages(['queries', 'multi_queries']));
    for (const p of points) assert.ok(Number.isInteger(p.v) && p.v >= 0);
  });

  test('indexing: hourly average of the recorded index write times', async () => {
    const body = await svc.ok('GET', '/1/indexing/c1-local-1');
    const points = body.metrics.indexing['c1-local-1'] as Array<{ t: number; v: number }>;
    assert.deepEqual(
      points.map((p) => p.t),
      [D + 9 * HOUR, D + 10 * HOUR],
    );
    assert.deepEqual(points, await storedAverages(['batch', 'update_record', 'set_settings']));
  });

  test('reachability probes', async () => {
    assert.deepEqual(await svc.ok('GET', '/1/reachability/c1-local-1/probes'), {
      'c1-local-1': { http: true, storage: true },
    });
  });

  test('infrastructure metrics and periods', async () => {
    const build = await svc.ok('GET', '/1/infrastructure/avg_build_time/period/day');
    assert.deepEqual(
      build.metrics.avg_build_time['c1-local-1'],
      await storedAverages(['batch', 'update_record', 'set_settings']),
    );
    const minute = await svc.ok('GET', '/1/infrastructure/avg_build_time/period/minute');
    assert.deepEqual(minute.metrics.avg_build_time['c1-local-1'], []); // no write in the last minute
    const all = await svc.ok('GET', '/1/infrastructure/*/period/hour');
    assert.deepEqual(Object.keys(all.metrics).sort(), [
      'avg_build_time',
      'cpu_usage',
      'ram_indexing_usage',
      'ram_search_usage',
      'ssd_usage',
    ]);
    // ssd_usage: the filesystem of the database file; on PostgreSQL the data is on the database server, whose
    // disk this process does not see: no point.
    const metrics =
      TEST_STORAGE === 'sqlite' ? ['cpu_usage', 'ram_search_usage', 'ssd_usage'] : ['cpu_usage', 'ram_search_usage'];
    if (TEST_STORAGE === 'postgres') assert.deepEqual(all.metrics.ssd_usage['c1-local-1'], []);
    for (const metric of metrics) {
      const [point, ...rest] = all.metrics[metric]['c1-local-1'];
      assert.equal(rest.length, 0, metric);
      assert.ok(Number.isInteger(point.v) && point.v >= 0 && point.v <= 100 * 64, metric);
      assert.equal(point.t, D + 11 * HOUR);
    }
    for (const period of ['week', 'month'])
      assert.equal((await svc.call('GET', `/1/infrastructure/cpu_usage/period/${period}`)).status, 200);
  });

  test('404 for an unknown server, 400 for an unknown metric or period', async () => {
    for (const path of [
      '/1/status/c9-eu-1',
      '/1/incidents/c1-local-1,c9-eu-1',
      '/1/latency/nope',
      '/1/indexing/nope',
      '/1/reachability/nope/probes',
    ]) {
      const answer = await svc.call('GET', path);
      assert.equal(answer.status, 404, path);
      assert.match(answer.body.message, /Unknown server/);
    }
    const metric = await svc.call('GET', '/1/infrastructure/gpu_usage/period/day');
    assert.equal(metric.status, 400);
    assert.match(metric.body.message, /metric/);
    const period = await svc.call('GET', '/1/infrastructure/cpu_usage/period/year');
    assert.equal(period.status, 400);
    assert.match(period.body.message, /period/);
  });

  test('rights: the admin key and the dedicated monitoring key; every other key 403, no key 401', async () => {
    assert.equal((await svc.call('GET', '/1/status', undefined, { key: MONITORING_KEY })).status, 200);
    assert.equal((await svc.call('GET', '/1/latency/c1-local-1', undefined, { key: MONITORING_KEY })).status, 200);
    for (const key of [SEARCH_KEY, 'wrong', null]) {
      for (const path of ['/1/status', '/1/inventory/servers', '/1/infrastructure/*/period/day']) {
        const answer = await svc.call('GET', path, undefined, { key });
        assert.equal(answer.status, key === null ? 401 : 403, `${path} ${key}`);
        assert.equal(typeof answer.body.message, 'string');
      }
    }
    assert.equal((await svc.call('GET', '/1/indexes', undefined, { key: MONITORING_KEY })).status, 403);
  });

  test('durable: latency and indexing survive a restart', async () => {
    const latency = await svc.ok('GET', '/1/latency/c1-local-1');
    const indexing = await svc.ok('GET', '/1/indexing/c1-local-1');
    await svc.stop({ keepData: true });
    svc = await startService({ now, dataDir });
    assert.deepEqual(await svc.ok('GET', '/1/latency/c1-local-1'), latency);
    assert.deepEqual(await svc.ok('GET', '/1/indexing/c1-local-1'), indexing);
  });
});
