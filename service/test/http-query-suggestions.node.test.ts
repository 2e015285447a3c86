/**
 * The Query Suggestions API (document 2) over HTTP against the real service: real searches on a small
 * index (recorded by the local Analytics), configurations created through the API, builds, and the
 * suggestions index's records checked against figures worked out by hand below; the effect of each
 * configuration field (minHits, minLetters, exclude, generate, languages, analyticsTags, replicas,
 * external, several source indices); status and log; every endpoint's errors; the 100-configuration
 * limit; delete leaving the index; a restart; the official v5 client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { ADMIN_KEY, APP_ID, index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

/**
 * The shop. Searchable: name, brand, category. Facets: brand, category, color. Its replica
 * `shop_newest` mirrors the records.
 */
const RECORDS = [
  { objectID: '1', name: 'Oak chair', brand: 'Hon', category: 'Chairs', color: 'Brown' },
  { objectID: '2', name: 'Office chair', brand: 'Hon', category: 'Chairs', color: 'Black' },
  { objectID: '3', name: 'Garden chair', brand: 'Acme', category: 'Chairs', color: 'Green' },
  { objectID: '4', name: 'Chair cushion', brand: 'Acme', category: 'Cushions', color: 'Green' },
  { objectID: '5', name: 'Desk lamp', brand: 'Tensor', category: 'Lamps', color: 'Black' },
  { objectID: '6', name: 'Floor lamp', brand: 'Tensor', category: 'Lamps', color: 'White' },
  { objectID: '7', name: 'Standing desk', brand: 'Hon', category: 'Desks', color: 'White' },
  { objectID: '8', name: 'Cheap desk', brand: 'Acme', category: 'Desks', color: 'Brown' },
];
const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category', 'color'],
  replicas: ['shop_newest'],
};

const FACETS = [
  { attribute: 'brand', amount: 1 },
  { attribute: 'color', amount: 2 },
];
/** The configuration most tests start from. */
const BASE = {
  indexName: 'shop_qs',
  sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3, facets: FACETS, generate: [['brand', 'category']] }],
  languages: ['en'],
  exclude: ['cheap'],
};

let svc: Running;
let user = 0;

/** One search by a new user (a user of its own: no keystroke series across the scenario's searches). */
async function search(indexName: string, params: Record<string, unknown>, userToken = `user-${++user}`) {
  const answer = await svc.call('POST', `/1/indexes/${indexName}/query`, params, {
    key: SEARCH_KEY,
    headers: { 'X-Service-UserToken': userToken },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

interface Status {
  indexName: string;
  isRunning: boolean;
  lastBuiltAt: string | null;
}

/** Waits until the configuration's build has ended (after `since`, an earlier lastBuiltAt). */
async function built(indexName: string, since: string | null = null): Promise<Status> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const status = (await svc.ok('GET', `/1/configs/${indexName}/status`)) as Status;
    if (!status.isRunning && status.lastBuiltAt !== null && status.lastBuiltAt !== since) return status;
    if (Date.now() > deadline) throw new Error(`${indexName} was not built: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Rebuilds now through the service's own endpoint (answers when the build has ended). */
async function rebuild(indexName: string): Promise<Status> {
  return (await svc.ok('POST', `/1/_local/configs/${indexName}/build`)) as Status;
}

/** Every record of an index, by objectID (as stored: without the answer's `_highlightResult`). */
async function records(indexName: string): Promise<Map<string, Record<string, any>>> {
  const out = new Map<string, Record<string, any>>();
  let cursor: string | undefined;
  do {
    const answer = await svc.ok(
      'POST',
      `/1/indexes/${indexName}/browse`,
      cursor === undefined ? { hitsPerPage: 1000 } : { cursor },
    );
    for (const { _highlightResult, ...record } of answer.hits as Array<Record<string, any>>)
      out.set(record.objectID, record);
    cursor = answer.cursor;
  } while (cursor !== undefined);
  return out;
}

/** The suggestions, most popular first (ties by query), as `query:popularity`. */
async function suggestions(indexName: string): Promise<string[]> {
  return [...(await records(indexName)).values()]
    .sort((a, b) => b.popularity - a.popularity || (a.query < b.query ? -1 : 1))
    .map((record) => `${record.query}:${record.popularity}`);
}

interface LogLine {
  timestamp: string;
  level: 'INFO' | 'SKIP' | 'ERROR';
  message: string;
  contextLevel: number;
}

async function buildLog(indexName: string): Promise<LogLine[]> {
  const answer = await svc.call('GET', `/1/logs/${indexName}`);
  assert.equal(answer.status, 200, String(answer.body));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/x-ndjson/);
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  assert.ok(text.endsWith('\n'));
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
}

/** Replaces the configuration and rebuilds it. */
async function configure(config: Record<string, unknown>, indexName = 'shop_qs') {
  await svc.ok('PUT', `/1/configs/${indexName}`, config);
  await rebuild(indexName);
}

before(async () => {
  svc = await startService();
  await index(svc, 'shop', RECORDS, SETTINGS);
  // The scenario (popular searches of the last 30 days, each by a user of its own unless said):
  for (let i = 0; i < 2; i++) await search('shop', { query: 'chair', facetFilters: ['brand:Hon'] });
  await search('shop', { query: 'chair', facetFilters: ['brand:Acme'] });
  await search('shop', { query: 'chair' });
  await search('shop', { query: 'Chair' }); // same suggestion as "chair": 5 searches
  for (let i = 0; i < 2; i++) await search('shop', { query: 'chairs' });
  await search('shop', { query: 'lamp', facetFilters: ['brand:Tensor'] });
  for (let i = 0; i < 2; i++) await search('shop', { query: 'lamp' });
  // One user typing: l, la, lam, lamp within 5 s count as one search of "lamp" (4 in all).
  for (const query of ['l', 'la', 'lam', 'lamp']) await search('shop', { query }, 'typist');
  for (let i = 0; i < 2; i++) await search('shop', { query: 'desk' });
  for (let i = 0; i < 2; i++) await search('shop', { query: 'cheap desk' });
  for (let i = 0; i < 2; i++) await search('shop', { query: 'xyz' });
  await search('shop', { query: 'ch' });
  await search('shop', { query: '' });
  await search('shop', { query: 'cushion', analyticsTags: ['mobile'] });
  // On the replica: "oak" once, "desk" once.
  await search('shop_newest', { query: 'oak' });
  await search('shop_newest', { query: 'desk' });
  // Not recorded: analytics false.
  await search('shop', { query: 'table', analytics: false });
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

describe('status, reads and rebuilds', () => {
  test('status: isRunning during a build, lastBuiltAt after it; the build comes right after the answer', async () => {
    // 2,000 records with a word each: generate gives 2,000 candidates to search, a build long enough to watch.
    await index(
      svc,
      'parts',
      Array.from({ length: 2000 }, (_, i) => ({ objectID: `p${i}`, sku: `part${i}x` })),
      { attributesForFaceting: ['sku'] },
    );
    const created = await svc.call('POST', '/1/configs', {
      indexName: 'parts_qs',
      sourceIndices: [{ indexName: 'parts', minHits: 1, generate: [['sku']] }],
    });
    assert.equal(created.status, 200);
    const during = (await svc.ok('GET', '/1/configs/parts_qs/status')) as Status;
    assert.deepEqual(during, {
      indexName: 'parts_qs',
      isRunning: true,
      lastBuiltAt: null,
      lastSuccessfulBuiltAt: null,
      lastSuccessfulBuildDuration: null,
    });
    // Other calls are answered during the build (it gives the event loop back).
    assert.equal((await svc.call('POST', '/1/indexes/shop/query', { query: 'oak', analytics: false })).status, 200);
    const after1 = await built('parts_qs');
    assert.equal((await records('parts_qs')).size, 2000);
    const first = after1 as Status & { lastSuccessfulBuiltAt: string; lastSuccessfulBuildDuration: string };
    assert.equal(first.lastSuccessfulBuiltAt, first.lastBuiltAt);
    assert.match(first.lastSuccessfulBuildDuration, /^\d+\.\d{3}$/);

    // An update answers at once and builds again; two rebuild requests during it queue one more build.
    await svc.ok('PUT', '/1/configs/parts_qs', {
      sourceIndices: [{ indexName: 'parts', minHits: 1, minLetters: 7, generate: [['sku']] }],
    });
    assert.equal(((await svc.ok('GET', '/1/configs/parts_qs/status')) as Status).isRunning, true);
    const [a, b] = await Promise.all([rebuild('parts_qs'), rebuild('parts_qs')]);
    assert.equal(a.isRunning, false);
    assert.equal(a.lastBuiltAt, b.lastBuiltAt);
    assert.ok(Date.parse(a.lastBuiltAt!) > Date.parse(first.lastBuiltAt!));
    // part0x … part9x have 6 letters: 10 fewer.
    assert.equal((await records('parts_qs')).size, 1990);
    await svc.ok('DELETE', '/1/configs/parts_qs');
  });

  test('read answers: minHit, replicas, every default filled; the list of configurations', async () => {
    await svc.ok('POST', '/1/configs', {
      indexName: 'shop_mobile_qs',
      sourceIndices: [{ indexName: 'shop', analyticsTags: ['mobile'] }],
    });
    await built('shop_mobile_qs');
    const config = await svc.ok('GET', '/1/configs/shop_mobile_qs');
    assert.deepEqual(config, {
      appID: APP_ID,
      indexName: 'shop_mobile_qs',
      sourceIndices: [
        {
          indexName: 'shop',
          replicas: false,
          analyticsTags: ['mobile'],
          facets: [],
          minHit: 0,
          minLetters: 0,
          generate: [],
          external: [],
        },
      ],
      languages: [],
      exclude: [],
    });
    assert.deepEqual(await suggestions('shop_mobile_qs'), ['cushion:1']);
    const base = await svc.ok('GET', '/1/configs/shop_qs');
    assert.deepEqual(base.sourceIndices[0], {
      indexName: 'shop',
      replicas: false,
      analyticsTags: [],
      facets: FACETS,
      minHit: 1,
      minLetters: 3,
      generate: [['brand', 'category']],
      external: [],
    });
    // A read answer can be sent back as it is (minHit, appID).
    await svc.ok('PUT', '/1/configs/shop_mobile_qs', config);
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_mobile_qs'), config);
    const list = await svc.ok('GET', '/1/configs');
    assert.deepEqual(
      list.map((item: { indexName: string }) => item.indexName),
      ['shop_qs', 'shop_mobile_qs'],
    );
    assert.deepEqual(list[1], config);
  });

  test('PUT creates a configuration too (deprecated)', async () => {
    const answer = await svc.call('PUT', '/1/configs/shop_put_qs', {
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3 }],
    });
    assert.equal(answer.status, 200);
    assert.match(answer.body.message, /deprecated/);
    await built('shop_put_qs');
    // No languages and no exclude: chairs and cheap desk are suggestions.
    assert.deepEqual(await suggestions('shop_put_qs'), [
      'chair:5',
      'lamp:4',
      'chairs:2',
      'cheap desk:2',
      'desk:2',
      'cushion:1',
    ]);
  });

  test('delete stops the updates and leaves the suggestions index', async () => {
    const before = await records('shop_put_qs');
    const answer = await svc.call('DELETE', '/1/configs/shop_put_qs');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 200);
    assert.equal((await svc.call('GET', '/1/configs/shop_put_qs')).status, 404);
    assert.equal((await svc.call('GET', '/1/configs/shop_put_qs/status')).status, 404);
    assert.equal((await svc.call('GET', '/1/logs/shop_put_qs')).status, 404);
    assert.equal((await svc.call('POST', '/1/_local/configs/shop_put_qs/build')).status, 404);
    assert.deepEqual(await records('shop_put_qs'), before);
    assert.ok(
      !(await svc.ok('GET', '/1/configs')).some((item: { indexName: string }) => item.indexName === 'shop_put_qs'),
    );
  });
});

describe('errors', () => {
  test('401 without or with wrong credentials, 403 for any key but the admin key', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/1/configs', BASE],
      ['GET', '/1/configs'],
      ['GET', '/1/configs/shop_qs'],
      ['PUT', '/1/configs/shop_qs', BASE],
      ['DELETE', '/1/configs/shop_qs'],
      ['GET', '/1/configs/shop_qs/status'],
      ['GET', '/1/logs/shop_qs'],
      ['POST', '/1/_local/configs/shop_qs/build'],
    ];
    const allRights = await svc.ok('POST', '/1/keys', {
      acl: [
        'search',
        'browse',
        'addObject',
        'deleteObject',
        'deleteIndex',
        'settings',
        'editSettings',
        'analytics',
        'listIndexes',
        'logs',
      ],
    });
    for (const [method, path, body] of routes) {
      for (const options of [{ key: null }, { key: 'wrong-key' }, { appId: 'OTHER' }]) {
        const answer = await svc.call(method, path, body, options);
        assert.equal(answer.status, 401, `${method} ${path} ${JSON.stringify(options)}`);
        assert.match(
          answer.body.message,
          options.key === null ? /are required/ : /^Invalid Application-Id or API-Key$/,
        );
      }
      for (const key of [SEARCH_KEY, allRights.key as string]) {
        const answer = await svc.call(method, path, body, { key });
        assert.equal(answer.status, 403, `${method} ${path}`);
        assert.equal(typeof answer.body.message, 'string');
      }
    }
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs'), (await svc.ok('GET', '/1/configs'))[0]);
  });

  test('400 for a body that is not a JSON object or a path that cannot be an index name', async () => {
    for (const raw of ['{"indexName":', '[]', '"shop_qs"', 'null']) {
      const answer = await svc.call('POST', '/1/configs', undefined, { raw });
      assert.equal(answer.status, 400, raw);
      assert.equal(typeof answer.body.message, 'string');
    }
    assert.equal((await svc.call('PUT', '/1/configs/x', undefined, { raw: '{' })).status, 400);
    for (const path of ['/1/configs/a*b', '/1/configs/a*b/status', '/1/logs/a*b']) {
      assert.equal((await svc.call('GET', path)).status, 400, path);
    }
  });

  test('422 naming the invalid field', async () => {
    const source = { indexName: 'shop' };
    const cases: Array<[unknown, RegExp]> = [
      [{ sourceIndices: [source] }, /^indexName: is required/],
      [{ indexName: '', sourceIndices: [source] }, /^indexName: /],
      [{ indexName: 'a*', sourceIndices: [source] }, /^indexName: /],
      [{ indexName: 'q' }, /^sourceIndices: is required/],
      [{ indexName: 'q', sourceIndices: [] }, /^sourceIndices: must be a non-empty list/],
      [{ indexName: 'q', sourceIndices: {} }, /^sourceIndices: /],
      [{ indexName: 'q', sourceIndices: [{}] }, /^sourceIndices\[0\]\.indexName: is required/],
      [{ indexName: 'q', sourceIndices: ['shop'] }, /^sourceIndices\[0\]: must be an object/],
      [
        { indexName: 'q', sourceIndices: [{ ...source, minHits: -1 }] },
        /^sourceIndices\[0\]\.minHits: must be an integer ≥ 0/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, minHits: 1.5 }] }, /^sourceIndices\[0\]\.minHits: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, minHit: '2' }] }, /^sourceIndices\[0\]\.minHit: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, minHits: 1, minHit: 2 }] },
        /^sourceIndices\[0\]\.minHits: differs/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, minLetters: 'x' }] }, /^sourceIndices\[0\]\.minLetters: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, replicas: 'yes' }] }, /^sourceIndices\[0\]\.replicas: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, analyticsTags: 'mobile' }] },
        /^sourceIndices\[0\]\.analyticsTags: must be a list/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, analyticsTags: [1] }] },
        /^sourceIndices\[0\]\.analyticsTags\[0\]: /,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand' }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.amount: is required/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ amount: 2 }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.attribute: is required/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand', amount: 0 }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.amount: must be an integer from 1 to 1000/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand', amount: 1, sort: 'x' }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.sort: is not a field/,
      ],
      [
        {
          indexName: 'q',
          sourceIndices: [
            {
              ...source,
              facets: [
                { attribute: 'b', amount: 1 },
                { attribute: 'b', amount: 2 },
              ],
            },
          ],
        },
        /^sourceIndices\[0\]\.facets\[1\]\.attribute: "b" is listed twice/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, generate: ['brand'] }] },
        /^sourceIndices\[0\]\.generate\[0\]: must be a non-empty list/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, generate: [[]] }] }, /^sourceIndices\[0\]\.generate\[0\]: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, external: ['a*'] }] }, /^sourceIndices\[0\]\.external\[0\]: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, colour: 'red' }] },
        /^sourceIndices\[0\]\.colour: is not a field/,
      ],
      [{ indexName: 'q', sourceIndices: [source, source] }, /^sourceIndices\[1\]\.indexName: "shop" is listed twice/],
      [
        { indexName: 'q', sourceIndices: [{ indexName: 'popularity' }] },
        /^sourceIndices\[0\]\.indexName: "popularity" is an attribute of every suggestion record/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ indexName: 'q' }] },
        /^sourceIndices\[0\]\.indexName: the suggestions index "q" cannot be one of its own source indices/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, external: ['q'] }] },
        /^sourceIndices\[0\]\.external\[0\]: the suggestions index "q" cannot be/,
      ],
      [{ indexName: 'q', sourceIndices: [source], languages: 'en' }, /^languages: must be a list/],
      [
        { indexName: 'q', sourceIndices: [source], languages: ['english'] },
        /^languages\[0\]: "english" is not a supported language code/,
      ],
      [{ indexName: 'q', sourceIndices: [source], exclude: [''] }, /^exclude\[0\]: must be a non-empty string/],
      [
        { indexName: 'q', sourceIndices: [source], enablePersonalization: true },
        /^enablePersonalization: is not a field/,
      ],
      [{ ...BASE }, /^indexName: a Query Suggestions configuration for shop_qs exists already/],
    ];
    for (const [body, message] of cases) {
      const answer = await svc.call('POST', '/1/configs', body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys(answer.body), ['message']);
      assert.match(answer.body.message, message, JSON.stringify(body));
    }
    const mismatch = await svc.call('PUT', '/1/configs/shop_qs', { ...BASE, indexName: 'other' });
    assert.equal(mismatch.status, 422);
    assert.match(mismatch.body.message, /^indexName: "other" differs from the index of the path/);
    const selfSource = await svc.call('PUT', '/1/configs/shop', { sourceIndices: [{ indexName: 'shop' }] });
    assert.equal(selfSource.status, 422);
    // Nothing of the refused calls was kept.
    assert.deepEqual(
      (await svc.ok('GET', '/1/configs')).map((item: { indexName: string }) => item.indexName),
      ['shop_qs', 'shop_mobile_qs'],
    );
  });

  test('404 for an unknown configuration, and for the log of one that was never built', async () => {
    for (const [method, path] of [
      ['GET', '/1/configs/nothing'],
      ['DELETE', '/1/configs/nothing'],
      ['GET', '/1/configs/nothing/status'],
      ['GET', '/1/logs/nothing'],
      ['POST', '/1/_local/configs/nothing/build'],
    ] as const) {
      const answer = await svc.call(method, path);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.deepEqual(Object.keys(answer.body), ['message']);
    }
  });

  test('up to 100 configurations per application', async () => {
    await index(svc, 'tiny', [{ objectID: '1', name: 'tiny' }]);
    const existing = (await svc.ok('GET', '/1/configs')).length as number;
    const names = Array.from({ length: 100 - existing }, (_, i) => `tiny_qs_${i}`);
    for (const name of names)
      await svc.ok('POST', '/1/configs', { indexName: name, sourceIndices: [{ indexName: 'tiny' }] });
    assert.equal((await svc.ok('GET', '/1/configs')).length, 100);
    const refused = await svc.call('POST', '/1/configs', {
      indexName: 'tiny_qs_extra',
      sourceIndices: [{ indexName: 'tiny' }],
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /Up to 100 Query Suggestions configurations/);
    assert.equal(
      (await svc.call('PUT', '/1/configs/tiny_qs_extra', { sourceIndices: [{ indexName: 'tiny' }] })).status,
      403,
    );
    // Updating one of the 100 is not creating.
    await svc.ok('PUT', `/1/configs/${names[0]}`, { sourceIndices: [{ indexName: 'tiny', minLetters: 2 }] });
    await svc.ok('DELETE', `/1/configs/${names[0]}`);
    await svc.ok('POST', '/1/configs', { indexName: 'tiny_qs_extra', sourceIndices: [{ indexName: 'tiny' }] });
    for (const name of [...names.slice(1), 'tiny_qs_extra']) {
      await built(name);
      await svc.ok('DELETE', `/1/configs/${name}`);
    }
    assert.equal((await svc.ok('GET', '/1/configs')).length, existing);
  });
});

describe('the official client', () => {
  test('algoliasearch v5 querySuggestionsClient: create, read, status, list, update, delete', async () => {
    const requester = {
      async send(request: {
        method: string;
        url: string;
        headers: Record<string, string>;
        data?: string | Uint8Array;
      }) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
        const response = await fetch(request.url, {
          method: request.method,
          headers,
          ...(request.data === undefined ? {} : { body: request.data as string }),
        });
        return { content: await response.text(), isTimedOut: false, status: response.status };
      },
    };
    const client = algoliasearch(APP_ID, ADMIN_KEY).initQuerySuggestions({
      region: 'us',
      options: { hosts: [{ url: new URL(svc.url).host, accept: 'readWrite', protocol: 'http' }], requester },
    });
    const created = await client.createConfig({
      indexName: 'shop_client_qs',
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 4 }],
      languages: ['en'],
      exclude: ['cheap'],
    });
    assert.equal(created.status, 200);
    await built('shop_client_qs');
    const config = await client.getConfig({ indexName: 'shop_client_qs' });
    assert.equal(config.appID, APP_ID);
    assert.equal((config.sourceIndices[0] as Record<string, unknown>).minHit, 1);
    const status = await client.getConfigStatus({ indexName: 'shop_client_qs' });
    assert.equal(status.isRunning, false);
    assert.equal(typeof status.lastBuiltAt, 'string');
    assert.ok((await client.getAllConfigs()).some((item) => item.indexName === 'shop_client_qs'));
    await client.updateConfig({
      indexName: 'shop_client_qs',
      configuration: { sourceIndices: [{ indexName: 'shop', minHits: 3 }] },
    });
    await rebuild('shop_client_qs');
    // No languages, exclude or minLetters any more: chair 4 hits, chairs 4, desk 3, ch 5 (lamp 2, cheap desk 1, cushion 1 are skipped).
    assert.deepEqual(await suggestions('shop_client_qs'), ['chair:5', 'chairs:2', 'desk:2', 'ch:1']);
    assert.equal((await client.deleteConfig({ indexName: 'shop_client_qs' })).status, 200);
    await assert.rejects(
      client.getConfig({ indexName: 'shop_client_qs' }),
      (error: { status?: number }) => error.status === 404,
    );
  });
});

describe('durability', () => {
  test('configurations, status, log and suggestions survive a restart', async () => {
    const config = await svc.ok('GET', '/1/configs/shop_qs');
    const status = await svc.ok('GET', '/1/configs/shop_qs/status');
    const log = await buildLog('shop_qs');
    const suggestionRecords = await records('shop_qs');
    const list = await svc.ok('GET', '/1/configs');
    const dataDir = svc.dataDir;
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir });
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs'), config);
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs/status'), status);
    assert.deepEqual(await buildLog('shop_qs'), log);
    assert.deepEqual(await records('shop_qs'), suggestionRecords);
    assert.deepEqual(await svc.ok('GET', '/1/configs'), list);
    // The searches are still there: a rebuild gives the same suggestions.
    await rebuild('shop_qs');
    assert.deepEqual(await records('shop_qs'), suggestionRecords);
  });
});
