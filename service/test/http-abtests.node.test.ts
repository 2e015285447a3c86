/**
 * The A/B test API (document 2, "A/B test", "A/B test status", "Endpoints > A/B test") over HTTP against
 * the real service: create / get / list / stop / delete with every documented refusal; the traffic split
 * of real searches (POST, GET, multi-query) against the documented hash; stop and expiry (injected
 * clock); each variant's metrics worked out by hand from real searches and real Insights events; the
 * significance on hand-computed cases; persistence across a restart; the migration of an older
 * `analytics_searches` table.
 *
 * The service's clock is injected (`createService({ now })`): A/B status, endAt and the recorded search
 * times follow it. It stays near the real time because Insights checks event timestamps on the real clock.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { erf, normalCdf, twoProportionSignificance } from '../src/abtests/significance.js';
import {
  ADMIN_KEY,
  APP_ID,
  index,
  SEARCH_KEY,
  securedKey,
  startService,
  tempDir,
  type Running,
  scenarioTime,
  SMALL_SHOP,
  databaseOf,
} from './service-helpers.js';

const DAY = 86_400_000;
const T0 = scenarioTime();
let clock = T0;
const now = () => clock;

const RECORDS = SMALL_SHOP.records;
const SETTINGS = SMALL_SHOP.settings;
const INDICES = [
  'shop',
  'shop_b',
  'other',
  'solo',
  'expiry_a',
  'expiry_b',
  'stop_a',
  'stop_b',
  'm_a',
  'm_b',
  'sig_a',
  'sig_b',
  'restricted',
];

/**
 * The assignment as docs/notes/analytics.md documents it, written again here: bucket = first 4 bytes of
 * SHA-256("abTestID\0user") as an unsigned integer mod 100; below the first variant's share → variant 1.
 */
function expectedVariant(abTestID: number, user: string, firstPercentage: number): 1 | 2 {
  const bucket = createHash('sha256').update(`${abTestID}\u0000${user}`).digest().readUInt32BE(0) % 100;
  return bucket < firstPercentage ? 1 : 2;
}

/** `count` user tokens that the documented hash puts in `variant` of the test. */
function usersIn(abTestID: number, variant: 1 | 2, firstPercentage: number, count: number, prefix: string): string[] {
  const users: string[] = [];
  for (let i = 0; users.length < count; i += 1) {
    const user = `${prefix}-${i}`;
    if (expectedVariant(abTestID, user, firstPercentage) === variant) users.push(user);
  }
  return users;
}

let svc: Running;

const variants = (
  a: string,
  b: string,
  extraB: Record<string, unknown> = {},
  percentages: [number, number] = [50, 50],
) => [
  { index: a, trafficPercentage: percentages[0], description: 'current ranking' },
  { index: b, trafficPercentage: percentages[1], description: 'new ranking', ...extraB },
];

async function create(body: Record<string, unknown>): Promise<{ abTestID: number; taskID: number; index: string }> {
  const answer = await svc.call('POST', '/2/abtests', body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

async function search(
  indexName: string,
  params: Record<string, unknown>,
  options: { key?: string; headers?: Record<string, string> } = {},
) {
  const answer = await svc.call('POST', `/1/indexes/${indexName}/query`, params, {
    key: options.key ?? SEARCH_KEY,
    headers: options.headers ?? {},
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as {
    nbHits: number;
    hits: Array<{ objectID: string; brand: string }>;
    queryID?: string;
    abTestID?: number;
    abTestVariantID?: number;
    hitsPerPage: number;
  };
}

async function events(list: Array<Record<string, unknown>>) {
  const answer = await svc.call('POST', '/1/events', { events: list }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

async function getTest(id: number) {
  const answer = await svc.call('GET', `/2/abtests/${id}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const NULL_METRICS = {
  averageClickPosition: null,
  clickCount: null,
  clickThroughRate: null,
  conversionCount: null,
  conversionRate: null,
  noResultCount: null,
  searchCount: null,
  trackedSearchCount: null,
  userCount: null,
};

before(async () => {
  svc = await startService({ now });
  for (const name of INDICES) await index(svc, name, RECORDS, SETTINGS);
});
after(() => svc.stop());

/** Today 23:59:59 UTC by the service clock. */
const endOfToday = () => new Date(Math.floor(clock / DAY) * DAY + DAY - 1000).toISOString();

describe('create: POST /2/abtests', () => {
  test('every refusal: 401, 403, 400, 422 (payload), 404 (index)', async () => {
    const good = { name: 'ranking', variants: variants('other', 'restricted') };
    const { key: searchAndSettings } = await svc.ok('POST', '/1/keys', { acl: ['editSettings'], indexes: ['other'] });
    const refusals: Array<[number, unknown, Record<string, unknown>?, RegExp?]> = [
      [401, good, { key: null }],
      [401, good, { appId: null }],
      [403, good, { key: 'wrong-key' }, /Invalid Application-Id or API-Key/],
      [403, good, { appId: 'OTHERAPP' }],
      [403, good, { key: SEARCH_KEY }, /editSettings/],
      // the key may edit `other` but not `restricted` (the second index)
      [403, good, { key: searchAndSettings }, /restricted/],
      [400, undefined, { raw: '{"name": "x", ' }],
      [422, [], {}, /body/],
      [422, { variants: good.variants }, {}, /^name/],
      [422, { name: '', variants: good.variants }, {}, /^name/],
      [422, { name: 'x' }, {}, /^variants/],
      [422, { name: 'x', variants: [good.variants[0]] }, {}, /exactly 2/],
      [422, { name: 'x', variants: [...good.variants, good.variants[0]] }, {}, /exactly 2/],
      [422, { name: 'x', variants: variants('other', 'restricted', {}, [60, 50]) }, {}, /add up to 100, got 110/],
      [
        422,
        { name: 'x', variants: variants('other', 'restricted', {}, [0, 100]) },
        {},
        /variants\[0\]\.trafficPercentage/,
      ],
      [
        422,
        {
          name: 'x',
          variants: [
            { index: 'other', trafficPercentage: 50.5 },
            { index: 'restricted', trafficPercentage: 49.5 },
          ],
        },
        {},
        /trafficPercentage/,
      ],
      [
        422,
        {
          name: 'x',
          variants: [
            { index: 'other', trafficPercentage: '50' },
            { index: 'restricted', trafficPercentage: 50 },
          ],
        },
        {},
        /trafficPercentage/,
      ],
      [
        422,
        { name: 'x', variants: [{ trafficPercentage: 50 }, { index: 'restricted', trafficPercentage: 50 }] },
        {},
        /variants\[0\]\.index/,
      ],
      [
        422,
        {
          name: 'x',
          variants: [
            { index: 'other', trafficPercentage: 50, color: 'red' },
            { index: 'restricted', trafficPercentage: 50 },
          ],
        },
        {},
        /variants\[0\]\.color: unexpected/,
      ],
      [422, { ...good, extra: 1 }, {}, /extra: unexpected/],
      // the same index twice without customSearchParameters
      [
        422,
        { name: 'x', variants: variants('other', 'other') },
        {},
        /share an index only when one has customSearchParameters/,
      ],
      [422, { name: 'x', variants: variants('other', 'other', { customSearchParameters: {} }) }, {}, /share an index/],
      [
        422,
        { name: 'x', variants: variants('other', 'restricted', { customSearchParameters: 'hitsPerPage=3' }) },
        {},
        /customSearchParameters/,
      ],
      [
        422,
        { name: 'x', variants: variants('other', 'restricted', { customSearchParameters: { hitsPerPage: 'many' } }) },
        {},
        /customSearchParameters/,
      ],
      [
        422,
        {
          name: 'x',
          variants: variants('other', 'restricted', { customSearchParameters: { filters: 'brand:Acme AND (' } }),
        },
        {},
        /customSearchParameters/,
      ],
      [422, { ...good, endAt: new Date(clock - 1000).toISOString() }, {}, /endAt: must be in the future/],
      [422, { ...good, endAt: 'next tuesday' }, {}, /endAt/],
      [422, { ...good, endAt: '2030-02-30T00:00:00Z' }, {}, /endAt/],
      [422, { ...good, endAt: 1893456000 }, {}, /endAt/],
      // both indices must exist
      [404, { name: 'x', variants: variants('other', 'nowhere') }, {}, /Index nowhere does not exist/],
      [404, { name: 'x', variants: variants('nowhere', 'other') }, {}, /nowhere/],
    ];
    for (const [status, body, options = {}, message] of refusals) {
      const answer = await svc.call('POST', '/2/abtests', body, options);
      assert.equal(
        answer.status,
        status,
        `${JSON.stringify(body)} ${JSON.stringify(options)}: ${JSON.stringify(answer.body)}`,
      );
      // Failures are {status, message} (document 2, Errors 1).
      assert.equal(answer.body.status, status);
      assert.equal(typeof answer.body.message, 'string');
      if (message) assert.match(answer.body.message, message);
    }
    assert.deepEqual((await svc.ok('GET', '/2/abtests')).abtests, [], 'nothing was created');
  });

  test('answers {abTestID, taskID, index}; the task is published; endAt defaults to today 23:59:59 UTC; a second test on either index is 422', async () => {
    const created = await create({ name: 'other vs restricted', variants: variants('other', 'restricted') });
    assert.deepEqual(Object.keys(created).sort(), ['abTestID', 'index', 'taskID']);
    assert.equal(created.index, 'other');
    assert.ok(Number.isInteger(created.abTestID) && created.abTestID > 0);
    assert.deepEqual(await svc.ok('GET', `/1/indexes/other/task/${created.taskID}`), { status: 'published' });
    const got = await getTest(created.abTestID);
    assert.equal(got.endAt, endOfToday());
    assert.equal(got.createdAt, new Date(clock).toISOString());
    assert.equal(got.status, 'active');

    // "a test already running on one of the indices" → 422, whichever variant uses it
    for (const pair of [
      ['other', 'solo'],
      ['solo', 'restricted'],
      ['restricted', 'other'],
    ]) {
      const answer = await svc.call('POST', '/2/abtests', { name: 'again', variants: variants(pair[0]!, pair[1]!) });
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.match(
        answer.body.message,
        new RegExp(`already running on index (other|restricted) \\(abTestID ${created.abTestID}\\)`),
      );
    }
    assert.equal((await svc.call('DELETE', `/2/abtests/${created.abTestID}`)).status, 200);
  });

  test('two variants on one index when one has customSearchParameters; URL credentials; a key with editSettings on both indices', async () => {
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['editSettings'], indexes: ['solo'] });
    const answer = await svc.call(
      'POST',
      `/2/abtests?X-Service-Application-Id=${APP_ID}&X-Service-API-Key=${key}`,
      {
        name: 'personalised',
        variants: variants('solo', 'solo', { customSearchParameters: { enablePersonalization: true } }),
        endAt: '2099-12-31',
      },
      { key: null, appId: null },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const got = await getTest(answer.body.abTestID);
    // a date alone means 23:59:59 UTC of that day
    assert.equal(got.endAt, '2099-12-31T23:59:59.000Z');
    assert.deepEqual(
      got.variants.map((v: { index: string; customSearchParameters?: unknown }) => [v.index, v.customSearchParameters]),
      [
        ['solo', undefined],
        ['solo', { enablePersonalization: true }],
      ],
    );
    assert.equal((await svc.call('DELETE', `/2/abtests/${answer.body.abTestID}`, undefined, { key })).status, 200);
  });
});

describe('get, list, rights', () => {
  let id = 0;
  before(async () => {
    id = (
      await create({
        name: 'get and list',
        variants: variants('other', 'restricted', { customSearchParameters: { hitsPerPage: 3 } }, [60, 40]),
        endAt: '2099-01-01T12:00:00Z',
      })
    ).abTestID;
  });
  after(async () => {
    await svc.call('DELETE', `/2/abtests/${id}`);
  });

  test('GET /2/abtests/{id}: the A/B test object, metrics null before any search', async () => {
    assert.deepEqual(await getTest(id), {
      abTestID: id,
      name: 'get and list',
      status: 'active',
      createdAt: new Date(clock).toISOString(),
      endAt: '2099-01-01T12:00:00.000Z',
      clickSignificance: null,
      conversionSignificance: null,
      variants: [
        { index: 'other', trafficPercentage: 60, description: 'current ranking', ...NULL_METRICS },
        {
          index: 'restricted',
          trafficPercentage: 40,
          description: 'new ranking',
          customSearchParameters: { hitsPerPage: 3 },
          ...NULL_METRICS,
        },
      ],
    });
  });

  test('GET /2/abtests/{id}: 422 for an id that is not an integer, 404 unknown, 401, 403 (right, main index)', async () => {
    const { key: analyticsOther } = await svc.ok('POST', '/1/keys', { acl: ['analytics'], indexes: ['other'] });
    const { key: analyticsRestricted } = await svc.ok('POST', '/1/keys', {
      acl: ['analytics'],
      indexes: ['restricted'],
    });
    const cases: Array<[string, number, Record<string, unknown>?]> = [
      ['abc', 422],
      ['1.5', 422],
      ['-1', 422],
      ['1e3', 422],
      ['999999', 404],
      [String(id), 401, { key: null }],
      [String(id), 403, { key: 'wrong' }],
      [String(id), 403, { key: SEARCH_KEY }],
      // only the second index: no access to the main index of the test
      [String(id), 403, { key: analyticsRestricted }],
      [String(id), 200, { key: analyticsOther }],
    ];
    for (const [path, status, options = {}] of cases) {
      const answer = await svc.call('GET', `/2/abtests/${path}`, undefined, options);
      assert.equal(answer.status, status, `${path} ${JSON.stringify(options)}: ${JSON.stringify(answer.body)}`);
      if (status !== 200) assert.equal(answer.body.status, status);
    }
    const url = `/2/abtests/${id}?X-Service-Application-Id=${APP_ID}&X-Service-API-Key=${analyticsOther}`;
    assert.equal((await svc.call('GET', url, undefined, { key: null, appId: null })).status, 200);
  });

  test('GET /2/abtests: offset, limit (default 10), count, total, only the tests visible to the key, [] when none', async () => {
    const more: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      await index(svc, `x${i}_a`, RECORDS);
      await index(svc, `x${i}_b`, RECORDS);
      more.push(
        (await create({ name: `extra ${i}`, variants: variants(`x${i}_a`, `x${i}_b`), endAt: '2099-01-01' })).abTestID,
      );
    }
    const all = [id, ...more];
    const list = await svc.ok('GET', '/2/abtests');
    assert.equal(list.count, 10);
    assert.equal(list.total, 12);
    // oldest first
    assert.deepEqual(
      list.abtests.map((t: { abTestID: number }) => t.abTestID),
      all.slice(0, 10),
    );
    assert.deepEqual(list.abtests[0], await getTest(id));
    const page = await svc.ok('GET', '/2/abtests?offset=9&limit=2');
    assert.deepEqual(
      [page.count, page.total, page.abtests.map((t: { abTestID: number }) => t.abTestID)],
      [2, 12, all.slice(9, 11)],
    );
    const end = await svc.ok('GET', '/2/abtests?offset=12');
    assert.deepEqual(end, { abtests: [], count: 0, total: 12 });

    const { key: onlyOther } = await svc.ok('POST', '/1/keys', { acl: ['analytics'], indexes: ['other'] });
    const visible = await svc.call('GET', '/2/abtests', undefined, { key: onlyOther });
    assert.deepEqual(
      [visible.status, visible.body.count, visible.body.total, visible.body.abtests[0].abTestID],
      [200, 1, 1, id],
    );
    const { key: nothing } = await svc.ok('POST', '/1/keys', { acl: ['analytics'], indexes: ['nothing_here'] });
    // An empty list, not an error (`[]`, not null).
    assert.deepEqual((await svc.call('GET', '/2/abtests', undefined, { key: nothing })).body, {
      abtests: [],
      count: 0,
      total: 0,
    });

    for (const [query, status] of [
      ['limit=0', 400],
      ['limit=1001', 400],
      ['limit=x', 400],
      ['offset=-1', 400],
    ] as const) {
      const answer = await svc.call('GET', `/2/abtests?${query}`);
      assert.equal(answer.status, status, query);
      assert.equal(answer.body.status, status);
    }
    assert.equal((await svc.call('GET', '/2/abtests', undefined, { key: null })).status, 401);
    assert.equal((await svc.call('GET', '/2/abtests', undefined, { key: SEARCH_KEY })).status, 403);
    for (const other of more) assert.equal((await svc.call('DELETE', `/2/abtests/${other}`)).status, 200);
  });
});

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

describe('durability', () => {
  test('tests, their status, assignment and metrics survive a restart', async () => {
    const dataDir = tempDir();
    clock = T0;
    let running = await startService({ now, dataDir });
    try {
      for (const name of ['r_a', 'r_b', 's_a', 's_b']) await index(running, name, RECORDS, SETTINGS);
      const make = async (name: string, a: string, b: string) =>
        (
          await running.ok('POST', '/2/abtests', {
            name,
            variants: variants(a, b, { customSearchParameters: { filters: 'brand:Acme' } }, [40, 60]),
            endAt: '2099-06-30T12:00:00Z',
          })
        ).abTestID as number;
      const active = await make('kept active', 'r_a', 'r_b');
      const stopped = await make('kept stopped', 's_a', 's_b');
      const users = Array.from({ length: 30 }, (_, i) => `restart-${i}`);
      const assigned = async () => {
        const out: Array<number | undefined> = [];
        for (const user of users) {
          const answer = await running.ok(
            'POST',
            '/1/indexes/r_a/query',
            { query: 'chair', userToken: user, clickAnalytics: true },
            { key: SEARCH_KEY },
          );
          out.push(answer.abTestVariantID);
          assert.equal(answer.nbHits, answer.abTestVariantID === 2 ? 2 : 4);
        }
        return out;
      };
      const first = await assigned();
      assert.deepEqual(
        first,
        users.map((user) => expectedVariant(active, user, 40)),
      );
      await running.ok('POST', '/1/indexes/s_a/query', { query: 'chair', userToken: 'someone' }, { key: SEARCH_KEY });
      await running.ok('POST', `/2/abtests/${stopped}/stop`);
      const list = await running.ok('GET', '/2/abtests');
      assert.deepEqual(
        list.abtests.map((t: { status: string }) => t.status),
        ['active', 'stopped'],
      );
      assert.equal(list.abtests[0].variants[0].searchCount + list.abtests[0].variants[1].searchCount, 30);
      // one more (untracked) search, still queued for Analytics (written every 250 ms) when the service closes
      const late = await running.ok(
        'POST',
        '/1/indexes/r_a/query',
        { query: 'chair', userToken: 'late-user' },
        { key: SEARCH_KEY },
      );
      await running.stop({ keepData: true });

      running = await startService({ now, dataDir });
      const reread = await running.ok('GET', '/2/abtests');
      const variantOfLate = late.abTestVariantID - 1;
      list.abtests[0].variants[variantOfLate].searchCount += 1;
      list.abtests[0].variants[variantOfLate].userCount += 1;
      assert.deepEqual(reread, list);
      assert.equal(
        list.abtests[1].variants.filter((v: { searchCount: number | null }) => v.searchCount === 1).length,
        1,
      );
      clock += 60_000;
      assert.deepEqual(await assigned(), first, 'the same users get the same variants');
      assert.equal(
        (await running.ok('POST', '/1/indexes/s_a/query', { query: 'chair' }, { key: SEARCH_KEY })).abTestID,
        undefined,
      );
      // ids continue after the restart
      const third = await running.call('POST', '/2/abtests', { name: 'third', variants: variants('s_a', 's_b') });
      assert.equal(third.body.abTestID, stopped + 1);
    } finally {
      await running.stop();
      clock = T0;
    }
  });

  test('SQLite: an analytics_searches table from before A/B tests gets the two columns; its rows are kept', async () => {
    // A file of an earlier release: SQLite's own migration (PostgreSQL's schema had these columns from its first step).
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    const old = new Database(join(dataDir, 'svc-search.sqlite'));
    // The table as the Analytics release created it.
    old.exec(`
      CREATE TABLE analytics_searches (
        id INTEGER PRIMARY KEY AUTOINCREMENT, index_name TEXT NOT NULL, ts INTEGER NOT NULL, query TEXT NOT NULL,
        nb_hits INTEGER NOT NULL, user_key TEXT NOT NULL, anonymous INTEGER NOT NULL, query_id TEXT, page INTEGER NOT NULL,
        hits_per_page INTEGER NOT NULL, object_ids TEXT NOT NULL, filters TEXT NOT NULL, tags TEXT NOT NULL,
        superseded INTEGER NOT NULL DEFAULT 0
      );
    `);
    old
      .prepare(`INSERT INTO analytics_searches (index_name, ts, query, nb_hits, user_key, anonymous, query_id, page, hits_per_page, object_ids, filters, tags)
      VALUES ('legacy', ?, 'chair', 4, 'old-user', 0, NULL, 0, 20, '["1"]', '[]', '[]')`)
      .run(T0);
    old.close();
    const columns = (running: Running) =>
      (
        databaseOf(running.service).prepare('PRAGMA table_info(analytics_searches)').all() as Array<{
          name: string;
        }>
      ).map((column) => column.name);
    for (let start = 0; start < 2; start += 1) {
      // twice: the second start finds the columns and changes nothing
      const running = await startService({ now, dataDir }, { storage: 'sqlite' });
      try {
        // The A/B test columns, then the country of Analytics' /2/countries (same migration).
        assert.deepEqual(columns(running).slice(-3), ['ab_test_id', 'ab_test_variant', 'country']);
        assert.equal(columns(running).filter((name) => name.startsWith('ab_test')).length, 2);
        assert.equal(columns(running).filter((name) => name === 'country').length, 1);
        assert.equal((await running.ok('GET', '/2/searches/count?index=legacy')).count, 1);
        const row = databaseOf(running.service)
          .prepare("SELECT ab_test_id, ab_test_variant, query FROM analytics_searches WHERE index_name = 'legacy'")
          .get();
        assert.deepEqual({ ...(row as object) }, { ab_test_id: null, ab_test_variant: null, query: 'chair' });
      } finally {
        await running.stop({ keepData: start === 0 });
      }
    }
  });
});
