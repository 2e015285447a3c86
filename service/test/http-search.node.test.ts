/**
 * Search over HTTP: POST (params string and body parameters) and GET, multi-query with both
 * strategies, facet value search, browse with a cursor, clickAnalytics → queryID in the search log,
 * filter syntax, and every error code for bad input (400, 404, 413 — never 500).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
const asSearch = { key: SEARCH_KEY };

const FURNITURE = [
  {
    objectID: 'f1',
    name: 'Oak chair',
    brand: 'Hon',
    color: 'brown',
    price: 120,
    stock: 4,
    _tags: ['sale'],
    'product type': 'seat',
  },
  {
    objectID: 'f2',
    name: 'Office chair deluxe',
    brand: 'Hon',
    color: 'black',
    price: 300,
    stock: 0,
    _tags: ['new'],
    'product type': 'seat',
  },
  {
    objectID: 'f3',
    name: 'Standing desk',
    brand: 'Bush',
    color: 'white',
    price: 450,
    stock: 2,
    _tags: ['new', 'sale'],
    'product type': 'table',
  },
  {
    objectID: 'f4',
    name: 'Bookcase',
    brand: 'Bush',
    color: 'brown',
    price: 90,
    stock: 10,
    _tags: [],
    'product type': 'storage',
  },
  {
    objectID: 'f5',
    name: 'Chair mat',
    brand: 'Deflect-o',
    color: 'clear',
    price: 30,
    stock: 7,
    _tags: ['sale'],
    'product type': 'accessory',
  },
];

before(async () => {
  svc = await startService();
  await index(svc, 'furniture', FURNITURE, {
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['searchable(brand)', 'color', 'price', 'stock', 'product type'],
    customRanking: ['desc(stock)'],
  });
  await index(svc, 'empty', []);
});
after(() => svc.stop());

const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID);
const sorted = (answer: { hits: Array<{ objectID: string }> }) => ids(answer).sort();

describe('search one index', () => {
  test('POST with parameters in the body: the document’s response fields', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      { query: 'chair', hitsPerPage: 2, facets: ['brand', 'price'] },
      asSearch,
    );
    for (const field of [
      'hits',
      'page',
      'nbHits',
      'nbPages',
      'hitsPerPage',
      'processingTimeMS',
      'query',
      'params',
      'exhaustiveNbHits',
      'facets',
      'facets_stats',
    ]) {
      assert.ok(field in answer, field);
    }
    assert.equal(answer.nbHits, 3);
    assert.equal(answer.nbPages, 2);
    assert.equal(answer.hits.length, 2);
    assert.equal(answer.query, 'chair');
    assert.deepEqual(answer.facets.brand, { Hon: 2, 'Deflect-o': 1 });
    assert.deepEqual(answer.facets_stats.price, { min: 30, max: 300, avg: 150, sum: 450 });
    assert.equal(answer.hits[0]._highlightResult.name.matchLevel, 'full');
    assert.match(answer.hits[0]._highlightResult.name.value, /<em>[Cc]hair<\/em>/);
    assert.equal(typeof answer.params, 'string');
    assert.equal(answer.queryID, undefined);
  });

  test('answers are JSON with charset UTF-8, also errors', async () => {
    const ok = await svc.call('POST', '/1/indexes/furniture/query', { query: 'chair' }, asSearch);
    assert.equal(ok.headers.get('content-type'), 'application/json; charset=UTF-8');
    const notFound = await svc.call('POST', '/1/indexes/nope/query', {}, asSearch);
    assert.equal(notFound.headers.get('content-type'), 'application/json; charset=UTF-8');
  });

  test('POST with a params string, and GET with the query string, give the same hits', async () => {
    const viaParams = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      { params: 'query=chair&filters=brand%3AHon' },
      asSearch,
    );
    const viaGet = await svc.ok('GET', '/1/indexes/furniture?query=chair&filters=brand%3AHon', undefined, asSearch);
    assert.deepEqual(sorted(viaParams), ['f1', 'f2']);
    assert.deepEqual(ids(viaGet), ids(viaParams));
    // Body fields win over the same names in params.
    const both = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      { params: 'query=desk', query: 'bookcase' },
      asSearch,
    );
    assert.deepEqual(ids(both), ['f4']);
  });

  test('customRanking breaks ties (desc(stock))', async () => {
    const answer = await svc.ok('POST', '/1/indexes/furniture/query', { query: '' }, asSearch);
    assert.deepEqual(ids(answer), ['f4', 'f5', 'f1', 'f3', 'f2']);
  });

  test('clickAnalytics adds a 32-hex queryID recorded in the search log', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      {
        query: 'chair',
        clickAnalytics: true,
        userToken: 'u-1',
        analytics: true,
        analyticsTags: ['web'],
        ruleContexts: ['home'],
        enablePersonalization: false,
      },
      asSearch,
    );
    assert.match(answer.queryID, /^[0-9a-f]{32}$/);
    const entry = await svc.service.services.searchLog.get(answer.queryID);
    assert.ok(entry);
    assert.equal(entry.indexName, 'furniture');
    assert.equal(entry.query, 'chair');
    assert.equal(entry.userToken, 'u-1');
    assert.deepEqual(entry.objectIDs, ids(answer));
    const again = await svc.ok('GET', '/1/indexes/furniture?query=chair&clickAnalytics=true', undefined, asSearch);
    assert.notEqual(again.queryID, answer.queryID);
  });

  test('offset/length, getRankingInfo, attributesToRetrieve, typoTolerance, distinct accepted', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      {
        query: 'chiar',
        offset: 1,
        length: 1,
        getRankingInfo: true,
        attributesToRetrieve: ['name'],
        typoTolerance: true,
      },
      asSearch,
    );
    assert.equal(answer.hits.length, 1);
    assert.deepEqual(
      Object.keys(answer.hits[0])
        .filter((key) => !key.startsWith('_'))
        .sort(),
      ['name', 'objectID'],
    );
    for (const field of [
      'nbTypos',
      'firstMatchedWord',
      'proximityDistance',
      'userScore',
      'geoDistance',
      'geoPrecision',
      'nbExactWords',
    ]) {
      assert.equal(typeof answer.hits[0]._rankingInfo[field], 'number', field);
    }
    const strict = await svc.ok(
      'POST',
      '/1/indexes/furniture/query',
      { query: 'chiar', typoTolerance: false },
      asSearch,
    );
    assert.equal(strict.nbHits, 0);
  });

  test('values are HTML-escaped in highlights', async () => {
    await svc.ok('PUT', '/1/indexes/xss/1', { name: '<img src=x onerror=alert(1)> chair' });
    const answer = await svc.ok('POST', '/1/indexes/xss/query', { query: 'chair' });
    const value = answer.hits[0]._highlightResult.name.value as string;
    assert.ok(!value.includes('<img'), value);
    assert.match(value, /&lt;img/);
    assert.match(value, /<em>chair<\/em>/);
  });
});

describe('filter syntax over HTTP', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['attr:value', { filters: 'brand:Hon' }, ['f1', 'f2']],
    ['quoted value and attribute with a space', { filters: '"product type":"seat"' }, ['f1', 'f2']],
    ['numeric comparison', { filters: 'price > 100' }, ['f1', 'f2', 'f3']],
    ['numeric <= and =', { filters: 'price <= 90 AND stock = 10' }, ['f4']],
    ['numeric !=', { filters: 'stock != 0 AND price >= 120' }, ['f1', 'f3']],
    ['range TO', { filters: 'price:100 TO 300' }, ['f1', 'f2']],
    ['_tags', { filters: '_tags:sale' }, ['f1', 'f3', 'f5']],
    ['OR', { filters: 'color:white OR color:clear' }, ['f3', 'f5']],
    ['NOT', { filters: 'NOT brand:Hon' }, ['f3', 'f4', 'f5']],
    ['parentheses', { filters: '(color:brown OR color:black) AND price < 200' }, ['f1', 'f4']],
    ['facetFilters AND', { facetFilters: ['brand:Bush', 'color:brown'] }, ['f4']],
    ['facetFilters nested OR', { facetFilters: [['color:white', 'color:clear'], 'price:30'] }, ['f5']],
    ['facetFilters negation', { facetFilters: ['brand:-Hon'] }, ['f3', 'f4', 'f5']],
    ['numericFilters', { numericFilters: ['price>=100', 'stock>0'] }, ['f1', 'f3']],
    ['numericFilters nested OR', { numericFilters: [['price<50', 'price>400']] }, ['f3', 'f5']],
    ['tagFilters', { tagFilters: [['new', 'sale'], 'sale'] }, ['f1', 'f3', 'f5']],
    [
      'params string with comma-separated facetFilters',
      { params: 'facetFilters=brand%3ABush%2Ccolor%3Awhite' },
      ['f3'],
    ],
  ];
  for (const [name, params, expected] of cases) {
    test(name, async () => {
      const answer = await svc.ok('POST', '/1/indexes/furniture/query', { query: '', ...params }, asSearch);
      assert.deepEqual(sorted(answer), expected);
    });
  }

  test('bad filter strings answer 400 with a message naming the problem', async () => {
    for (const filters of ['brand:Hon AND', '(brand:Hon', 'price > abc', 'brand:Hon OR OR color:black', ':x']) {
      const answer = await svc.call('POST', '/1/indexes/furniture/query', { filters }, asSearch);
      assert.equal(answer.status, 400, filters);
      assert.equal(typeof answer.body.message, 'string');
      assert.ok(answer.body.message.length > 10, answer.body.message);
    }
    const facetFilters = await svc.call('POST', '/1/indexes/furniture/query', { facetFilters: [[['a:b']]] }, asSearch);
    assert.equal(facetFilters.status, 400);
  });
});

describe('multi-query', () => {
  test('strategy none runs every query; results carry index, in order', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/*/queries',
      {
        requests: [
          { indexName: 'furniture', params: 'query=chair&hitsPerPage=1' },
          { indexName: 'furniture', params: 'query=desk' },
          { indexName: 'empty', params: 'query=x' },
        ],
      },
      asSearch,
    );
    assert.equal(answer.results.length, 3);
    assert.deepEqual(
      answer.results.map((result: { index: string }) => result.index),
      ['furniture', 'furniture', 'empty'],
    );
    assert.equal(answer.results[0].nbHits, 3);
    assert.deepEqual(ids(answer.results[1]), ['f3']);
    assert.equal(answer.results[2].nbHits, 0);
  });

  test('stopIfEnoughMatches skips the later queries once one has enough hits', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/*/queries',
      {
        strategy: 'stopIfEnoughMatches',
        requests: [
          { indexName: 'furniture', params: 'query=desk&hitsPerPage=5' },
          { indexName: 'furniture', params: 'query=chair&hitsPerPage=2' },
          { indexName: 'furniture', params: 'query=bookcase&hitsPerPage=2' },
        ],
      },
      asSearch,
    );
    assert.equal(answer.results[0].nbHits, 1);
    assert.equal(answer.results[0].processed, undefined);
    assert.equal(answer.results[1].nbHits, 3);
    assert.deepEqual(answer.results[2].hits, []);
    assert.equal(answer.results[2].processed, false);
    assert.equal(answer.results[2].index, 'furniture');
  });

  test('facet-type requests, parameters as objects, clickAnalytics per query', async () => {
    const answer = await svc.ok(
      'POST',
      '/1/indexes/*/queries',
      {
        requests: [
          { indexName: 'furniture', query: 'chair', clickAnalytics: true },
          { indexName: 'furniture', type: 'facet', facet: 'brand', facetQuery: 'bu' },
        ],
      },
      asSearch,
    );
    assert.match(answer.results[0].queryID, /^[0-9a-f]{32}$/);
    assert.deepEqual(
      answer.results[1].facetHits.map((hit: { value: string }) => hit.value),
      ['Bush'],
    );
  });

  test('errors: unknown index 404, bad strategy 400, requests not a list 400, bad params 400', async () => {
    assert.equal(
      (await svc.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'nope' }] }, asSearch)).status,
      404,
    );
    assert.equal(
      (await svc.call('POST', '/1/indexes/*/queries', { requests: [], strategy: 'fast' }, asSearch)).status,
      400,
    );
    assert.equal((await svc.call('POST', '/1/indexes/*/queries', { requests: {} }, asSearch)).status, 400);
    assert.equal(
      (await svc.call('POST', '/1/indexes/*/queries', { requests: [{ params: 'query=x' }] }, asSearch)).status,
      400,
    );
    assert.equal(
      (
        await svc.call(
          'POST',
          '/1/indexes/*/queries',
          { requests: [{ indexName: 'furniture', params: 'hitsPerPage=lots' }] },
          asSearch,
        )
      ).status,
      400,
    );
  });
});

describe('search for facet values', () => {
  test('facetHits with value, highlighted and count, honouring the other parameters', async () => {
    const answer = await svc.ok('POST', '/1/indexes/furniture/facets/brand/query', { facetQuery: 'h' }, asSearch);
    assert.deepEqual(
      answer.facetHits.map((hit: { value: string; count: number }) => [hit.value, hit.count]),
      [['Hon', 2]],
    );
    assert.match(answer.facetHits[0].highlighted, /<em>H<\/em>on/);
    const filtered = await svc.ok(
      'POST',
      '/1/indexes/furniture/facets/brand/query',
      { facetQuery: '', params: 'filters=color%3Abrown' },
      asSearch,
    );
    assert.deepEqual(filtered.facetHits.map((hit: { value: string; count: number }) => [hit.value, hit.count]).sort(), [
      ['Bush', 1],
      ['Hon', 1],
    ]);
    const limited = await svc.ok('POST', '/1/indexes/furniture/facets/brand/query', { maxFacetHits: 1 }, asSearch);
    assert.equal(limited.facetHits.length, 1);
  });

  test('400 for a facet that is not searchable(...) and for maxFacetHits above 100; 404 unknown index', async () => {
    const notSearchable = await svc.call(
      'POST',
      '/1/indexes/furniture/facets/color/query',
      { facetQuery: 'b' },
      asSearch,
    );
    assert.equal(notSearchable.status, 400);
    assert.match(notSearchable.body.message, /searchable/);
    assert.equal(
      (await svc.call('POST', '/1/indexes/furniture/facets/brand/query', { maxFacetHits: 101 }, asSearch)).status,
      400,
    );
    assert.equal((await svc.call('POST', '/1/indexes/nope/facets/brand/query', {}, asSearch)).status, 404);
  });
});

describe('browse', () => {
  test('at most 1,000 records a call; the cursor leads through every record and is absent at the end', async () => {
    const records = Array.from({ length: 2345 }, (_, i) => ({ objectID: `r${i}`, n: i, even: i % 2 === 0 }));
    await index(svc, 'big', records, { attributesForFaceting: ['even'] });
    const seen = new Set<string>();
    let answer = await svc.ok('POST', '/1/indexes/big/browse', {}, asSearch);
    let calls = 1;
    for (const hit of answer.hits) seen.add(hit.objectID);
    assert.equal(answer.hits.length, 1000);
    while (answer.cursor) {
      answer =
        calls % 2
          ? await svc.ok(
              'GET',
              `/1/indexes/big/browse?cursor=${encodeURIComponent(answer.cursor)}`,
              undefined,
              asSearch,
            )
          : await svc.ok('POST', '/1/indexes/big/browse', { cursor: answer.cursor }, asSearch);
      calls += 1;
      assert.ok(answer.hits.length <= 1000);
      for (const hit of answer.hits) seen.add(hit.objectID);
    }
    assert.equal(calls, 3);
    assert.equal(seen.size, 2345);
    assert.equal('cursor' in answer, false);

    const filtered = await svc.ok('POST', '/1/indexes/big/browse', { params: 'filters=even%3Atrue' }, asSearch);
    assert.equal(filtered.nbHits, 1173);
    assert.equal(filtered.hits.length, 1000);
    const rest = await svc.ok('POST', '/1/indexes/big/browse', { cursor: filtered.cursor }, asSearch);
    assert.equal(rest.hits.length, 173);
    assert.ok(rest.hits.every((hit: { even: boolean }) => hit.even));
  });

  test('GET browse takes parameters in the query string (direct or as params)', async () => {
    const direct = await svc.ok(
      'GET',
      '/1/indexes/furniture/browse?filters=brand%3ABush&attributesToRetrieve=name',
      undefined,
      asSearch,
    );
    assert.deepEqual(sorted(direct), ['f3', 'f4']);
    assert.deepEqual(
      Object.keys(direct.hits[0])
        .filter((key) => !key.startsWith('_'))
        .sort(),
      ['name', 'objectID'],
    );
    const viaParams = await svc.ok(
      'GET',
      `/1/indexes/furniture/browse?params=${encodeURIComponent('filters=brand:Hon')}`,
      undefined,
      asSearch,
    );
    assert.deepEqual(sorted(viaParams), ['f1', 'f2']);
    assert.equal('cursor' in viaParams, false);
  });

  test('bad cursor 400, unknown index 404', async () => {
    assert.equal((await svc.call('POST', '/1/indexes/big/browse', { cursor: 'garbage!' }, asSearch)).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/big/browse', { cursor: 42 }, asSearch)).status, 400);
    assert.equal((await svc.call('GET', '/1/indexes/nope/browse', undefined, asSearch)).status, 404);
  });
});

describe('errors for bad input', () => {
  test('malformed JSON → 400 with a message', async () => {
    for (const raw of ['{"query":', '{query: "x"}', '\u0000', 'nul']) {
      const answer = await svc.call('POST', '/1/indexes/furniture/query', undefined, { ...asSearch, raw });
      assert.equal(answer.status, 400, raw);
      assert.match(answer.body.message, /JSON/);
    }
    const notUtf8 = await svc.call('POST', '/1/indexes/furniture/query', undefined, {
      ...asSearch,
      raw: Buffer.from([0x7b, 0xff, 0x7d]),
    });
    assert.equal(notUtf8.status, 400);
  });

  test('parameters of the wrong type → 400 naming the parameter', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hitsPerPage: 'ten' }, 'hitsPerPage'],
      [{ page: -1 }, 'page'],
      [{ query: { a: 1 } }, 'query'],
      [{ facets: 5 }, 'facets'],
      [{ getRankingInfo: 'maybe' }, 'getRankingInfo'],
      [{ attributesToRetrieve: [1, 2] }, 'attributesToRetrieve'],
      [{ params: 42 }, 'params'],
      [{ filters: 7 }, 'filters'],
      [{ hitsPerPage: 5000 }, 'hitsPerPage'],
    ];
    for (const [body, name] of cases) {
      const answer = await svc.call('POST', '/1/indexes/furniture/query', body, asSearch);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.ok(answer.body.message.includes(name), answer.body.message);
    }
    assert.equal((await svc.call('GET', '/1/indexes/furniture?hitsPerPage=abc', undefined, asSearch)).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/furniture/query', [1, 2], asSearch)).status, 400);
  });

  test('unknown index → 404 with a message; unknown path → 404', async () => {
    const answer = await svc.call('POST', '/1/indexes/nope/query', {}, asSearch);
    assert.equal(answer.status, 404);
    assert.match(answer.body.message, /nope/);
    assert.equal((await svc.call('GET', '/1/nothing/here')).status, 404);
  });

  test('gzip bodies are accepted; a bomb above the limit → 413, corrupt → 400, unknown encoding → 415', async () => {
    const zipped = gzipSync(JSON.stringify({ query: 'chair', hitsPerPage: 1 }));
    const answer = await svc.call('POST', '/1/indexes/furniture/query', undefined, {
      ...asSearch,
      raw: zipped,
      headers: { 'Content-Encoding': 'gzip' },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.nbHits, 3);
    const bomb = gzipSync(JSON.stringify({ query: ' '.repeat(11 * 1024 * 1024) }));
    assert.ok(bomb.length < 100_000);
    const exploded = await svc.call('POST', '/1/indexes/furniture/query', undefined, {
      ...asSearch,
      raw: bomb,
      headers: { 'Content-Encoding': 'gzip' },
    });
    assert.equal(exploded.status, 413);
    const corrupt = await svc.call('POST', '/1/indexes/furniture/query', undefined, {
      ...asSearch,
      raw: '{"query":"x"}',
      headers: { 'Content-Encoding': 'gzip' },
    });
    assert.equal(corrupt.status, 400);
    const unknown = await svc.call('POST', '/1/indexes/furniture/query', undefined, {
      ...asSearch,
      raw: '{}',
      headers: { 'Content-Encoding': 'zstd-ish' },
    });
    assert.equal(unknown.status, 415);
  });

  test('a body above 10 MB → 413', async () => {
    const raw = JSON.stringify({ query: 'x'.repeat(10 * 1024 * 1024 + 10) });
    const answer = await svc.call('POST', '/1/indexes/furniture/query', undefined, { ...asSearch, raw });
    assert.equal(answer.status, 413);
    assert.match(answer.body.message, /too large/);
  });
});
