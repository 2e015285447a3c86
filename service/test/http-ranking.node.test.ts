/**
 * Ranking over HTTP: one order case per tie-breaking criterion of the default `ranking` (typo, geo, words,
 * filters, proximity, attribute, exact, custom), indexed and searched through the API — geo with
 * `_geoloc` records and `aroundLatLng` / `aroundPrecision` / `aroundRadius`, filters with
 * `optionalFilters`. Each case gives the records a `desc(popularity)` custom ranking that prefers the
 * reverse order, so only the criterion under test can produce the expected order; then the `ranking`
 * setting reorders (or drops) the criteria.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
let counter = 0;
before(async () => {
  svc = await startService({ dataDir: ':memory:' });
});
after(() => svc.stop());

/** A fresh index whose records (in the order given) get increasing popularity: custom ranking prefers the last. */
async function indexOf(
  records: Array<Record<string, unknown>>,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const name = `ranking-${counter++}`;
  await svc.ok('PUT', `/1/indexes/${name}/settings`, {
    searchableAttributes: ['name', 'description'],
    customRanking: ['desc(popularity)'],
    ...settings,
  });
  await svc.ok('POST', `/1/indexes/${name}/batch`, {
    requests: records.map((record, i) => ({
      action: 'addObject',
      body: { objectID: String(i + 1), popularity: i, ...record },
    })),
  });
  return name;
}

async function search(indexName: string, query: string, extra: Record<string, unknown> = {}) {
  return svc.ok('POST', `/1/indexes/${indexName}/query`, { query, ...extra }, { key: SEARCH_KEY });
}

async function order(indexName: string, query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  return (await search(indexName, query, extra)).hits.map((hit: { objectID: string }) => hit.objectID);
}

describe('ranking criteria over HTTP', () => {
  test('typo: fewer typos first; nbTypos in _rankingInfo', async () => {
    const name = await indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }]);
    assert.deepEqual(await order(name, 'chair oak'), ['1', '2']);
    const info = (await search(name, 'chair oak', { getRankingInfo: true })).hits.map(
      (hit: { _rankingInfo: { nbTypos: number } }) => hit._rankingInfo.nbTypos,
    );
    assert.deepEqual(info, [0, 1]);
  });

  test('words: more matched query words first (optionalWords)', async () => {
    const name = await indexOf([{ name: 'red wooden chair' }, { name: 'wooden chair' }, { name: 'chair' }]);
    assert.deepEqual(await order(name, 'red wooden chair', { optionalWords: ['red', 'wooden'] }), ['1', '2', '3']);
  });

  test('proximity: query words closer together first', async () => {
    const name = await indexOf([
      { name: 'wooden chair' },
      { name: 'wooden big old chair' },
      { name: 'chair made of old wooden planks' },
    ]);
    assert.deepEqual(await order(name, 'wooden chair'), ['1', '2', '3']);
  });

  test('attribute: a match in a more important attribute first; earlier position first; unordered(...) ignores position', async () => {
    assert.deepEqual(
      await order(
        await indexOf([
          { name: 'oak table', description: 'solid' },
          { name: 'table', description: 'solid oak' },
        ]),
        'oak',
      ),
      ['1', '2'],
    );
    const records = [{ name: 'oak table' }, { name: 'big oak table' }];
    assert.deepEqual(await order(await indexOf(records), 'oak'), ['1', '2']);
    assert.deepEqual(await order(await indexOf(records, { searchableAttributes: ['unordered(name)'] }), 'oak'), [
      '2',
      '1',
    ]);
  });

  test('exact: whole-word matches before prefix matches', async () => {
    const name = await indexOf([{ name: 'chair' }, { name: 'chairman' }]);
    assert.deepEqual(await order(name, 'chair'), ['1', '2']);
  });

  test('geo: nearer first by aroundPrecision steps, nearest of several _geoloc, aroundRadius; in the body, in params and in a GET', async () => {
    // On the equator a longitude step of x degrees is R·x·π/180 m (R = 6,371,008.8 m): 0.005° = 556 m,
    // 0.01° = 1,112 m, 0.02° = 2,224 m, 0.03° = 3,336 m, 0.05° = 5,560 m (rounded).
    const name = await indexOf([
      { name: 'cafe', _geoloc: { lat: 0, lng: 0.01 } }, // 1: 1,112 m, popularity 0
      { name: 'cafe', _geoloc: { lat: 0, lng: -0.03 } }, // 2: 3,336 m, popularity 1
      { name: 'cafe', _geoloc: { lat: 0, lng: 0.02 } }, // 3: 2,224 m, popularity 2
      {
        name: 'cafe',
        _geoloc: [
          { lat: 0, lng: 0.05 },
          { lat: 0, lng: -0.005 },
        ],
      }, // 4: nearest location 556 m, popularity 3
      { name: 'cafe' }, // 5: no _geoloc, popularity 4
    ]);
    // Without a position the custom ranking decides: 5, 4, 3, 2, 1.
    assert.deepEqual(await order(name, 'cafe'), ['5', '4', '3', '2', '1']);
    // aroundLatLng (default precision 10 m): steps 55, 111, 222, 333 → 4, 1, 3, 2; a record without _geoloc is left out.
    const around = { aroundLatLng: '0, 0' };
    assert.deepEqual(await order(name, 'cafe', around), ['4', '1', '3', '2']);
    const info = (await search(name, 'cafe', { ...around, getRankingInfo: true })).hits.map(
      (hit: { _rankingInfo: { geoDistance: number } }) => hit._rankingInfo.geoDistance,
    );
    assert.deepEqual(info, [556, 1112, 2224, 3336]);
    // aroundPrecision 3000 m: steps ⌊d / 3000⌋ are 0 for 4, 1 and 3 (tied: popularity 3, 0, 2 → 4, 3, 1), 1 for 2.
    assert.deepEqual(await order(name, 'cafe', { ...around, aroundPrecision: 3000 }), ['4', '3', '1', '2']);
    // aroundRadius 2500 m leaves 2 (3,336 m) out.
    assert.deepEqual(await order(name, 'cafe', { ...around, aroundRadius: 2500 }), ['4', '1', '3']);
    // The same parameters through a `params` string and a GET query string.
    assert.deepEqual(
      (await search(name, '', { params: 'query=cafe&aroundLatLng=0%2C0&aroundPrecision=3000' })).hits.map(
        (hit: { objectID: string }) => hit.objectID,
      ),
      ['4', '3', '1', '2'],
    );
    const get = await svc.ok('GET', `/1/indexes/${name}?query=cafe&aroundLatLng=0,0&aroundRadius=2500`, undefined, {
      key: SEARCH_KEY,
    });
    assert.deepEqual(
      get.hits.map((hit: { objectID: string }) => hit.objectID),
      ['4', '1', '3'],
    );
    // geo before custom is what orders them: without the geo criterion, popularity decides among the located records.
    await svc.ok('PUT', `/1/indexes/${name}/settings`, {
      ranking: ['typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'],
    });
    assert.deepEqual(await order(name, 'cafe', around), ['4', '3', '2', '1']);
  });

  test('filters: optionalFilters rank records matching more of them first, without filtering the others out', async () => {
    const name = await indexOf(
      [
        { name: 'lamp', brand: 'Acme', color: 'red' }, // 1, popularity 0
        { name: 'lamp', brand: 'Bolt', color: 'red' }, // 2, popularity 1
        { name: 'lamp', brand: 'Acme', color: 'blue' }, // 3, popularity 2
        { name: 'lamp', brand: 'Bolt', color: 'blue' }, // 4, popularity 3
      ],
      { attributesForFaceting: ['brand', 'color'] },
    );
    assert.deepEqual(await order(name, 'lamp'), ['4', '3', '2', '1']);
    // brand:Acme — missed filters 0 for 1 and 3 (popularity: 3, 1), 1 for 2 and 4 (4, 2).
    assert.deepEqual(await order(name, 'lamp', { optionalFilters: ['brand:Acme'] }), ['3', '1', '4', '2']);
    // brand:Acme and color:red — missed 0 for 1; 1 for 2 (not Acme) and 3 (not red), popularity 3, 2; 2 for 4.
    assert.deepEqual(await order(name, 'lamp', { optionalFilters: ['brand:Acme', 'color:red'] }), ['1', '3', '2', '4']);
    // One OR group (brand:Bolt or color:red) — matched by 1, 2, 4 (popularity: 4, 2, 1), missed by 3.
    assert.deepEqual(await order(name, 'lamp', { optionalFilters: [['brand:Bolt', 'color:red']] }), [
      '4',
      '2',
      '1',
      '3',
    ]);
    // The same through a `params` string (a JSON list), with no query.
    assert.deepEqual(
      (
        await search(name, '', { params: `optionalFilters=${encodeURIComponent('["brand:Acme","color:red"]')}` })
      ).hits.map((hit: { objectID: string }) => hit.objectID),
      ['1', '3', '2', '4'],
    );
    // Without the filters criterion in the ranking, optionalFilters change nothing.
    await svc.ok('PUT', `/1/indexes/${name}/settings`, {
      ranking: ['typo', 'geo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
    });
    assert.deepEqual(await order(name, 'lamp', { optionalFilters: ['brand:Acme', 'color:red'] }), ['4', '3', '2', '1']);
  });

  test('custom: desc and asc customRanking break the remaining ties', async () => {
    const name = await indexOf(
      [
        { name: 'lamp', stock: 5 },
        { name: 'lamp', stock: 9 },
        { name: 'lamp', stock: 1 },
      ],
      { customRanking: ['desc(stock)'] },
    );
    assert.deepEqual(await order(name, 'lamp'), ['2', '1', '3']);
    await svc.ok('PUT', `/1/indexes/${name}/settings`, { customRanking: ['asc(stock)'] });
    assert.deepEqual(await order(name, 'lamp'), ['3', '1', '2']);
  });

  test('the ranking setting orders the criteria', async () => {
    const name = await indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }]);
    assert.deepEqual(await order(name, 'chair oak'), ['1', '2']);
    await svc.ok('PUT', `/1/indexes/${name}/settings`, {
      ranking: ['custom', 'typo', 'words', 'proximity', 'attribute', 'exact'],
    });
    assert.deepEqual(await order(name, 'chair oak'), ['2', '1']);
  });

  test('typo tolerance by word length: 1 typo from 4 letters, 2 from 8, none on short words', async () => {
    const name = await indexOf([{ name: 'sofa' }, { name: 'bookcase' }, { name: 'cup' }]);
    assert.deepEqual(await order(name, 'sxfx'), [], 'two typos are too many for a 4-letter word');
    assert.deepEqual(await order(name, 'sofu'), ['1']);
    assert.deepEqual(await order(name, 'bokcasse'), ['2']);
    assert.deepEqual(await order(name, 'cap'), []);
  });

  test('minWordSizefor1Typo may not exceed minWordSizefor2Typos: settings over the current values, search parameters over the index’s', async () => {
    const name = await indexOf([{ name: 'sofa' }, { name: 'bookcase' }, { name: 'cup' }]);
    const put = (settings: Record<string, unknown>, query = '') =>
      svc.call('PUT', `/1/indexes/${name}/settings${query}`, settings);
    const BOTH = /"minWordSizefor1Typo" \(\d+\) and "minWordSizefor2Typos" \(\d+\)/;
    for (const [settings, shown] of [
      [{ minWordSizefor1Typo: 9, minWordSizefor2Typos: 3 }, '(9) and "minWordSizefor2Typos" (3)'],
      [{ minWordSizefor1Typo: 9 }, '(9) and "minWordSizefor2Typos" (8)'], // over the default 8
      [{ minWordSizefor2Typos: 3 }, '(4) and "minWordSizefor2Typos" (3)'], // under the default 4
    ] as const) {
      const answer = await put(settings);
      assert.equal(answer.status, 400, JSON.stringify(settings));
      assert.match(answer.body.message, BOTH);
      assert.ok(answer.body.message.includes(shown), answer.body.message);
    }
    // Equal minimums are allowed: from 5 letters a word takes one typo or two, shorter words none.
    assert.equal((await put({ minWordSizefor1Typo: 5, minWordSizefor2Typos: 5 })).status, 200);
    assert.deepEqual(await order(name, 'sofu'), [], 'sofa has 4 letters: no typo');
    assert.deepEqual(await order(name, 'bokcasse'), ['2']);
    assert.equal((await put({ minWordSizefor2Typos: 4 })).status, 400, 'below the stored 1-typo minimum 5');
    assert.equal(
      (await put({ minWordSizefor1Typo: null, minWordSizefor2Typos: 3 })).status,
      400,
      'null is the default 4, above 3',
    );
    assert.equal((await put({ minWordSizefor2Typos: null })).status, 200, 'null is the default 8');
    const settings = await svc.ok('GET', `/1/indexes/${name}/settings`);
    assert.deepEqual(
      [settings.minWordSizefor1Typo, settings.minWordSizefor2Typos],
      [5, 8],
      'the refused calls changed nothing',
    );

    // Search parameters of the same names: the same rule over the index's values (now 5 and 8).
    const refused: Array<Record<string, unknown>> = [
      { minWordSizefor1Typo: 9 },
      { minWordSizefor2Typos: 4 },
      { minWordSizefor1Typo: 3, minWordSizefor2Typos: 2 },
      { params: 'minWordSizefor1Typo=9' },
    ];
    for (const params of refused) {
      const answer = await svc.call(
        'POST',
        `/1/indexes/${name}/query`,
        { query: 'cup', ...params },
        { key: SEARCH_KEY },
      );
      assert.equal(answer.status, 400, JSON.stringify(params));
      assert.match(answer.body.message, /parameters "minWordSizefor1Typo" \(\d+\) and "minWordSizefor2Typos" \(\d+\)/);
    }
    const multi = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      { requests: [{ indexName: name, minWordSizefor2Typos: 3 }] },
      { key: SEARCH_KEY },
    );
    assert.equal(multi.status, 400);
    assert.equal(
      (await svc.call('GET', `/1/indexes/${name}?query=cup&minWordSizefor1Typo=9`, undefined, { key: SEARCH_KEY }))
        .status,
      400,
    );
    assert.equal((await svc.call('POST', `/1/indexes/${name}/browse`, { minWordSizefor1Typo: 9 })).status, 400);
    // 'cap' → 'cup' needs one typo on a 3-letter word: allowed with both minimums at 3.
    assert.deepEqual(await order(name, 'cap', { minWordSizefor1Typo: 3, minWordSizefor2Typos: 3 }), ['3']);
    assert.deepEqual(await order(name, 'cap', { minWordSizefor1Typo: 3 }), ['3']);

    // forwardToReplicas: the change must also fit each replica's own values.
    await svc.ok('PUT', `/1/indexes/${name}/settings`, { replicas: [`${name}_replica`] });
    await svc.ok('PUT', `/1/indexes/${name}_replica/settings`, { minWordSizefor1Typo: 4, minWordSizefor2Typos: 6 });
    const forwarded = await put({ minWordSizefor1Typo: 7 }, '?forwardToReplicas=true');
    assert.deepEqual(
      [forwarded.status, forwarded.body.message.includes('(7) and "minWordSizefor2Typos" (6)')],
      [400, true],
      forwarded.body.message,
    );
    assert.equal((await put({ minWordSizefor1Typo: 7 })).status, 200, 'the primary alone: 7 ≤ 8');
  });
});
