/**
 * Smaller rules of the API documents the service did not follow:
 * - Analytics `/2/filters/{attribute list}` needs `search` (document 2): without it, a 400;
 * - Analytics `/2/countries` counts searches by the country a proxy put in a header (`CF-IPCountry`,
 *   `X-Country-Code`, or `--country-header`);
 * - Recommend's defaults: `maxRecommendations` 0 or absent stands for 30 (the hosted maximum), and
 *   `fallbackParameters` fill up to it;
 * - the `setSettings` right the A/B test document names is a right a key can hold; Usage and Monitoring
 *   have dedicated keys: `usage` / `monitoring` rights, or keys named on the command line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseServeArgs, serve } from '../src/cli.js';
import { caller, index, SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await index(
    svc,
    'shop',
    Array.from({ length: 50 }, (_, i) => ({
      objectID: `p${i}`,
      name: `Item ${i}`,
      brand: i % 2 ? 'Hon' : 'Acme',
      rank: i,
    })),
    { searchableAttributes: ['name'], attributesForFaceting: ['brand'], customRanking: ['asc(rank)'] },
  );
  await index(svc, 'other', [{ objectID: 'o1', name: 'Other' }]);
});
after(() => svc.stop());

const day = () => new Date().toISOString().slice(0, 10);
/** The file's first day: its searches lie between it and today (a run may cross midnight UTC). */
const FIRST_DAY = day();
const days = () => `startDate=${FIRST_DAY}&endDate=${day()}`;

describe('Analytics', () => {
  test('/2/filters/{attribute list} without the required search is a 400; one attribute needs none', async () => {
    await svc.ok('POST', '/1/indexes/shop/query', { query: 'item', facetFilters: ['brand:Hon'] });
    const list = await svc.call('GET', `/2/filters/brand,price?index=shop&${days()}`);
    assert.equal(list.status, 400);
    assert.deepEqual(list.body, {
      status: 400,
      message: 'search: required with a list of attributes (/2/filters/{attribute,…}?search=)',
    });
    const withSearch = await svc.ok('GET', `/2/filters/brand,price?index=shop&search=item&${days()}`);
    assert.deepEqual(withSearch.values, [{ attribute: 'brand', operator: ':', value: 'Hon', count: 1 }]);
    const one = await svc.ok('GET', `/2/filters/brand?index=shop&${days()}`);
    assert.equal(one.values.length, 1);
  });

  test('/2/countries: the country a proxy sets (CF-IPCountry, else X-Country-Code); none, XX and junk are no country', async () => {
    // One user each (the same query of one user within 5 s would count once: keystroke aggregation).
    let user = 0;
    const search = (headers: Record<string, string>) =>
      svc.ok(
        'POST',
        '/1/indexes/other/query',
        { query: 'other', userToken: `c${user++}` },
        { key: SEARCH_KEY, headers },
      );
    await search({ 'CF-IPCountry': 'FR' });
    await search({ 'CF-IPCountry': 'fr' });
    await search({ 'X-Country-Code': 'DE' });
    await search({ 'CF-IPCountry': 'XX', 'X-Country-Code': 'IT' }); // Cloudflare's "unknown": the next header
    await search({ 'CF-IPCountry': 'T1' }); // Tor: not a country
    await search({});
    const { countries } = await svc.ok('GET', `/2/countries?index=other&${days()}`);
    assert.deepEqual(countries, [
      { country: 'FR', count: 2 },
      { country: 'DE', count: 1 },
      { country: 'IT', count: 1 },
    ]);
    const limited = await svc.ok('GET', `/2/countries?index=other&limit=1&offset=1&${days()}`);
    assert.deepEqual(limited.countries, [{ country: 'DE', count: 1 }]);
  });

  test('--country-header names the one header to read', async () => {
    const own = await startService({ countryHeader: 'X-Geo' });
    try {
      await own.ok('PUT', '/1/indexes/s/1', { name: 'x' });
      await own.ok(
        'POST',
        '/1/indexes/s/query',
        { userToken: 'a' },
        { headers: { 'X-Geo': 'es', 'CF-IPCountry': 'FR' } },
      );
      await own.ok('POST', '/1/indexes/s/query', { userToken: 'b' }, { headers: { 'CF-IPCountry': 'FR' } });
      const { countries } = await own.ok('GET', `/2/countries?index=s&${days()}`);
      assert.deepEqual(countries, [{ country: 'ES', count: 1 }]);
    } finally {
      await own.stop();
    }
    assert.equal(parseServeArgs(['--country-header', 'X-Geo']).countryHeader, 'X-Geo');
    assert.equal(parseServeArgs(['--max-body-bytes-in-flight', '1048576']).maxBodyBytesInFlight, 1048576);
    assert.equal(parseServeArgs([]).maxBodyBytesInFlight, undefined);
    assert.throws(() => parseServeArgs(['--max-body-bytes-in-flight', '0']), /positive integer/);
  });
});

describe('Recommend defaults', () => {
  before(async () => {
    // 40 items bought today: all of them are trending.
    const now = Date.now();
    await svc.service.services.insights.append(
      Array.from({ length: 40 }, (_, i) => ({
        eventType: 'conversion' as const,
        eventName: 'Purchase',
        index: 'shop',
        userToken: `u${i}`,
        timestamp: now - i * 60_000,
        objectIDs: [`p${i}`],
      })),
    );
  });
  const recommend = async (request: Record<string, unknown>) =>
    (
      await svc.ok('POST', '/1/indexes/*/recommendations', {
        requests: [{ indexName: 'shop', threshold: 0, ...request }],
      })
    ).results[0] as { hits: Array<{ objectID: string; _score: number }>; nbHits: number };

  test('without maxRecommendations (or 0): at most 30, as the hosted API', async () => {
    assert.equal((await recommend({ model: 'trending-items' })).nbHits, 30);
    assert.equal((await recommend({ model: 'trending-items', maxRecommendations: 0 })).nbHits, 30);
    assert.equal((await recommend({ model: 'trending-items', maxRecommendations: 35 })).nbHits, 35);
  });

  test('fallbackParameters fill up to 30 without maxRecommendations', async () => {
    // Trending within brand Acme: p0, p2, … p38 (20 items); the fallback search adds the other Acme items.
    const answer = await recommend({
      model: 'trending-items',
      facetName: 'brand',
      facetValue: 'Acme',
      fallbackParameters: { filters: 'brand:Acme' },
    });
    assert.equal(answer.nbHits, 25, 'the 25 Acme items: 20 trending, 5 from the fallback search');
    assert.equal(answer.hits.filter((hit) => hit._score === 0).length, 5);
  });
});

describe('rights the documents name', () => {
  test('setSettings is a right: a key holding it creates, stops and deletes A/B tests, and changes no settings', async () => {
    const created = await svc.call('POST', '/1/keys', { acl: ['setSettings', 'analytics'] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const key = created.body.key as string;
    assert.deepEqual((await svc.ok('GET', `/1/keys/${key}`)).acl, ['setSettings', 'analytics']);
    const test = await svc.call(
      'POST',
      '/2/abtests',
      {
        name: 'ranking',
        variants: [
          { index: 'shop', trafficPercentage: 50 },
          { index: 'other', trafficPercentage: 50 },
        ],
      },
      { key },
    );
    assert.equal(test.status, 200, JSON.stringify(test.body));
    assert.equal((await svc.call('POST', `/2/abtests/${test.body.abTestID}/stop`, undefined, { key })).status, 200);
    assert.equal((await svc.call('DELETE', `/2/abtests/${test.body.abTestID}`, undefined, { key })).status, 200);
    assert.equal((await svc.call('PUT', '/1/indexes/shop/settings', { hitsPerPage: 5 }, { key })).status, 403);
    const searchOnly = (await svc.ok('POST', '/1/keys', { acl: ['search'] })).key;
    const refused = await svc.call('POST', '/2/abtests', { name: 'x', variants: [] }, { key: searchOnly });
    assert.equal(refused.status, 403);
  });

  test('usage and monitoring rights: dedicated keys that open their API only (index-restricted: those indices)', async () => {
    const usage = (await svc.ok('POST', '/1/keys', { acl: ['usage'] })).key;
    const monitoring = (await svc.ok('POST', '/1/keys', { acl: ['monitoring'] })).key;
    const shopUsage = (await svc.ok('POST', '/1/keys', { acl: ['usage'], indexes: ['shop'] })).key;
    const period = 'startDate=2026-01-01&endDate=2026-01-02';
    const status = async (path: string, key: string) => (await svc.call('GET', path, undefined, { key })).status;
    assert.equal(await status(`/1/usage/total_operations?${period}`, usage), 200);
    assert.equal(await status('/1/status', usage), 403);
    assert.equal(await status('/1/indexes', usage), 403);
    assert.equal(await status('/1/status', monitoring), 200);
    assert.equal(await status(`/1/usage/total_operations?${period}`, monitoring), 403);
    assert.equal(await status(`/1/usage/records/shop?${period}`, shopUsage), 200);
    assert.equal(await status(`/1/usage/records/other?${period}`, shopUsage), 403);
    assert.equal(await status(`/1/usage/total_operations?${period}`, shopUsage), 403);
  });

  test('keys named on the command line: --usage-key and --monitoring-key', async () => {
    const options = parseServeArgs([
      '--port',
      '0',
      '--data-dir',
      tempDir(),
      '--usage-key',
      'my-usage-key',
      '--monitoring-key',
      'my-monitoring-key',
    ]);
    assert.equal(options.usageKey, 'my-usage-key');
    assert.equal(options.monitoringKey, 'my-monitoring-key');
    const write = process.stdout.write;
    process.stdout.write = () => true; // serve() prints its banner
    const { service, url } = await serve(options).finally(() => {
      process.stdout.write = write;
    });
    try {
      const call = caller(url);
      const period = 'startDate=2026-01-01&endDate=2026-01-02';
      assert.equal(
        (await call('GET', `/1/usage/total_operations?${period}`, undefined, { key: 'my-usage-key' })).status,
        200,
      );
      assert.equal((await call('GET', '/1/status', undefined, { key: 'my-monitoring-key' })).status, 200);
      assert.equal((await call('GET', '/1/status', undefined, { key: 'my-usage-key' })).status, 403);
    } finally {
      await service.close();
    }
  });
});
