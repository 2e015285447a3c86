/**
 * The Analytics API (document 2) over HTTP against the real service: real searches (POST, GET and
 * multi-query, with filters, tags, user tokens by parameter and header, an anonymous user), real Insights
 * events (a click at position 3 and a conversion, a late click, a view, a "Filter Applied" click), then
 * every endpoint's figures against values worked out by hand below; keystroke aggregation; periods;
 * rights; 400s; the rate limit; durability across a restart; the official v5 analytics client.
 *
 * The service's clock is injected (`createService({ now })`) so searches are recorded at chosen times.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import {
  ADMIN_KEY,
  APP_ID,
  index,
  SEARCH_KEY,
  startService,
  type Answer,
  type CallOptions,
  type Running,
  scenarioTime,
  SMALL_SHOP,
} from './service-helpers.js';

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const T0 = scenarioTime();
const D = dayOf(T0);
const D_1 = dayOf(T0 - DAY);
const D_10 = dayOf(T0 - 10 * DAY);
/** The default period: D-7 … D. */
const PERIOD = Array.from({ length: 8 }, (_, i) => dayOf(T0 - (7 - i) * DAY));

let clock = T0;
const now = () => clock;

const RECORDS = SMALL_SHOP.records;
const SETTINGS = SMALL_SHOP.settings;

let svc: Running;

/** An Analytics call; the clock moves one second per call (as a real client's calls would). */
async function analytics<T = any>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
  clock += 1000;
  return svc.call<T>('GET', path, undefined, options);
}

async function report<T = any>(path: string): Promise<T> {
  const answer = await analytics<T>(path);
  assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** One search at T0 + `at` seconds through POST …/query; returns the answer. */
async function search(
  indexName: string,
  at: number,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  clock = T0 + at * 1000;
  const answer = await svc.call('POST', `/1/indexes/${indexName}/query`, params, { key: SEARCH_KEY, headers });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as { nbHits: number; hits: Array<{ objectID: string }>; queryID?: string };
}

async function events(list: Array<Record<string, unknown>>) {
  const answer = await svc.call('POST', '/1/events', { events: list }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** `dates` of the default period: zero everywhere but the given days. */
function dates<T extends Record<string, unknown>>(empty: T, days: Record<string, Partial<T>>) {
  return PERIOD.map((date) => ({ date, ...empty, ...(days[date] ?? {}) }));
}

const q: Record<string, string> = {};

before(async () => {
  svc = await startService({ now });
  await index(svc, 'shop', RECORDS, SETTINGS);
  await index(svc, 'typing', RECORDS, SETTINGS);

  // Hand-worked scenario on `shop` (times in seconds after T0):
  // 1–5 alice types "c", "ch", "cha", "chai", "chair" 0.3 s apart (clickAnalytics, as the elements do):
  //     only "chair" counts (tracked, 4 hits [4, 1, 2, 3]); she clicks position 3 (objectID 2) and buys it.
  for (const [i, query] of ['c', 'ch', 'cha', 'chai'].entries())
    await search('shop', i * 0.3, { query, clickAnalytics: true, userToken: 'alice' });
  const chair = await search('shop', 1.2, { query: 'chair', clickAnalytics: true, userToken: 'alice' });
  assert.deepEqual([chair.nbHits, chair.hits.map((hit) => hit.objectID)], [4, ['4', '1', '2', '3']]);
  q.chair = chair.queryID!;
  // 6  bob: "chair" with brand:Acme and price<100 (tracked, 2 hits [4, 3]), no click; a "Filter Applied"
  //    click (filters, no objectIDs) is not a result click.
  const filtered = await search('shop', 60, {
    query: 'chair',
    clickAnalytics: true,
    userToken: 'bob',
    facetFilters: [['brand:Acme']],
    numericFilters: ['price<100'],
  });
  assert.deepEqual([filtered.nbHits, filtered.hits.map((hit) => hit.objectID)], [2, ['4', '3']]);
  q.filtered = filtered.queryID!;
  // 7  bob: "sofa" through a multi-query with a facets-only query (analytics false, as the store sends):
  //    0 hits, tracked; the facets-only query is not recorded.
  clock = T0 + 120_000;
  const multi = await svc.call(
    'POST',
    '/1/indexes/*/queries',
    {
      requests: [
        { indexName: 'shop', query: 'sofa', clickAnalytics: true, userToken: 'bob' },
        {
          indexName: 'shop',
          query: 'sofa',
          hitsPerPage: 0,
          facets: ['brand'],
          analytics: false,
          clickAnalytics: false,
          userToken: 'bob',
        },
      ],
    },
    { key: SEARCH_KEY },
  );
  assert.equal(multi.status, 200);
  assert.equal(multi.body.results[0].nbHits, 0);
  // 8  bob: "sofa" with filters "brand:Hon" a minute later: 0 hits, tracked, with a filter.
  assert.equal(
    (await search('shop', 180, { query: 'sofa', clickAnalytics: true, userToken: 'bob', filters: 'brand:Hon' })).nbHits,
    0,
  );
  // 9  anonymous (no token: the client IP 127.0.0.1) "lamp" through GET, tag mobile, not tracked: 2 hits [5, 6].
  clock = T0 + 240_000;
  const lampGet = await svc.call('GET', '/1/indexes/shop?query=lamp&analyticsTags=mobile', undefined, {
    key: SEARCH_KEY,
  });
  assert.deepEqual(
    [lampGet.body.nbHits, lampGet.body.hits.map((hit: { objectID: string }) => hit.objectID), lampGet.body.queryID],
    [2, ['5', '6'], undefined],
  );
  // 10 alice: "lamp", tags mobile + app, tracked; clicks position 1 (objectID 5); a view does not count.
  const lamp = await search('shop', 300, {
    query: 'lamp',
    clickAnalytics: true,
    userToken: 'alice',
    analyticsTags: ['mobile', 'app'],
  });
  q.lamp = lamp.queryID!;
  // 11 alice: "secret" with analytics false: not recorded.
  await search('shop', 360, { query: 'secret', analytics: false, clickAnalytics: true, userToken: 'alice' });
  // 12 erin (token in the X-Service-UserToken header): "desk" (tracked, [5, 7]), clicks position 2
  //    (objectID 7), then 13 "desk lamp" 2 s later (tracked, 1 hit, no click). "desk" is folded into
  //    "desk lamp" by the keystroke rule but counts anyway: she clicked on it.
  const desk = await search('shop', 400, { query: 'desk', clickAnalytics: true }, { 'X-Service-UserToken': 'erin' });
  assert.deepEqual(
    desk.hits.map((hit) => hit.objectID),
    ['5', '7'],
  );
  q.desk = desk.queryID!;
  assert.equal(
    (await search('shop', 402, { query: 'desk lamp', clickAnalytics: true }, { 'X-Service-UserToken': 'erin' })).nbHits,
    1,
  );
  // 14 carol, yesterday: "chair" (tracked, 4 hits); her click two hours later is outside the
  //    conversion window and does not count.
  const yesterday = await search('shop', -86_400, { query: 'chair', clickAnalytics: true, userToken: 'carol' });
  q.yesterday = yesterday.queryID!;
  // 15 dave, ten days ago: "desk" (2 hits), outside the default period.
  await search('shop', -10 * 86_400, { query: 'desk', userToken: 'dave' });

  clock = T0 + 500_000;
  await events([
    {
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken: 'alice',
      queryID: q.chair,
      objectIDs: ['2'],
      positions: [3],
      timestamp: T0 + 5_000,
    },
    {
      eventType: 'conversion',
      eventName: 'Purchase',
      index: 'shop',
      userToken: 'alice',
      queryID: q.chair,
      objectIDs: ['2'],
      timestamp: T0 + 30_000,
    },
    {
      eventType: 'click',
      eventName: 'Filter Applied',
      index: 'shop',
      userToken: 'bob',
      queryID: q.filtered,
      filters: ['brand:Acme'],
      timestamp: T0 + 61_000,
    },
    {
      eventType: 'view',
      eventName: 'Hits Viewed',
      index: 'shop',
      userToken: 'alice',
      queryID: q.lamp,
      objectIDs: ['5', '6'],
      timestamp: T0 + 301_000,
    },
    {
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken: 'alice',
      queryID: q.lamp,
      objectIDs: ['5'],
      positions: [1],
      timestamp: T0 + 302_000,
    },
    {
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken: 'erin',
      queryID: q.desk,
      objectIDs: ['7'],
      positions: [2],
      timestamp: T0 + 401_000,
    },
    {
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken: 'carol',
      queryID: q.yesterday,
      objectIDs: ['1'],
      positions: [2],
      timestamp: T0 - DAY + 2 * 3_600_000,
    },
  ]);
});
after(() => svc.stop());

// Counted searches in the default period (D-7 … D): 5 alice chair, 6 bob chair+filters, 7 bob sofa,
// 8 bob sofa+filter, 9 anonymous lamp, 10 alice lamp, 12 erin desk, 13 erin desk lamp (day D) and
// 14 carol chair (D-1). Tracked: all but 9. Clicks: 5 (position 3), 10 (1), 12 (2). Conversion: 5.

describe('searches', () => {
  test('/2/searches: top searches, keystrokes folded into the final query', async () => {
    assert.deepEqual(await report('/2/searches?index=shop'), {
      searches: [
        // nbHits: the latest search of the query (bob's filtered "chair": 2)
        { search: 'chair', count: 3, nbHits: 2 },
        { search: 'lamp', count: 2, nbHits: 2 },
        { search: 'sofa', count: 2, nbHits: 0 },
        { search: 'desk', count: 1, nbHits: 2 },
        { search: 'desk lamp', count: 1, nbHits: 1 },
      ],
    });
  });

  test('/2/searches with clickAnalytics: rates, positions and counts per query', async () => {
    const positions = (clicks: Record<number, number>) =>
      [
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
        [6, 6],
        [7, 7],
        [8, 8],
        [9, 9],
        [10, 10],
        [11, 20],
        [21, -1],
      ].map((position, i) => ({ position, clickCount: clicks[i + 1] ?? 0 }));
    const body = await report('/2/searches?index=shop&clickAnalytics=true');
    assert.deepEqual(body.searches, [
      // chair: tracked 5, 6, 14; 5 clicked (position 3) and converted
      {
        search: 'chair',
        count: 3,
        nbHits: 2,
        clickThroughRate: 1 / 3,
        averageClickPosition: 3,
        clickPositions: positions({ 3: 1 }),
        conversionRate: 1 / 3,
        trackedSearchCount: 3,
        clickCount: 1,
        conversionCount: 1,
      },
      // lamp: 9 is not tracked; 10 clicked at 1
      {
        search: 'lamp',
        count: 2,
        nbHits: 2,
        clickThroughRate: 1,
        averageClickPosition: 1,
        clickPositions: positions({ 1: 1 }),
        conversionRate: 0,
        trackedSearchCount: 1,
        clickCount: 1,
        conversionCount: 0,
      },
      // sofa: tracked twice, no event: rates 0, no average
      {
        search: 'sofa',
        count: 2,
        nbHits: 0,
        clickThroughRate: 0,
        averageClickPosition: null,
        clickPositions: positions({}),
        conversionRate: 0,
        trackedSearchCount: 2,
        clickCount: 0,
        conversionCount: 0,
      },
      {
        search: 'desk',
        count: 1,
        nbHits: 2,
        clickThroughRate: 1,
        averageClickPosition: 2,
        clickPositions: positions({ 2: 1 }),
        conversionRate: 0,
        trackedSearchCount: 1,
        clickCount: 1,
        conversionCount: 0,
      },
      {
        search: 'desk lamp',
        count: 1,
        nbHits: 1,
        clickThroughRate: 0,
        averageClickPosition: null,
        clickPositions: positions({}),
        conversionRate: 0,
        trackedSearchCount: 1,
        clickCount: 0,
        conversionCount: 0,
      },
    ]);
  });

  test('/2/searches: orderBy, direction, limit, offset', async () => {
    const order = async (query: string) =>
      ((await report(`/2/searches?index=shop${query}`)).searches as Array<{ search: string }>).map((s) => s.search);
    // CTR: lamp 1, desk 1 (tie: more searches first), chair 1/3, sofa 0, desk lamp 0
    assert.deepEqual(await order('&clickAnalytics=true&orderBy=clickThroughRate'), [
      'lamp',
      'desk',
      'chair',
      'sofa',
      'desk lamp',
    ]);
    assert.deepEqual(await order('&clickAnalytics=true&orderBy=clickThroughRate&direction=asc'), [
      'sofa',
      'desk lamp',
      'chair',
      'lamp',
      'desk',
    ]);
    // average click position ascending: 1, 2, 3, then the queries without clicks (null) last
    assert.deepEqual(await order('&clickAnalytics=true&orderBy=averageClickPosition&direction=asc'), [
      'lamp',
      'desk',
      'chair',
      'sofa',
      'desk lamp',
    ]);
    assert.deepEqual(await order('&clickAnalytics=true&orderBy=conversionRate'), [
      'chair',
      'lamp',
      'sofa',
      'desk',
      'desk lamp',
    ]);
    assert.deepEqual(await order('&direction=asc'), ['desk', 'desk lamp', 'lamp', 'sofa', 'chair']);
    assert.deepEqual(await order('&limit=2&offset=1'), ['lamp', 'sofa']);
    assert.deepEqual(await order('&offset=5'), []);
  });

  test('tags: a search matches a tag its analyticsTags contain; AND, OR, parentheses', async () => {
    const top = async (tags: string) =>
      (await report(`/2/searches?index=shop&tags=${encodeURIComponent(tags)}`)).searches;
    assert.deepEqual(await top('mobile'), [{ search: 'lamp', count: 2, nbHits: 2 }]);
    assert.deepEqual(await top('app'), [{ search: 'lamp', count: 1, nbHits: 2 }]);
    assert.deepEqual(await top('mobile AND app'), [{ search: 'lamp', count: 1, nbHits: 2 }]);
    assert.deepEqual(await top('desktop OR (app AND mobile)'), [{ search: 'lamp', count: 1, nbHits: 2 }]);
    assert.deepEqual(await top('desktop'), []);
    assert.deepEqual(await report(`/2/searches/count?index=shop&tags=mobile`), {
      count: 2,
      dates: dates({ count: 0 }, { [D]: { count: 2 } }),
    });
  });

  test('/2/searches/count, /2/users/count', async () => {
    assert.deepEqual(await report('/2/searches/count?index=shop'), {
      count: 9,
      dates: dates({ count: 0 }, { [D]: { count: 8 }, [D_1]: { count: 1 } }),
    });
    // alice, bob, 127.0.0.1 (anonymous), erin on D; carol on D-1: 5 distinct, not the sum of the days
    assert.deepEqual(await report('/2/users/count?index=shop'), {
      count: 5,
      dates: dates({ count: 0 }, { [D]: { count: 4 }, [D_1]: { count: 1 } }),
    });
  });

  test('/2/searches/noResults and /2/searches/noResultRate', async () => {
    assert.deepEqual(await report('/2/searches/noResults?index=shop'), {
      searches: [{ search: 'sofa', count: 2, withFilterCount: 1 }],
    });
    assert.deepEqual(await report('/2/searches/noResultRate?index=shop'), {
      rate: 2 / 9,
      count: 9,
      noResultCount: 2,
      dates: dates(
        { rate: null as number | null, count: 0, noResultCount: 0 },
        { [D]: { rate: 0.25, count: 8, noResultCount: 2 }, [D_1]: { rate: 0, count: 1, noResultCount: 0 } },
      ),
    });
  });

  test('/2/searches/noClicks and /2/searches/noClickRate', async () => {
    // tracked with results: chair ×3 (one clicked), lamp (clicked), desk (clicked), desk lamp (no click)
    assert.deepEqual(await report('/2/searches/noClicks?index=shop'), {
      searches: [{ search: 'desk lamp', count: 1, nbHits: 1 }],
    });
    // tracked searches with results: 5, 6, 10, 12, 13 (D), 14 (D-1); without a click: 6, 13, 14
    assert.deepEqual(await report('/2/searches/noClickRate?index=shop'), {
      rate: 0.5,
      count: 6,
      noClickCount: 3,
      dates: dates(
        { rate: null as number | null, count: 0, noClickCount: 0 },
        { [D]: { rate: 0.4, count: 5, noClickCount: 2 }, [D_1]: { rate: 1, count: 1, noClickCount: 1 } },
      ),
    });
  });

  test('/2/status: the latest recorded search (not the one with analytics false)', async () => {
    assert.deepEqual(await report('/2/status?index=shop'), { updatedAt: new Date(T0 + 402_000).toISOString() });
    assert.deepEqual(await report('/2/status?index=nothing-here'), { updatedAt: null });
    // index only: other parameters are not the endpoint's and are ignored
    assert.equal((await analytics('/2/status?index=shop&startDate=garbage')).status, 200);
  });
});

describe('hits', () => {
  test('/2/hits: objectIDs by the number of counted searches that showed them', async () => {
    // chair 5 and 14 [4, 1, 2, 3], chair 6 [4, 3], lamp 9 and 10 [5, 6], desk 12 [5, 7], desk lamp 13 [5]
    assert.deepEqual(await report('/2/hits?index=shop'), {
      hits: [
        { hit: '5', count: 4 },
        { hit: '3', count: 3 },
        { hit: '4', count: 3 },
        { hit: '1', count: 2 },
        { hit: '2', count: 2 },
        { hit: '6', count: 2 },
        { hit: '7', count: 1 },
      ],
    });
  });

  test('/2/hits with clickAnalytics: per objectID, the tracked searches that showed it', async () => {
    const hit = (id: string, count: number, tracked: number, clicks: number, conversions: number) => ({
      hit: id,
      count,
      clickThroughRate: clicks / tracked,
      conversionRate: conversions / tracked,
      trackedSearchCount: tracked,
      trackedHitCount: tracked,
      clickCount: clicks,
      conversionCount: conversions,
    });
    assert.deepEqual((await report('/2/hits?index=shop&clickAnalytics=true&limit=3')).hits, [
      hit('5', 4, 3, 1, 0), // shown by 10, 12, 13 tracked (9 is not); clicked in 10
      hit('3', 3, 3, 0, 0),
      hit('4', 3, 3, 0, 0),
    ]);
    assert.deepEqual((await report('/2/hits?index=shop&clickAnalytics=true&offset=4&limit=1')).hits, [
      hit('2', 2, 2, 1, 1),
    ]);
  });

  test('/2/hits?search=: one query; the default limit 0 means the whole list', async () => {
    assert.deepEqual((await report('/2/hits?index=shop&search=chair')).hits, [
      { hit: '3', count: 3 },
      { hit: '4', count: 3 },
      { hit: '1', count: 2 },
      { hit: '2', count: 2 },
    ]);
    assert.deepEqual((await report('/2/hits?index=shop&search=chair&limit=1')).hits, [{ hit: '3', count: 3 }]);
    assert.deepEqual((await report('/2/hits?index=shop&search=nothing')).hits, []);
  });
});

describe('filters', () => {
  test('/2/filters and /2/filters?search=', async () => {
    assert.deepEqual(await report('/2/filters?index=shop'), {
      attributes: [
        { attribute: 'brand', count: 2 },
        { attribute: 'price', count: 1 },
      ],
    });
    assert.deepEqual(await report('/2/filters?index=shop&search=sofa'), {
      attributes: [{ attribute: 'brand', count: 1 }],
    });
    assert.deepEqual(await report('/2/filters?index=shop&search=lamp'), { attributes: [] });
  });

  test('/2/filters/{attribute} and /2/filters/{attributes}?search=', async () => {
    assert.deepEqual(await report('/2/filters/brand?index=shop'), {
      values: [
        { attribute: 'brand', operator: ':', value: 'Acme', count: 1 },
        { attribute: 'brand', operator: ':', value: 'Hon', count: 1 },
      ],
    });
    assert.deepEqual(await report('/2/filters/price?index=shop'), {
      values: [{ attribute: 'price', operator: '<', value: '100', count: 1 }],
    });
    assert.deepEqual(await report('/2/filters/brand,price?index=shop&search=chair'), {
      values: [
        { attribute: 'brand', operator: ':', value: 'Acme', count: 1 },
        { attribute: 'price', operator: '<', value: '100', count: 1 },
      ],
    });
    assert.deepEqual(await report('/2/filters/brand?index=shop&search=sofa'), {
      values: [{ attribute: 'brand', operator: ':', value: 'Hon', count: 1 }],
    });
  });

  test('/2/filters/noResults?search=', async () => {
    // sofa: 7 without filters, 8 with brand:Hon
    assert.deepEqual(await report('/2/filters/noResults?index=shop&search=sofa'), {
      values: [{ count: 1, values: [{ attribute: 'brand', operator: ':', value: 'Hon' }] }],
    });
    // chair never answered without results: null
    assert.deepEqual(await report('/2/filters/noResults?index=shop&search=chair'), { values: null });
  });

  test('/2/countries: no geolocation in the local service, an empty list', async () => {
    assert.deepEqual(await report('/2/countries?index=shop'), { countries: [] });
  });
});

describe('clicks and conversions', () => {
  test('/2/clicks/clickThroughRate', async () => {
    // tracked: 5, 6, 7, 8, 10, 12, 13 (D), 14 (D-1); clicked: 5, 10, 12. Days without searches: null.
    assert.deepEqual(await report('/2/clicks/clickThroughRate?index=shop'), {
      rate: 3 / 8,
      clickCount: 3,
      trackedSearchCount: 8,
      dates: dates(
        { rate: null as number | null, clickCount: 0, trackedSearchCount: 0 },
        {
          [D]: { rate: 3 / 7, clickCount: 3, trackedSearchCount: 7 },
          [D_1]: { rate: 0, clickCount: 0, trackedSearchCount: 1 },
        },
      ),
    });
  });

  test('/2/conversions/conversionRate', async () => {
    assert.deepEqual(await report('/2/conversions/conversionRate?index=shop'), {
      rate: 1 / 8,
      trackedSearchCount: 8,
      conversionCount: 1,
      dates: dates(
        { rate: null as number | null, trackedSearchCount: 0, conversionCount: 0 },
        {
          [D]: { rate: 1 / 7, trackedSearchCount: 7, conversionCount: 1 },
          [D_1]: { rate: 0, trackedSearchCount: 1, conversionCount: 0 },
        },
      ),
    });
  });

  test('/2/clicks/averageClickPosition and /2/clicks/positions', async () => {
    // positions 3, 1, 2
    assert.deepEqual(await report('/2/clicks/averageClickPosition?index=shop'), {
      average: 2,
      clickCount: 3,
      dates: dates({ average: null as number | null, clickCount: 0 }, { [D]: { average: 2, clickCount: 3 } }),
    });
    const { positions } = await report('/2/clicks/positions?index=shop');
    assert.equal(positions.length, 12);
    assert.deepEqual(positions.slice(0, 4), [
      { position: [1, 1], clickCount: 1 },
      { position: [2, 2], clickCount: 1 },
      { position: [3, 3], clickCount: 1 },
      { position: [4, 4], clickCount: 0 },
    ]);
    assert.deepEqual(positions.slice(10), [
      { position: [11, 20], clickCount: 0 },
      { position: [21, -1], clickCount: 0 },
    ]);
  });

  test('an index without tracked searches: null rates, not 0', async () => {
    assert.deepEqual(await report(`/2/clicks/clickThroughRate?index=typing&startDate=${D_10}&endDate=${D_10}`), {
      rate: null,
      clickCount: 0,
      trackedSearchCount: 0,
      dates: [{ date: D_10, rate: null, clickCount: 0, trackedSearchCount: 0 }],
    });
    assert.deepEqual(
      (await report(`/2/clicks/averageClickPosition?index=typing&startDate=${D_10}&endDate=${D_10}`)).average,
      null,
    );
  });
});

describe('periods', () => {
  test('startDate / endDate are inclusive UTC days; the default period leaves older data out', async () => {
    assert.deepEqual(await report(`/2/searches?index=shop&startDate=${D_10}&endDate=${D_10}`), {
      searches: [{ search: 'desk', count: 1, nbHits: 2 }],
    });
    assert.deepEqual(await report(`/2/searches?index=shop&startDate=${D_1}&endDate=${D_1}`), {
      searches: [{ search: 'chair', count: 1, nbHits: 4 }],
    });
    assert.equal((await report(`/2/searches/count?index=shop&startDate=${D_10}`)).count, 10);
    const users = await report(`/2/users/count?index=shop&startDate=${D_10}&endDate=${D}`);
    assert.equal(users.count, 6); // dave too
    assert.equal(users.dates.length, 11);
    assert.deepEqual((await report(`/2/searches/count?index=shop&startDate=${D}`)).dates, [{ date: D, count: 8 }]);
  });
});

describe('keystroke aggregation', () => {
  test('a typing series of one user counts as its last query', async () => {
    await search('typing', 1000, { query: 'd', userToken: 'kim' });
    await search('typing', 1000.4, { query: 'de', userToken: 'kim' });
    await search('typing', 1000.8, { query: 'Des', userToken: 'kim' }); // case does not matter
    await search('typing', 1001.2, { query: 'desk', userToken: 'kim' }); // → desk
    await search('typing', 1003, { query: 'lamp', userToken: 'kim' }); // not a prefix: a new series
    await search('typing', 1010, { query: 'lampshade', userToken: 'kim' }); // 7 s later: a new series → lamp and lampshade
    await search('typing', 1100, { query: 'chairs', userToken: 'kim' });
    await search('typing', 1101, { query: 'chair', userToken: 'kim' }); // backspace: chair only
    await search('typing', 1200, { query: 'ch', userToken: 'lee' });
    await search('typing', 1200.5, { query: 'chair', userToken: 'max' }); // another user: both count
    await search('typing', 1300, { query: 'sofa', userToken: 'kim' });
    await search('typing', 1301, { query: 'sofa', userToken: 'kim', page: 1 }); // next page: one search
    assert.deepEqual((await report('/2/searches?index=typing')).searches, [
      { search: 'chair', count: 2, nbHits: 4 },
      { search: 'ch', count: 1, nbHits: 4 },
      { search: 'desk', count: 1, nbHits: 2 },
      { search: 'lamp', count: 1, nbHits: 2 },
      { search: 'lampshade', count: 1, nbHits: 0 },
      { search: 'sofa', count: 1, nbHits: 0 },
    ]);
  });
});

describe('rights and parameters', () => {
  test('the analytics right: admin key yes, search key 403, a key with analytics yes, restricted indices', async () => {
    assert.equal((await analytics('/2/searches?index=shop')).status, 200);
    const refused = await analytics('/2/searches?index=shop', { key: SEARCH_KEY });
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { status: 403, message: 'Method not allowed with this API key (the right analytics is needed)' }],
    );
    const wrong = await analytics('/2/searches?index=shop', { key: 'nope' });
    assert.deepEqual([wrong.status, wrong.body], [403, { status: 403, message: 'Invalid Application-Id or API-Key' }]);

    const { key } = await svc.ok('POST', '/1/keys', { acl: ['analytics'] });
    assert.equal((await analytics('/2/searches/count?index=shop', { key })).body.count, 9);
    const { key: other } = await svc.ok('POST', '/1/keys', { acl: ['analytics'], indexes: ['typing'] });
    assert.equal((await analytics('/2/searches/count?index=typing', { key: other })).status, 200);
    assert.equal((await analytics('/2/searches/count?index=shop', { key: other })).status, 403);
    // Credentials as URL parameters (document 2: Analytics accepts them)
    const byUrl = await analytics(
      `/2/searches/count?index=shop&X-Service-Application-Id=${APP_ID}&X-Service-API-Key=${ADMIN_KEY}`,
      { key: null, appId: null },
    );
    assert.deepEqual([byUrl.status, byUrl.body.count], [200, 9]);
  });

  test('400 for missing or malformed parameters, with status and message', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/2/searches', /index: required/],
      ['/2/status', /index: required/],
      ['/2/searches?index=shop&startDate=2026-13-01', /startDate: must be a date/],
      ['/2/searches?index=shop&startDate=2026-02-30', /startDate: must be a date/],
      ['/2/searches?index=shop&endDate=2026-2-1', /endDate: must be a date/],
      ['/2/searches?index=shop&startDate=yesterday', /startDate/],
      [`/2/searches?index=shop&startDate=${D}&endDate=${D_1}`, /endDate .* is before startDate/],
      ['/2/searches?index=shop&limit=-1', /limit: must be an integer/],
      ['/2/searches?index=shop&limit=abc', /limit: must be an integer/],
      ['/2/searches?index=shop&limit=1001', /limit: must be an integer from 0 to 1000/],
      ['/2/searches?index=shop&offset=1.5', /offset: must be a non-negative integer/],
      ['/2/searches?index=shop&orderBy=popularity', /orderBy: must be one of/],
      ['/2/searches?index=shop&orderBy=clickThroughRate', /needs clickAnalytics=true/],
      ['/2/searches?index=shop&direction=up', /direction: must be asc or desc/],
      ['/2/searches?index=shop&clickAnalytics=yes', /clickAnalytics: must be true or false/],
      ['/2/hits?index=shop&clickAnalytics=1', /clickAnalytics/],
      ['/2/searches?index=shop&tags=mobile%20AND', /tags: a tag is missing/],
      ['/2/searches?index=shop&tags=(mobile', /tags: "\)" is missing/],
      ['/2/searches?index=shop&tags=mobile%20app', /tags: expected AND or OR/],
      ['/2/filters/noResults?index=shop', /search: required/],
      ['/2/countries?index=shop&limit=x', /limit/],
    ];
    for (const [path, message] of cases) {
      const answer = await analytics(path);
      assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.status, 400);
      assert.match(answer.body.message, message, path);
    }
  });
});

describe('the official client', () => {
  test('algoliasearch v5 analyticsClient reads the same figures', async () => {
    const requester = {
      async send(request: { method: string; url: string; headers: Record<string, string> }) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
        clock += 1000;
        const response = await fetch(request.url, { method: request.method, headers });
        return { content: await response.text(), isTimedOut: false, status: response.status };
      },
    };
    const client = algoliasearch(APP_ID, ADMIN_KEY).initAnalytics({
      region: 'us',
      options: { hosts: [{ url: new URL(svc.url).host, accept: 'readWrite', protocol: 'http' }], requester },
    });
    const top = await client.getTopSearches({
      index: 'shop',
      clickAnalytics: true,
      orderBy: 'clickThroughRate',
      direction: 'desc',
      limit: 2,
    });
    assert.deepEqual(
      top.searches.map((s) => [s.search, s.count]),
      [
        ['lamp', 2],
        ['desk', 1],
      ],
    );
    assert.deepEqual(
      await client.getClickThroughRate({ index: 'shop' }),
      await report('/2/clicks/clickThroughRate?index=shop'),
    );
    assert.deepEqual(
      await client.getTopFilterForAttribute({ index: 'shop', attribute: 'brand,price', search: 'chair' }),
      await report('/2/filters/brand,price?index=shop&search=chair'),
    );
    assert.equal((await client.getUsersCount({ index: 'shop' })).count, 5);
    assert.deepEqual(await client.getStatus({ index: 'shop' }), { updatedAt: new Date(T0 + 402_000).toISOString() });
  });
});

describe('rate limit', () => {
  test('100 calls per minute per application, with the X-RateLimit headers', async () => {
    let frozen = Date.UTC(2026, 0, 15, 10, 0, 0);
    const limited = await startService({ now: () => frozen });
    try {
      for (let i = 1; i <= 100; i += 1) {
        const answer = await limited.call('GET', '/2/status?index=shop');
        assert.equal(answer.status, 200);
        if (i === 1 || i === 100) {
          assert.equal(answer.headers.get('x-ratelimit-limit'), '100');
          assert.equal(answer.headers.get('x-ratelimit-remaining'), String(100 - i));
          assert.equal(answer.headers.get('x-ratelimit-reset'), String(Date.UTC(2026, 0, 15, 10, 1, 0) / 1000));
        }
      }
      const over = await limited.call('GET', '/2/status?index=shop');
      assert.equal(over.status, 429);
      assert.equal(over.body.status, 429);
      assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
      frozen += 60_000;
      assert.equal((await limited.call('GET', '/2/status?index=shop')).status, 200);
    } finally {
      await limited.stop();
    }
  });
});

describe('durability', () => {
  test('searches (even the last ones, still queued) and figures survive a restart', async () => {
    const before = {
      top: await report('/2/searches?index=shop&clickAnalytics=true'),
      ctr: await report('/2/clicks/clickThroughRate?index=shop'),
    };
    const dataDir = svc.dataDir;
    // A search right before closing: queued, not yet written (the write comes 250 ms later or at close).
    await search('shop', 600, { query: 'armchair', userToken: 'zoe' });
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir, now });
    const top = await report('/2/searches?index=shop&clickAnalytics=true');
    assert.deepEqual(
      top.searches.filter((s: { search: string }) => s.search !== 'armchair'),
      before.top.searches,
    );
    assert.deepEqual(
      top.searches.find((s: { search: string }) => s.search === 'armchair'),
      {
        search: 'armchair',
        count: 1,
        nbHits: 0,
        clickThroughRate: null,
        averageClickPosition: null,
        clickPositions: before.top.searches[0].clickPositions.map((p: { position: number[] }) => ({
          ...p,
          clickCount: 0,
        })),
        conversionRate: null,
        trackedSearchCount: 0,
        clickCount: 0,
        conversionCount: 0,
      },
    );
    assert.deepEqual(await report('/2/clicks/clickThroughRate?index=shop'), before.ctr);
    assert.equal((await report('/2/users/count?index=shop')).count, 6);
  });
});
