/**
 * The Query Suggestions API (document 2) over HTTP against the real service: real searches on a small
 * index (recorded by the local Analytics), a configuration created through the API, its builds, and the
 * suggestions index's records checked against figures worked out by hand; the effect of each configuration
 * field (minHits, minLetters, exclude, generate, languages, analyticsTags, replicas, external, several
 * source indices); the build log.
 *
 * Its sibling suite `http-query-suggestions-api` covers status, reads, rebuilds, every endpoint's errors,
 * the 100-configuration limit, delete, the official v5 client and a restart; their shared setup (the shop
 * and its recorded searches) is `query-suggestions-helpers.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BASE, querySuggestionCalls, type Status } from './query-suggestions-helpers.js';
import { index, type Running, SEARCH_KEY, startService } from './service-helpers.js';

let svc: Running;
const { built, rebuild, records, suggestions, buildLog, configure, recordScenario } = querySuggestionCalls(() => svc);

before(async () => {
  svc = await startService();
  await recordScenario();
});

after(async () => {
  await svc.stop();
});

describe('a build', () => {
  test('creating a configuration builds the suggestions index from the recorded searches', async () => {
    const created = await svc.call('POST', '/1/configs', BASE);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.status, 200);
    assert.equal(typeof created.body.message, 'string');
    const status = await built('shop_qs');
    assert.equal(status.indexName, 'shop_qs');
    assert.ok(!Number.isNaN(Date.parse(status.lastBuiltAt!)));

    // By hand (searches above): chair 4 + Chair 1 = 5; lamp 3 + the typist's series 1 = 4; desk 2 (the
    // replica's does not count: replicas false); cushion 1 (tags do not matter without analyticsTags).
    // Skipped: "chairs" (plural of the more popular "chair", languages en), "cheap desk" (exclude
    // "cheap"), "xyz" (0 hits < minHits 1), "ch" (2 letters < minLetters 3), "" (empty), "table"
    // (not recorded). generate [brand, category]: the six pairs found on a record, popularity 0.
    assert.deepEqual(await suggestions('shop_qs'), [
      'chair:5',
      'lamp:4',
      'desk:2',
      'cushion:1',
      'acme chairs:0',
      'acme cushions:0',
      'acme desks:0',
      'hon chairs:0',
      'hon desks:0',
      'tensor lamps:0',
    ]);
  });

  test('each record: objectID, query, popularity, nb_words, and per source index exact_nb_hits and facets', async () => {
    const all = await records('shop_qs');
    const entry = (
      exactNbHits: number,
      brand: Array<[string, number]>,
      color: Array<[string, number]>,
      analyticsBrand: Array<[string, number]> = [],
    ) => ({
      exact_nb_hits: exactNbHits,
      facets: {
        exact_matches: {
          brand: brand.map(([value, count]) => ({ value, count })),
          color: color.map(([value, count]) => ({ value, count })),
        },
        analytics: {
          brand: analyticsBrand.map(([value, count]) => ({ attribute: 'brand', operator: ':', value, count })),
          color: [],
        },
      },
    });
    // "chair" matches records 1-4 (name, or category Chairs): brand Acme 2 / Hon 2 → amount 1 keeps
    // the first by value on a tie, Acme; color Green 2, then Black 1 and Brown 1 → Green, Black. Its
    // searches filtered brand:Hon twice and brand:Acme once → Hon 2.
    assert.deepEqual(all.get('chair'), {
      objectID: 'chair',
      query: 'chair',
      popularity: 5,
      nb_words: 1,
      shop: entry(
        4,
        [['Acme', 2]],
        [
          ['Green', 2],
          ['Black', 1],
        ],
        [['Hon', 2]],
      ),
    });
    // "lamp": records 5 and 6; one search filtered brand:Tensor.
    assert.deepEqual(all.get('lamp'), {
      objectID: 'lamp',
      query: 'lamp',
      popularity: 4,
      nb_words: 1,
      shop: entry(
        2,
        [['Tensor', 2]],
        [
          ['Black', 1],
          ['White', 1],
        ],
        [['Tensor', 1]],
      ),
    });
    // "desk": records 5 (Desk lamp), 7 and 8, one of each brand and color.
    assert.deepEqual(all.get('desk'), {
      objectID: 'desk',
      query: 'desk',
      popularity: 2,
      nb_words: 1,
      shop: entry(
        3,
        [['Acme', 1]],
        [
          ['Black', 1],
          ['Brown', 1],
        ],
      ),
    });
    assert.deepEqual(all.get('cushion'), {
      objectID: 'cushion',
      query: 'cushion',
      popularity: 1,
      nb_words: 1,
      shop: entry(1, [['Acme', 1]], [['Green', 1]]),
    });
    // "acme chairs": record 3 (Acme, Chairs) and record 4 (Acme, "Chair cushion": chairs → chair, one typo).
    assert.deepEqual(all.get('acme chairs'), {
      objectID: 'acme chairs',
      query: 'acme chairs',
      popularity: 0,
      nb_words: 2,
      shop: entry(2, [['Acme', 2]], [['Green', 2]]),
    });
    assert.deepEqual(all.get('hon desks'), {
      objectID: 'hon desks',
      query: 'hon desks',
      popularity: 0,
      nb_words: 2,
      shop: entry(1, [['Hon', 1]], [['White', 1]]),
    });
    // exact_nb_hits is the nbHits of the same search on the source index.
    for (const record of all.values()) {
      const answer = await svc.ok('POST', '/1/indexes/shop/query', {
        query: record.query,
        hitsPerPage: 0,
        analytics: false,
      });
      assert.equal(record.shop.exact_nb_hits, answer.nbHits, record.query);
    }
  });

  test('the suggestions index is searchable as you type: searchable query, custom ranking desc(popularity)', async () => {
    const settings = await svc.ok('GET', '/1/indexes/shop_qs/settings');
    assert.deepEqual(settings.searchableAttributes, ['query']);
    assert.deepEqual(settings.customRanking, ['desc(popularity)']);
    const answer = await svc.call(
      'POST',
      '/1/indexes/shop_qs/query',
      { query: 'c', analytics: false },
      { key: SEARCH_KEY },
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.hits.map((hit: { query: string }) => hit.query),
      ['chair', 'cushion', 'acme chairs', 'acme cushions', 'hon chairs'],
    );
    // Settings given to the suggestions index are kept by later builds.
    await svc.ok('PUT', '/1/indexes/shop_qs/settings', { customRanking: ['desc(popularity)', 'asc(nb_words)'] });
    await rebuild('shop_qs');
    assert.deepEqual((await svc.ok('GET', '/1/indexes/shop_qs/settings')).customRanking, [
      'desc(popularity)',
      'asc(nb_words)',
    ]);
  });

  test('the log of the last build: JSON Lines, every step, each skipped candidate with its reason', async () => {
    const lines = await buildLog('shop_qs');
    for (const line of lines) {
      assert.deepEqual(Object.keys(line).sort(), ['contextLevel', 'level', 'message', 'timestamp']);
      assert.ok(['INFO', 'SKIP', 'ERROR'].includes(line.level));
      assert.ok(!Number.isNaN(Date.parse(line.timestamp)) && line.timestamp.endsWith('Z'));
      assert.ok(Number.isInteger(line.contextLevel) && line.contextLevel >= 0);
    }
    // "a record of level n+1 belongs to the preceding record of level n"
    assert.equal(lines[0]!.contextLevel, 0);
    for (const [i, line] of lines.entries()) {
      if (i > 0) assert.ok(line.contextLevel <= lines[i - 1]!.contextLevel + 1, JSON.stringify(line));
    }
    assert.equal(lines.filter((line) => line.level === 'ERROR').length, 0);
    const skips = lines.filter((line) => line.level === 'SKIP').map((line) => line.message);
    assert.deepEqual(skips.sort(), [
      '"": the empty query (1 searches) is not a suggestion',
      '"ch": 2 letters, fewer than minLetters (3)',
      '"chairs": singular/plural form of "chair", which is kept (at least as popular)',
      '"cheap desk": excluded by "cheap"',
      '"xyz": 0 hits, fewer than minHits (1)',
    ]);
    const messages = lines.map((line) => line.message);
    assert.match(messages[0]!, /started/);
    assert.ok(messages.includes('10 suggestions written to "shop_qs"'));
    assert.match(messages.at(-1)!, /^Build finished in \d+ ms$/);
    // The search API's call log is another endpoint and still answers.
    const callLog = await svc.call('GET', '/1/logs?length=5');
    assert.equal(callLog.status, 200);
    assert.ok(Array.isArray(callLog.body.logs));
  });
});

describe('the configuration fields', () => {
  test('languages: without it, singular and plural suggestions both stay', async () => {
    await configure({ ...BASE, languages: [] });
    const list = await suggestions('shop_qs');
    assert.ok(list.includes('chairs:2'));
    assert.equal(list.length, 11);
  });

  test('languages with generate: the less popular form goes, whatever its source', async () => {
    // generate [category]: chairs, cushions, desks, lamps; minLetters 0 lets "ch" in (5 hits).
    await configure({ ...BASE, sourceIndices: [{ indexName: 'shop', minHits: 1, generate: [['category']] }] });
    assert.deepEqual(await suggestions('shop_qs'), ['chair:5', 'lamp:4', 'desk:2', 'ch:1', 'cushion:1']);
    const skips = (await buildLog('shop_qs')).filter((line) => line.level === 'SKIP').map((line) => line.message);
    for (const [plural, singular] of [
      ['chairs', 'chair'],
      ['cushions', 'cushion'],
      ['desks', 'desk'],
      ['lamps', 'lamp'],
    ]) {
      assert.ok(
        skips.includes(`"${plural}": singular/plural form of "${singular}", which is kept (at least as popular)`),
        plural,
      );
    }
  });

  test('minHits: candidates with fewer hits on the source index are skipped', async () => {
    await configure({ ...BASE, sourceIndices: [{ indexName: 'shop', minHits: 3, minLetters: 3 }] });
    // chair 4 hits, desk 3; lamp 2, cushion 1 and xyz 0 are skipped; chairs (4 hits) is the plural of chair.
    assert.deepEqual(await suggestions('shop_qs'), ['chair:5', 'desk:2']);
    const skips = (await buildLog('shop_qs')).filter((line) => line.level === 'SKIP').map((line) => line.message);
    assert.ok(skips.includes('"lamp": 2 hits, fewer than minHits (3)'));
    assert.ok(skips.includes('"cushion": 1 hits, fewer than minHits (3)'));
  });

  test('minLetters and exclude (words, and patterns with *)', async () => {
    await configure({
      ...BASE,
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 5, generate: [['brand', 'category']] }],
      exclude: ['ACME *', 'Tensor'],
    });
    // minLetters 5 skips lamp, desk, xyz and ch ("chairs" has 6 letters, then goes as the plural of
    // "chair"). "ACME *" removes the three acme pairs, the word "Tensor" removes "tensor lamps" (case and
    // whole words); "cheap desk" is no longer excluded.
    assert.deepEqual(await suggestions('shop_qs'), [
      'chair:5',
      'cheap desk:2',
      'cushion:1',
      'hon chairs:0',
      'hon desks:0',
    ]);
    const skips = (await buildLog('shop_qs')).filter((line) => line.level === 'SKIP').map((line) => line.message);
    assert.ok(skips.includes('"lamp": 4 letters, fewer than minLetters (5)'));
    assert.ok(skips.includes('"acme chairs": excluded by "ACME *"'));
    assert.ok(skips.includes('"tensor lamps": excluded by "Tensor"'));
  });

  test('analyticsTags: only the searches with one of the tags', async () => {
    await configure({ ...BASE, sourceIndices: [{ indexName: 'shop', analyticsTags: ['mobile', 'kiosk'] }] });
    assert.deepEqual(await suggestions('shop_qs'), ['cushion:1']);
  });

  test('replicas: the popular searches of the replicas count too', async () => {
    await configure({ ...BASE, sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3, replicas: true }] });
    // desk: 2 on shop + 1 on shop_newest; oak: 1 on shop_newest.
    assert.deepEqual(await suggestions('shop_qs'), ['chair:5', 'lamp:4', 'desk:3', 'cushion:1', 'oak:1']);
  });

  test('several source indices: one record per suggestion, popularity summed, one entry per source', async () => {
    await configure({
      ...BASE,
      sourceIndices: [
        { indexName: 'shop', minHits: 1, minLetters: 3 },
        { indexName: 'shop_newest', minHits: 1, facets: [{ attribute: 'brand', amount: 2 }] },
      ],
    });
    assert.deepEqual(await suggestions('shop_qs'), ['chair:5', 'lamp:4', 'desk:3', 'cushion:1', 'oak:1']);
    const all = await records('shop_qs');
    assert.deepEqual(
      Object.keys(all.get('desk')!)
        .filter((key) => key.startsWith('shop'))
        .sort(),
      ['shop', 'shop_newest'],
    );
    assert.equal(all.get('desk')!.shop.exact_nb_hits, 3);
    assert.deepEqual(all.get('desk')!.shop_newest.facets.exact_matches.brand, [
      { value: 'Acme', count: 1 },
      { value: 'Hon', count: 1 },
    ]);
    assert.deepEqual(Object.keys(all.get('oak')!).sort(), [
      'nb_words',
      'objectID',
      'popularity',
      'query',
      'shop_newest',
    ]);
    assert.deepEqual(Object.keys(all.get('chair')!).sort(), ['nb_words', 'objectID', 'popularity', 'query', 'shop']);
    assert.deepEqual(all.get('chair')!.shop.facets, { exact_matches: {}, analytics: {} });
  });

  test('external indices: records {query, count}; a popular search keeps its Analytics figure', async () => {
    await index(svc, 'shop_external', [
      { objectID: 'e1', query: 'Oak Chair', count: 7 },
      { objectID: 'e2', query: 'chair', count: 100 },
      { objectID: 'e3', query: 'sofa', count: 3 },
      { objectID: 'e4', title: 'no query here' },
    ]);
    await configure({
      ...BASE,
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3, external: ['shop_external'] }],
    });
    assert.deepEqual(await suggestions('shop_qs'), ['oak chair:7', 'chair:5', 'lamp:4', 'desk:2', 'cushion:1']);
    const skips = (await buildLog('shop_qs')).filter((line) => line.level === 'SKIP').map((line) => line.message);
    assert.ok(
      skips.includes('"chair" of "shop_external": already a popular search of "shop" (the external record is ignored)'),
    );
    assert.ok(skips.includes('"sofa": 0 hits, fewer than minHits (1)'));
    assert.ok(skips.some((message) => message.startsWith('record "e4" of "shop_external"')));
  });

  test('errors of a build are ERROR lines: a missing source index, a facet that is not faceted', async () => {
    await configure({
      ...BASE,
      sourceIndices: [
        { indexName: 'shop', minHits: 1, minLetters: 3, facets: [{ attribute: 'name', amount: 3 }] },
        { indexName: 'nowhere' },
      ],
    });
    const status = (await svc.ok('GET', '/1/configs/shop_qs/status')) as Status & {
      lastSuccessfulBuiltAt: string | null;
    };
    assert.notEqual(status.lastSuccessfulBuiltAt, status.lastBuiltAt);
    const errors = (await buildLog('shop_qs')).filter((line) => line.level === 'ERROR').map((line) => line.message);
    assert.deepEqual(errors, [
      'Facet "name" is not in the attributesForFaceting of "shop": its exact_matches stay empty',
      'Index "nowhere" does not exist: no suggestions from it',
    ]);
    assert.deepEqual((await records('shop_qs')).get('chair')!.shop.facets.exact_matches, { name: [] });
    await configure(BASE);
  });
});
