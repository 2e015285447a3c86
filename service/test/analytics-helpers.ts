/**
 * Shared setup of the Analytics suites (`http-analytics*.node.test.ts`): the hand-worked scenario of real
 * searches and real Insights events whose figures the suites check, the service clock it runs on, and the
 * Analytics callers.
 *
 * The service's clock is injected (`createService({ now })`) so searches are recorded at chosen times.
 */
import assert from 'node:assert/strict';
import {
  type Answer,
  type CallOptions,
  index,
  type Running,
  SEARCH_KEY,
  SMALL_SHOP,
  scenarioTime,
} from './service-helpers.js';

export const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const T0 = scenarioTime();
export const D = dayOf(T0);
export const D_1 = dayOf(T0 - DAY);
export const D_10 = dayOf(T0 - 10 * DAY);
/** The default period: D-7 … D. */
const PERIOD = Array.from({ length: 8 }, (_, i) => dayOf(T0 - (7 - i) * DAY));

const RECORDS = SMALL_SHOP.records;
const SETTINGS = SMALL_SHOP.settings;

/** The service clock (`createService({ now })`), moved by the scenario, the searches and the Analytics calls. */
export const serviceClock = { time: T0 };
export const now = () => serviceClock.time;

/**
 * `dates` of the default period: zero everywhere but the given days.
 *
 * @example
 * dates({ count: 0 }, { [D]: { count: 2 } });
 */
export function dates<T extends Record<string, unknown>>(empty: T, days: Record<string, Partial<T>>) {
  return PERIOD.map((date) => ({ date, ...empty, ...(days[date] ?? {}) }));
}

/**
 * The Analytics calls of the suites on the service `running()` gives (read at call time: the suites start
 * it in `before`, and restart it), and the scenario they check.
 *
 * @example
 * const { analytics, report, search, recordScenario } = analyticsCalls(() => svc);
 * before(async () => {
 *   svc = await startService({ now });
 *   await recordScenario();
 * });
 */
export function analyticsCalls(running: () => Running) {
  /** An Analytics call; the clock moves one second per call (as a real client's calls would). */
  async function analytics<T = any>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
    serviceClock.time += 1000;
    return running().call<T>('GET', path, undefined, options);
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
    serviceClock.time = T0 + at * 1000;
    const answer = await running().call('POST', `/1/indexes/${indexName}/query`, params, { key: SEARCH_KEY, headers });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { nbHits: number; hits: Array<{ objectID: string }>; queryID?: string };
  }

  async function events(list: Array<Record<string, unknown>>) {
    const answer = await running().call('POST', '/1/events', { events: list }, { key: SEARCH_KEY });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  /**
   * Indexes `shop` and `typing` and records the hand-worked scenario on `shop`: the searches, then the
   * Insights events; the clock ends at T0 + 500 s.
   */
  async function recordScenario() {
    const q: Record<string, string> = {};
    await index(running(), 'shop', RECORDS, SETTINGS);
    await index(running(), 'typing', RECORDS, SETTINGS);

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
    serviceClock.time = T0 + 120_000;
    const multi = await running().call(
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
      (await search('shop', 180, { query: 'sofa', clickAnalytics: true, userToken: 'bob', filters: 'brand:Hon' }))
        .nbHits,
      0,
    );
    // 9  anonymous (no token: the client IP 127.0.0.1) "lamp" through GET, tag mobile, not tracked: 2 hits [5, 6].
    serviceClock.time = T0 + 240_000;
    const lampGet = await running().call('GET', '/1/indexes/shop?query=lamp&analyticsTags=mobile', undefined, {
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
      (await search('shop', 402, { query: 'desk lamp', clickAnalytics: true }, { 'X-Service-UserToken': 'erin' }))
        .nbHits,
      1,
    );
    // 14 carol, yesterday: "chair" (tracked, 4 hits); her click two hours later is outside the
    //    conversion window and does not count.
    const yesterday = await search('shop', -86_400, { query: 'chair', clickAnalytics: true, userToken: 'carol' });
    q.yesterday = yesterday.queryID!;
    // 15 dave, ten days ago: "desk" (2 hits), outside the default period.
    await search('shop', -10 * 86_400, { query: 'desk', userToken: 'dave' });

    serviceClock.time = T0 + 500_000;
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
  }

  return { analytics, report, search, events, recordScenario };
}
