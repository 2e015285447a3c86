/**
 * Insights events as the official clients send them, and the conversion window on both sides:
 * - search-insights URL-encodes every filter (`filters.map(encodeURIComponent)`): `brand%3AGlobal` is
 *   decoded before the `attribute:value` check and stored decoded;
 * - InstantSearch's own usage event (`eventType: "instantsearch"`, `eventName: "__start__"`) is acknowledged
 *   and not stored, so an InstantSearch page shows no error on load;
 * - a click or conversion counts for its search only within one hour of it, before as after.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await index(
    svc,
    'shop',
    [
      { objectID: '1', name: 'Oak chair', brand: 'Global' },
      { objectID: '2', name: 'Office chair', brand: 'Ben & Jerry' },
    ],
    { searchableAttributes: ['name'], attributesForFaceting: ['brand'] },
  );
});
after(() => svc.stop());

const events = (list: unknown[]) => svc.call('POST', '/1/events', { events: list }, { key: SEARCH_KEY });
const storedOf = async (userToken: string) =>
  (await svc.ok('GET', `/1/_local/events?userToken=${userToken}`)).events as Array<Record<string, any>>;

describe('filters as search-insights sends them', () => {
  test('URL-encoded filters are decoded, checked and stored decoded', async () => {
    const answer = await events([
      {
        eventType: 'click',
        eventName: 'Filter Applied',
        index: 'shop',
        userToken: 'f1',
        filters: ['brand%3AGlobal', 'brand%3ABen%20%26%20Jerry', 'discount:50%'],
      },
    ]);
    assert.deepEqual(answer.body, { status: 200, message: 'OK' });
    const [stored] = await storedOf('f1');
    assert.deepEqual(stored!.filters, ['brand:Global', 'brand:Ben & Jerry', 'discount:50%']);
  });

  test('a filter without attribute:value is still a 422, decoded or not', async () => {
    for (const filter of ['brand%20Global', 'brandGlobal']) {
      const answer = await events([
        { eventType: 'click', eventName: 'Filter Applied', index: 'shop', userToken: 'f2', filters: [filter] },
      ]);
      assert.equal(answer.status, 422, filter);
      assert.match(answer.body.message, /events\[0\]\.filters\[0\]: must have the form attribute:value/);
    }
  });
});

describe('InstantSearch’s usage event', () => {
  /** What InstantSearch's insights middleware sends on its first render (through search-insights). */
  const start = {
    eventType: 'instantsearch',
    eventName: '__start__',
    timestamp: Date.now(),
    sessionID: 'session-1',
    algoliaAgent: 'instantsearch.js (4.x)',
    version: '4.x',
    applicationId: 'SVCLOCAL',
    performance: { bootstrapMs: 12 },
    widgets: [{ type: 'ais.instantSearch', params: [], children: [] }],
  };

  test('alone: 200 and nothing stored (no index, no records: nothing any figure counts)', async () => {
    const before = (await svc.ok('GET', '/1/_local/events')).nbEvents;
    const answer = await events([start]);
    assert.deepEqual([answer.status, answer.body], [200, { status: 200, message: 'OK' }]);
    assert.equal((await svc.ok('GET', '/1/_local/events')).nbEvents, before);
  });

  test('with other events: they are stored; an invalid one is still a 422 naming its position', async () => {
    const view = { eventType: 'view', eventName: 'Hits Viewed', index: 'shop', userToken: 'i1', objectIDs: ['1'] };
    assert.equal((await events([start, view])).status, 200);
    assert.equal((await storedOf('i1')).length, 1);
    const invalid = await events([start, { ...view, index: '' }]);
    assert.equal(invalid.status, 422);
    assert.match(invalid.body.message, /^events\[1\]\.index/);
  });
});

describe('the conversion window holds on both sides of the search', () => {
  test('a click 70 minutes before its search does not count; 50 minutes before and after do', async () => {
    // The searches' day, and today below: the test may cross midnight UTC.
    const firstDay = new Date().toISOString().slice(0, 10);
    const search = async (userToken: string) =>
      (await svc.ok('POST', '/1/indexes/shop/query', { query: 'chair', clickAnalytics: true, userToken })).queryID;
    const click = (userToken: string, queryID: string, offsetMinutes: number) => ({
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken,
      queryID,
      objectIDs: ['1'],
      positions: [1],
      timestamp: Date.now() + offsetMinutes * 60_000,
    });
    const early = await search('w1');
    const near = await search('w2');
    assert.equal((await events([click('w1', early, -70), click('w2', near, -50)])).status, 200);
    const [tooEarly] = await storedOf('w1');
    const [nearEnough] = await storedOf('w2');
    assert.equal(tooEarly!.search.withinWindow, false);
    assert.equal(nearEnough!.search.withinWindow, true);
    // Analytics (and so A/B test metrics) count the clicks of the window only.
    const today = new Date().toISOString().slice(0, 10);
    const { searches } = await svc.ok(
      'GET',
      `/2/searches?index=shop&clickAnalytics=true&startDate=${firstDay}&endDate=${today}`,
    );
    const chair = searches.find((s: { search: string }) => s.search === 'chair');
    assert.equal(chair.clickCount, 1, 'the click 70 minutes early is outside the window');
  });
});
