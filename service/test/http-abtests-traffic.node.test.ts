/**
 * The A/B test traffic split over HTTP against the real service (document 2, "A/B test", "A/B test
 * status"): real searches (POST, GET, multi-query) land on the variant of the documented hash; stop, and
 * expiry by the injected service clock; stop and delete refusals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abTestCalls, expectedVariant, indexShops, usersIn, variants } from './abtests-helpers.js';
import { ADMIN_KEY, type Running, SEARCH_KEY, scenarioTime, startService, securedKey } from './service-helpers.js';

const T0 = scenarioTime();
let clock = T0;
const now = () => clock;

let svc: Running;
const { create, search, getTest } = abTestCalls(() => svc);

before(async () => {
  svc = await startService({ now });
  await indexShops(svc);
});
after(() => svc.stop());

describe('traffic split', () => {
  let id = 0;
  const USERS = Array.from({ length: 400 }, (_, i) => `user-${i}`);
  before(async () => {
    // 70 % keep `shop`; 30 % search `shop_b` with only the Acme brand.
    id = (
      await create({
        name: 'split',
        variants: variants('shop', 'shop_b', { customSearchParameters: { filters: 'brand:Acme' } }, [70, 30]),
      })
    ).abTestID;
  });

  test('each user gets the variant of the documented hash; shares near 70/30; the answer carries abTestID and abTestVariantID', async () => {
    const seen = new Map<string, number>();
    for (const user of USERS) {
      const answer = await search('shop', { query: 'chair', userToken: user });
      assert.equal(answer.abTestID, id);
      assert.equal(answer.abTestVariantID, expectedVariant(id, user, 70), user);
      seen.set(user, answer.abTestVariantID!);
      if (answer.abTestVariantID === 2) {
        // variant B: shop_b with its customSearchParameters (only Acme chairs)
        assert.deepEqual(answer.hits.map((hit) => hit.objectID).sort(), ['3', '4']);
      } else {
        assert.deepEqual(answer.hits.map((hit) => hit.objectID).sort(), ['1', '2', '3', '4']);
      }
    }
    const share = [...seen.values()].filter((v) => v === 1).length / USERS.length;
    assert.ok(Math.abs(share - 0.7) < 0.07, `variant 1 share ${share}`);
    // Always the same variant, through every search path.
    for (const user of USERS.slice(0, 40)) {
      const again = await search('shop', { query: 'lamp', userToken: user });
      assert.equal(again.abTestVariantID, seen.get(user));
      const get = await svc.call('GET', `/1/indexes/shop?query=chair&userToken=${user}`, undefined, {
        key: SEARCH_KEY,
      });
      assert.equal(get.body.abTestVariantID, seen.get(user));
      assert.equal(get.body.nbHits, seen.get(user) === 2 ? 2 : 4);
    }
  });

  test("the user is the query userToken (a secured key's wins), else X-Service-UserToken, else the client IP", async () => {
    const header = await search('shop', { query: 'chair' }, { headers: { 'X-Service-UserToken': 'user-7' } });
    assert.equal(header.abTestVariantID, expectedVariant(id, 'user-7', 70));
    const anonymous = await search('shop', { query: 'chair' });
    assert.equal(anonymous.abTestVariantID, expectedVariant(id, '127.0.0.1', 70));
    // admin key on behalf of a user: the first X-Forwarded-For address (as Analytics counts users)
    for (const ip of ['203.0.113.9', '198.51.100.20', '192.0.2.33']) {
      const forwarded = await search(
        'shop',
        { query: 'chair' },
        { key: ADMIN_KEY, headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1` } },
      );
      assert.equal(forwarded.abTestVariantID, expectedVariant(id, ip, 70), ip);
    }
    const [one, two] = [usersIn(id, 1, 70, 1, 'sec')[0]!, usersIn(id, 2, 70, 1, 'sec')[0]!];
    for (const [fixed, asked] of [
      [one, two],
      [two, one],
    ]) {
      const secured = await search(
        'shop',
        { query: 'chair', userToken: asked },
        { key: securedKey(SEARCH_KEY, { userToken: fixed }) },
      );
      assert.equal(secured.abTestVariantID, expectedVariant(id, fixed, 70));
    }
  });

  test('the second index is never redirected; other indices are untouched; multi-query splits each query on the first index', async () => {
    const direct = await search('shop_b', { query: 'chair', userToken: usersIn(id, 2, 70, 1, 'direct')[0]! });
    assert.equal(direct.abTestID, undefined);
    assert.equal(direct.abTestVariantID, undefined);
    assert.equal(direct.nbHits, 4, 'no customSearchParameters outside the test');
    const elsewhere = await search('solo', { query: 'chair', userToken: 'user-1' });
    assert.equal(elsewhere.abTestID, undefined);

    const [a, b] = [usersIn(id, 1, 70, 1, 'multi')[0]!, usersIn(id, 2, 70, 1, 'multi')[0]!];
    const multi = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      {
        requests: [
          { indexName: 'shop', query: 'chair', userToken: a },
          { indexName: 'shop', query: 'chair', userToken: b },
          { indexName: 'shop_b', query: 'chair', userToken: b },
          { indexName: 'shop', query: 'chair', userToken: b, hitsPerPage: 0, facets: ['brand'], analytics: false },
        ],
      },
      { key: SEARCH_KEY },
    );
    assert.equal(multi.status, 200, JSON.stringify(multi.body));
    const results = multi.body.results as Array<{
      index: string;
      nbHits: number;
      abTestID?: number;
      abTestVariantID?: number;
      facets?: Record<string, Record<string, number>>;
    }>;
    assert.deepEqual(
      results.map((r) => [r.index, r.nbHits, r.abTestID, r.abTestVariantID]),
      [
        ['shop', 4, id, 1],
        ['shop', 2, id, 2],
        ['shop_b', 4, undefined, undefined],
        // analytics: false still gets its variant (the same answer the user sees) but is not counted
        ['shop', 2, id, 2],
      ],
    );
    assert.deepEqual(results[3]!.facets, { brand: { Acme: 2 } });
  });

  test('stop: status stopped, the first index gets 100 % of traffic, stop again changes nothing, the indices are free again', async () => {
    const before = await getTest(id);
    assert.equal(before.status, 'active');
    const stopped = await svc.call('POST', `/2/abtests/${id}/stop`);
    assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
    assert.deepEqual(Object.keys(stopped.body).sort(), ['abTestID', 'index', 'taskID']);
    assert.deepEqual([stopped.body.abTestID, stopped.body.index], [id, 'shop']);
    assert.deepEqual(await svc.ok('GET', `/1/indexes/shop/task/${stopped.body.taskID}`), { status: 'published' });
    const after = await getTest(id);
    assert.equal(after.status, 'stopped');
    // metadata and metrics kept
    assert.deepEqual(after.variants, before.variants);
    // a minute later (the same query within 5 s would fold the test's searches into these, by the keystroke rule)
    clock += 60_000;
    for (const user of USERS.slice(0, 100)) {
      const answer = await search('shop', { query: 'chair', userToken: user });
      assert.equal(answer.abTestID, undefined);
      assert.equal(answer.nbHits, 4, `${user} searches shop as it is`);
    }
    // the test cannot restart: stopping again answers 200 and changes nothing
    clock += 60_000;
    assert.equal((await svc.call('POST', `/2/abtests/${id}/stop`)).status, 200);
    assert.deepEqual(await getTest(id), after);
    // no active test on shop / shop_b any more
    const next = await create({ name: 'split again', variants: variants('shop_b', 'shop') });
    assert.equal((await svc.call('DELETE', `/2/abtests/${next.abTestID}`)).status, 200);
  });

  test('stop and delete: 404 unknown, 422 bad id, 401, 403', async () => {
    const { key: analyticsOnly } = await svc.ok('POST', '/1/keys', { acl: ['analytics'] });
    const { key: settingsElsewhere } = await svc.ok('POST', '/1/keys', { acl: ['editSettings'], indexes: ['shop'] });
    for (const [method, suffix] of [
      ['POST', '/stop'],
      ['DELETE', ''],
    ] as const) {
      const cases: Array<[string, number, Record<string, unknown>?]> = [
        ['999999', 404],
        ['x1', 422],
        ['1.0', 422],
        [String(id), 401, { key: null }],
        [String(id), 403, { key: 'nope' }],
        [String(id), 403, { key: SEARCH_KEY }],
        [String(id), 403, { key: analyticsOnly }],
        // editSettings on the first index only, not on shop_b
        [String(id), 403, { key: settingsElsewhere }],
      ];
      for (const [path, status, options = {}] of cases) {
        const answer = await svc.call(method, `/2/abtests/${path}${suffix}`, undefined, options);
        assert.equal(answer.status, status, `${method} ${path}${suffix}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(Object.keys(answer.body).sort(), ['message', 'status']);
      }
    }
  });
});

describe('expiry (the service clock)', () => {
  test('endAt passes: expired on read and at search time, searches no longer split, the indices are free again', async () => {
    const start = clock;
    const id = (
      await create({
        name: 'short',
        variants: variants('expiry_a', 'expiry_b'),
        endAt: new Date(start + 3_600_000).toISOString(),
      })
    ).abTestID;
    const [a, b] = [usersIn(id, 1, 50, 1, 'exp')[0]!, usersIn(id, 2, 50, 1, 'exp')[0]!];
    assert.equal((await search('expiry_a', { query: 'chair', userToken: b })).abTestVariantID, 2);
    // at endAt exactly the test still runs; one millisecond later it has ended
    clock = start + 3_600_000;
    assert.equal((await search('expiry_a', { query: 'chair', userToken: b })).abTestVariantID, 2);
    assert.equal((await getTest(id)).status, 'active');
    clock = start + 3_600_001;
    // at search time first (no read in between)
    const late = await search('expiry_a', { query: 'chair', userToken: b });
    assert.deepEqual([late.abTestID, late.abTestVariantID], [undefined, undefined]);
    assert.equal((await search('expiry_a', { query: 'chair', userToken: a })).abTestID, undefined);
    const expired = await getTest(id);
    assert.equal(expired.status, 'expired');
    // metadata and metrics kept: the two searches of b while it ran
    // (b's two searches while it ran, an hour apart: two searches, not one typing series)
    assert.equal(expired.variants[1].searchCount, 2);
    assert.equal(expired.variants[0].searchCount, null);
    clock = start; // even if the clock went back, an expired test stays expired
    assert.equal((await getTest(id)).status, 'expired');
    clock = start + 3_600_001;
    const again = await create({ name: 'next', variants: variants('expiry_b', 'expiry_a') });
    // stopping an expired test changes nothing
    assert.equal((await svc.call('POST', `/2/abtests/${id}/stop`)).status, 200);
    assert.equal((await getTest(id)).status, 'expired');
    for (const test of [id, again.abTestID]) assert.equal((await svc.call('DELETE', `/2/abtests/${test}`)).status, 200);
    clock = T0;
  });
});
