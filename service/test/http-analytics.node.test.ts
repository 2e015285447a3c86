/**
 * The Analytics API (document 2) over HTTP against the real service: real searches (POST, GET and
 * multi-query, with filters, tags, user tokens by parameter and header, an anonymous user) and real Insights
 * events (a click at position 3 and a conversion, a late click, a view, a "Filter Applied" click) — the
 * scenario of `analytics-helpers.ts` — then the figures of the searches, hits and filters endpoints against
 * values worked out by hand.
 *
 * Its sibling suite `http-analytics-rates` covers clicks and conversions, periods, keystroke aggregation,
 * rights, 400s, the official v5 analytics client, the rate limit and durability across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyticsCalls, D, D_1, dates, now, T0 } from './analytics-helpers.js';
import { type Running, startService } from './service-helpers.js';

let svc: Running;
const { analytics, report, recordScenario } = analyticsCalls(() => svc);

before(async () => {
  svc = await startService({ now });
  await recordScenario();
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
