/**
 * Each A/B test variant's metrics over HTTP, worked out by hand from real searches and real Insights events
 * (document 2, "A/B test"), the same definitions as the Analytics reports, and the significance on
 * hand-computed cases (the function itself and over HTTP).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { erf, normalCdf, twoProportionSignificance } from '../src/abtests/significance.js';
import { abTestCalls, indexShops, usersIn, variants } from './abtests-helpers.js';
import { type Running, scenarioTime, startService } from './service-helpers.js';

const T0 = scenarioTime();
let clock = T0;
const now = () => clock;

let svc: Running;
const { create, search, events, getTest } = abTestCalls(() => svc);

before(async () => {
  svc = await startService({ now });
  await indexShops(svc);
});
after(() => svc.stop());

describe('metrics', () => {
  let id = 0;
  const S = T0 + 600_000;
  const at = (seconds: number) => {
    clock = S + seconds * 1000;
  };
  let a1 = '';
  let a2 = '';
  let b1 = '';
  let b2 = '';
  let b3 = '';

  before(async () => {
    clock = S;
    id = (
      await create({
        name: 'metrics',
        variants: variants('m_a', 'm_b', { customSearchParameters: { hitsPerPage: 3 } }),
      })
    ).abTestID;
    [a1, a2] = usersIn(id, 1, 50, 2, 'm');
    [b1, b2, b3] = usersIn(id, 2, 50, 3, 'm');
    const q: Record<
      string,
      {
        queryID?: string;
        hits: Array<{ objectID: string }>;
        hitsPerPage: number;
        abTestVariantID?: number;
        nbHits: number;
      }
    > = {};
    const run = async (
      name: string,
      seconds: number,
      user: string,
      params: Record<string, unknown>,
      indexName = 'm_a',
    ) => {
      at(seconds);
      q[name] = await search(indexName, { userToken: user, ...params });
    };
    // Variant 1 (m_a as it is):
    //   S+0   a1 "chair", tracked (4 hits) → clicks at positions 2 and 3 (two events), a conversion
    //   S+1   a2 "chair", tracked → nothing
    //   S+61  a2 "sofa", tracked, no result
    //   S+62  a1 "lamp", not tracked
    //   S+63  a1 "desk" with analytics: false → assigned (variant 1) but not counted
    await run('a1chair', 0, a1, { query: 'chair', clickAnalytics: true });
    await run('a2chair', 1, a2, { query: 'chair', clickAnalytics: true });
    await run('a2sofa', 61, a2, { query: 'sofa', clickAnalytics: true });
    await run('a1lamp', 62, a1, { query: 'lamp' });
    await run('a1desk', 63, a1, { query: 'desk', clickAnalytics: true, analytics: false });
    assert.deepEqual(
      ['a1chair', 'a2chair', 'a2sofa', 'a1lamp', 'a1desk'].map((name) => [q[name]!.abTestVariantID, q[name]!.nbHits]),
      [
        [1, 4],
        [1, 4],
        [1, 0],
        [1, 2],
        [1, 2],
      ],
    );
    // Variant 2 (m_b with hitsPerPage 3):
    //   S+0   b1 "chair", tracked → one click event on positions 1 and 3
    //   S+1   b2 "chair", tracked → a click at position 3 and a conversion
    //   S+2   b3 "chair", tracked → nothing
    //   S+70  b3 types "la", "lam", "lamp" 0.3 s apart, tracked → one search ("lamp"); a view does not count
    //   S+100 b1 "chair" straight on m_b, tracked, clicked: not part of the test (the second index is never split)
    await run('b1chair', 0, b1, { query: 'chair', clickAnalytics: true });
    await run('b2chair', 1, b2, { query: 'chair', clickAnalytics: true });
    await run('b3chair', 2, b3, { query: 'chair', clickAnalytics: true });
    for (const [i, query] of ['la', 'lam', 'lamp'].entries())
      await run(`b3${query}`, 70 + i * 0.3, b3, { query, clickAnalytics: true });
    await run('b1direct', 100, b1, { query: 'chair', clickAnalytics: true }, 'm_b');
    assert.deepEqual(
      ['b1chair', 'b2chair', 'b3chair', 'b3lamp', 'b1direct'].map((name) => [
        q[name]!.abTestVariantID,
        q[name]!.hitsPerPage,
      ]),
      [
        [2, 3],
        [2, 3],
        [2, 3],
        [2, 3],
        [undefined, 20],
      ],
    );

    at(200);
    const hit = (name: string, position: number) => q[name]!.hits[position - 1]!.objectID;
    await events([
      {
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: 'm_a',
        userToken: a1,
        queryID: q.a1chair!.queryID,
        objectIDs: [hit('a1chair', 2)],
        positions: [2],
        timestamp: S + 5_000,
      },
      {
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: 'm_a',
        userToken: a1,
        queryID: q.a1chair!.queryID,
        objectIDs: [hit('a1chair', 3)],
        positions: [3],
        timestamp: S + 9_000,
      },
      {
        eventType: 'conversion',
        eventName: 'Purchase',
        index: 'm_a',
        userToken: a1,
        queryID: q.a1chair!.queryID,
        objectIDs: [hit('a1chair', 2)],
        timestamp: S + 30_000,
      },
      {
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: 'm_a',
        userToken: b1,
        queryID: q.b1chair!.queryID,
        objectIDs: [hit('b1chair', 1), hit('b1chair', 3)],
        positions: [1, 3],
        timestamp: S + 6_000,
      },
      {
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: 'm_a',
        userToken: b2,
        queryID: q.b2chair!.queryID,
        objectIDs: [hit('b2chair', 3)],
        positions: [3],
        timestamp: S + 7_000,
      },
      {
        eventType: 'conversion',
        eventName: 'Purchase',
        index: 'm_a',
        userToken: b2,
        queryID: q.b2chair!.queryID,
        objectIDs: [hit('b2chair', 3)],
        timestamp: S + 40_000,
      },
      {
        eventType: 'view',
        eventName: 'Hits Viewed',
        index: 'm_a',
        userToken: b3,
        queryID: q.b3lamp!.queryID,
        objectIDs: [hit('b3lamp', 1)],
        timestamp: S + 71_000,
      },
      {
        eventType: 'click',
        eventName: 'Hit Clicked',
        index: 'm_b',
        userToken: b1,
        queryID: q.b1direct!.queryID,
        objectIDs: [hit('b1direct', 1)],
        positions: [1],
        timestamp: S + 101_000,
      },
    ]);
  });

  test("each variant's figures, worked out by hand from the searches and events above", async () => {
    at(300);
    const body = await getTest(id);
    const [v1, v2] = body.variants;
    // Variant 1: counted a1 chair, a2 chair, a2 sofa, a1 lamp (4; the analytics-false one is not);
    // tracked 3; no result 1 (sofa); users a1, a2; clicks 2 (positions 2, 3) on one search;
    // 1 conversion; CTR 1/3, conversion rate 1/3; average position (2 + 3) / 2 = 2.5 → 3 (an integer).
    assert.deepEqual(v1, {
      index: 'm_a',
      trafficPercentage: 50,
      description: 'current ranking',
      searchCount: 4,
      trackedSearchCount: 3,
      noResultCount: 1,
      userCount: 2,
      clickCount: 2,
      conversionCount: 1,
      clickThroughRate: 1 / 3,
      conversionRate: 1 / 3,
      averageClickPosition: 3,
    });
    // Variant 2: counted b1 chair, b2 chair, b3 chair, b3 "lamp" (la/lam folded into it) = 4, all
    // tracked; no result 0; users 3; clicks 3 (positions 1, 3 | 3) on two searches; 1 conversion;
    // CTR 2/4, conversion rate 1/4; average position 7/3 = 2.33 → 2. b1's direct search on m_b is not in it.
    assert.deepEqual(v2, {
      index: 'm_b',
      trafficPercentage: 50,
      description: 'new ranking',
      customSearchParameters: { hitsPerPage: 3 },
      searchCount: 4,
      trackedSearchCount: 4,
      noResultCount: 0,
      userCount: 3,
      clickCount: 3,
      conversionCount: 1,
      clickThroughRate: 0.5,
      conversionRate: 0.25,
      averageClickPosition: 2,
    });
    // Clicks: x1 = 1 of n1 = 3, x2 = 2 of n2 = 4; pooled p = 3/7; SE = √(3/7 × 4/7 × (1/3 + 1/4)) = √(1/7)
    // = 0.3779645; z = (1/3 − 1/2) / 0.3779645 = −0.4409586; significance = 2Φ(0.4409586) − 1 = 0.3407570.
    assert.ok(Math.abs(body.clickSignificance - 0.340757) < 1e-6, String(body.clickSignificance));
    // Conversions: 1 of 3 against 1 of 4; p = 2/7; SE = √(2/7 × 5/7 × 7/12) = 0.3450328;
    // z = (1/3 − 1/4) / 0.3450328 = 0.2415229; significance = 0.1908502.
    assert.ok(Math.abs(body.conversionSignificance - 0.1908502) < 1e-6, String(body.conversionSignificance));
  });

  test('the same definitions as the Analytics reports: variant 1 is every search of m_a', async () => {
    const get = async (path: string) => svc.ok('GET', `${path}?index=m_a`);
    assert.equal((await get('/2/searches/count')).count, 4);
    assert.equal((await get('/2/users/count')).count, 2);
    const ctr = await get('/2/clicks/clickThroughRate');
    assert.deepEqual([ctr.rate, ctr.clickCount, ctr.trackedSearchCount], [1 / 3, 2, 3]);
    assert.equal((await get('/2/clicks/averageClickPosition')).average, 2.5);
    assert.equal((await get('/2/conversions/conversionRate')).conversionCount, 1);
    // the searches stay in Analytics on the index they ran on: m_b has variant 2's and b1's direct one
    assert.equal((await svc.ok('GET', '/2/searches/count?index=m_b')).count, 5);
  });

  test('delete: metadata and metrics removed, the searches stay in Analytics, ids are never reused', async () => {
    const { analytics } = svc.service.services.storage;
    assert.equal(await analytics.count({ abTestID: id, indexName: 'm_a' }), 4, 'variant 1: every search of m_a');
    const deleted = await svc.call('DELETE', `/2/abtests/${id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual([deleted.body.abTestID, deleted.body.index], [id, 'm_a']);
    assert.deepEqual(await svc.ok('GET', `/1/indexes/m_a/task/${deleted.body.taskID}`), { status: 'published' });
    assert.equal((await svc.call('GET', `/2/abtests/${id}`)).status, 404);
    assert.equal((await svc.call('DELETE', `/2/abtests/${id}`)).status, 404);
    assert.equal((await svc.call('POST', `/2/abtests/${id}/stop`)).status, 404);
    assert.equal(await analytics.count({ abTestID: id }), 0);
    assert.equal((await svc.ok('GET', '/2/searches/count?index=m_a')).count, 4);
    // the indices are free; the new test starts from nothing
    const next = await create({ name: 'metrics again', variants: variants('m_a', 'm_b') });
    assert.ok(next.abTestID > id);
    assert.deepEqual(
      (await getTest(next.abTestID)).variants.map((v: { searchCount: number | null }) => v.searchCount),
      [null, null],
    );
    await svc.call('DELETE', `/2/abtests/${next.abTestID}`);
    clock = T0;
  });
});

describe('significance', () => {
  test('erf and Φ against table values; the edge cases', () => {
    for (const [x, value] of [
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [2, 0.9953222650189527],
      [3.5, 0.9999992569016276],
    ] as const) {
      assert.ok(Math.abs(erf(x) - value) < 1e-13, `erf(${x})`);
      assert.ok(Math.abs(erf(-x) + value) < 1e-13, `erf(-${x})`);
    }
    assert.ok(Math.abs(normalCdf(1.959963984540054) - 0.975) < 1e-12);
    assert.ok(Math.abs(normalCdf(-1.6448536269514722) - 0.05) < 1e-12);
    assert.equal(twoProportionSignificance(1, 0, 1, 5), null);
    assert.equal(twoProportionSignificance(0, 5, 0, 7), 0, 'no click anywhere: no difference');
    assert.equal(twoProportionSignificance(5, 5, 7, 7), 0);
    assert.equal(twoProportionSignificance(3, 10, 3, 10), 0);
  });

  test('over HTTP: 2 of 10 against 8 of 10 clicked → 0.9927096 (significant); conversions 1 of 10 against 4 of 10 → 0.8786647', async () => {
    clock = T0 + 900_000;
    const id = (await create({ name: 'significance', variants: variants('sig_a', 'sig_b') })).abTestID;
    const users = [...usersIn(id, 1, 50, 10, 'sig'), ...usersIn(id, 2, 50, 10, 'sig')];
    const list: Array<Record<string, unknown>> = [];
    for (const [i, user] of users.entries()) {
      clock = T0 + 900_000 + i * 1000;
      const answer = await search('sig_a', { query: 'chair', clickAnalytics: true, userToken: user });
      const variant = i < 10 ? 1 : 2;
      assert.equal(answer.abTestVariantID, variant);
      const rank = i % 10; // 0–9 within its variant
      const event = {
        index: 'sig_a',
        userToken: user,
        queryID: answer.queryID,
        objectIDs: [answer.hits[0]!.objectID],
        timestamp: clock + 500,
      };
      // clicked: variant 1 ranks 0–1 (2 of 10), variant 2 ranks 0–7 (8 of 10)
      if (rank < (variant === 1 ? 2 : 8))
        list.push({ ...event, eventType: 'click', eventName: 'Hit Clicked', positions: [1] });
      // converted: variant 1 rank 0 (1 of 10), variant 2 ranks 0–3 (4 of 10)
      if (rank < (variant === 1 ? 1 : 4)) list.push({ ...event, eventType: 'conversion', eventName: 'Purchase' });
    }
    await events(list);
    const body = await getTest(id);
    assert.deepEqual(
      body.variants.map((v: { trackedSearchCount: number; clickThroughRate: number; conversionRate: number }) => [
        v.trackedSearchCount,
        v.clickThroughRate,
        v.conversionRate,
      ]),
      [
        [10, 0.2, 0.1],
        [10, 0.8, 0.4],
      ],
    );
    // p = 0.5, SE = √(0.25 × 0.2) = 0.2236068, z = −2.6832816, 2Φ(2.6832816) − 1 = 2 × 0.9963548 − 1 = 0.9927096
    assert.ok(Math.abs(body.clickSignificance - 0.9927096) < 1e-6, String(body.clickSignificance));
    assert.ok(body.clickSignificance > 0.95, 'significant');
    // p = 0.25, SE = √(0.25 × 0.75 × 0.2) = 0.1936492, z = −1.5491933, 2 × 0.9393324 − 1 = 0.8786647
    assert.ok(Math.abs(body.conversionSignificance - 0.8786647) < 1e-6, String(body.conversionSignificance));
    await svc.call('DELETE', `/2/abtests/${id}`);
    clock = T0;
  });
});
