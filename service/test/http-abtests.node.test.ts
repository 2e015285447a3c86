/**
 * The A/B test API (document 2, "A/B test", "Endpoints > A/B test") over HTTP against the real service:
 * create, get and list with every documented refusal and the rights of the key.
 *
 * Its sibling suites: the traffic split, stop and expiry (`http-abtests-traffic`), each variant's metrics and
 * the significance (`http-abtests-metrics`), persistence and the migration of an older table
 * (`http-abtests-durability`); their shared setup is `abtests-helpers.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abTestCalls, DAY, NULL_METRICS, RECORDS, indexShops, variants } from './abtests-helpers.js';
import { APP_ID, index, type Running, SEARCH_KEY, scenarioTime, startService } from './service-helpers.js';

const T0 = scenarioTime();
const clock = T0;
const now = () => clock;

let svc: Running;
const { create, getTest } = abTestCalls(() => svc);

before(async () => {
  svc = await startService({ now });
  await indexShops(svc);
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
