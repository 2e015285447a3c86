/**
 * The Analytics API (document 2) over HTTP against the real service, on the scenario of
 * `analytics-helpers.ts` (real searches, real Insights events): click-through, conversion and click
 * position figures worked out by hand; periods; keystroke aggregation; rights; 400s; the official v5
 * analytics client; the rate limit; durability across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { analyticsCalls, D, D_1, D_10, dates, now, serviceClock, T0 } from './analytics-helpers.js';
import { ADMIN_KEY, APP_ID, type Running, SEARCH_KEY, startService } from './service-helpers.js';

let svc: Running;
const { analytics, report, search, recordScenario } = analyticsCalls(() => svc);

before(async () => {
  svc = await startService({ now });
  await recordScenario();
});
after(() => svc.stop());

// Counted searches in the default period (D-7 … D): 5 alice chair, 6 bob chair+filters, 7 bob sofa,
// 8 bob sofa+filter, 9 anonymous lamp, 10 alice lamp, 12 erin desk, 13 erin desk lamp (day D) and
// 14 carol chair (D-1). Tracked: all but 9. Clicks: 5 (position 3), 10 (1), 12 (2). Conversion: 5.

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
        serviceClock.time += 1000;
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
