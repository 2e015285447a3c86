/**
 * Search parameters by name: an unknown parameter is a 400 whose message names it, as the hosted API
 * answers — in the body and inside `params`, in search (POST and GET), multi-query, browse, facet value
 * search, delete by query and Recommend's `queryParameters` / `fallbackParameters`, and where parameters
 * are stored to be applied later (key `queryParameters`, rule consequences, A/B test variants). The
 * hosted API's own parameters that this engine does not apply are accepted. `responseFields` keeps only
 * the named top-level fields of an answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await svc.ok('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['searchable(brand)'] });
  const records = [];
  for (let i = 1; i <= 30; i++) records.push({ objectID: String(i), name: `Chair ${i}`, brand: i % 2 ? 'X' : 'Y' });
  await svc.ok('POST', '/1/indexes/shop/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
  await svc.ok('PUT', '/1/indexes/other/settings', {});
});
after(() => svc.stop());

async function refused(method: string, path: string, body: unknown, name: string) {
  const answer = await svc.call(method, path, body);
  assert.equal(answer.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
  assert.match(answer.body.message, new RegExp(`Unknown parameter: ${name}\\b`));
}

describe('an unknown parameter is a 400 naming it', () => {
  test('search: in the body, inside params, in a GET query string (the audit’s hitPerPage and filter)', async () => {
    await refused('POST', '/1/indexes/shop/query', { hitPerPage: 5 }, 'hitPerPage');
    await refused('POST', '/1/indexes/shop/query', { params: 'filter=brand:X' }, 'filter');
    await refused('GET', '/1/indexes/shop?hitPerPage=5', undefined, 'hitPerPage');
    await refused('GET', '/1/indexes/shop?params=filter%3Dbrand%3AX', undefined, 'filter');
    // A JSON body may name __proto__: it is a parameter name like any other, not a prototype.
    await refused('POST', '/1/indexes/shop/query', JSON.parse('{"__proto__": {"hitsPerPage": 1}}'), '__proto__');
    // The credentials and the client's agent in the URL are not search parameters.
    const get = await svc.ok('GET', '/1/indexes/shop?hitsPerPage=5&x-service-agent=Client%20(5.0)');
    assert.equal(get.hits.length, 5);
  });

  test('multi-query, browse (POST and GET), facet value search', async () => {
    await refused(
      'POST',
      '/1/indexes/*/queries',
      { requests: [{ indexName: 'shop' }, { indexName: 'shop', params: 'hitPerPage=2' }] },
      'hitPerPage',
    );
    await refused('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop', hitPerPage: 2 }] }, 'hitPerPage');
    await refused('POST', '/1/indexes/shop/browse', { filter: 'brand:X' }, 'filter');
    await refused('GET', '/1/indexes/shop/browse?filter=brand%3AX', undefined, 'filter');
    await refused('POST', '/1/indexes/shop/facets/brand/query', { facetQuery: 'x', hitPerPage: 1 }, 'hitPerPage');
    await refused('POST', '/1/indexes/shop/deleteByQuery', { filter: 'brand:X' }, 'filter');
    assert.equal((await svc.ok('POST', '/1/indexes/shop/query', {})).nbHits, 30, 'nothing was deleted');
  });

  test('Recommend: queryParameters and fallbackParameters', async () => {
    const base = { indexName: 'shop', model: 'trending-items', threshold: 0 };
    for (const field of ['queryParameters', 'fallbackParameters']) {
      const answer = await svc.call('POST', '/1/indexes/*/recommendations', {
        requests: [{ ...base, [field]: { hitPerPage: 2 } }],
      });
      assert.equal(answer.status, 400);
      assert.match(answer.body.message, new RegExp(`requests\\[0\\]\\.${field}: Unknown parameter: hitPerPage`));
    }
  });

  test('stored parameters: key queryParameters, rule consequence params, A/B test customSearchParameters', async () => {
    const key = await svc.call('POST', '/1/keys', { acl: ['search'], queryParameters: 'hitPerPage=1' });
    assert.equal(key.status, 400);
    assert.match(key.body.message, /queryParameters.*Unknown parameter: hitPerPage/);
    const rule = await svc.call('PUT', '/1/indexes/shop/rules/r1', { consequence: { params: { filter: 'brand:X' } } });
    assert.equal(rule.status, 400);
    assert.match(rule.body.message, /Unknown parameter: filter/);
    const abTest = await svc.call('POST', '/2/abtests', {
      name: 'typo',
      variants: [
        { index: 'shop', trafficPercentage: 50 },
        { index: 'other', trafficPercentage: 50, customSearchParameters: { hitPerPage: 3 } },
      ],
    });
    assert.equal(abTest.status, 422);
    assert.match(abTest.body.message, /Unknown parameter: hitPerPage/);
  });

  test('the hosted API’s own parameters are accepted even where this engine does not apply them', async () => {
    const answer = await svc.ok('POST', '/1/indexes/shop/query', {
      hitsPerPage: 2,
      percentileComputation: false,
      enableABTest: false,
      aroundLatLngViaIP: false,
      relevancyStrictness: 90,
      naturalLanguages: ['en'],
    });
    assert.equal(answer.hits.length, 2);
    assert.match(answer.params, /percentileComputation=false/);
    const search = await svc.call('POST', '/1/indexes/shop/query', { hitsPerPage: 2 }, { key: SEARCH_KEY });
    assert.equal(search.status, 200);
  });
});

describe('responseFields', () => {
  test('only the named top-level fields; cursor and queryID always; * is everything', async () => {
    const some = await svc.ok('POST', '/1/indexes/shop/query', {
      responseFields: ['nbHits', 'page'],
      clickAnalytics: true,
    });
    assert.deepEqual(Object.keys(some).sort(), ['nbHits', 'page', 'queryID']);
    const fromParams = await svc.ok('GET', '/1/indexes/shop?responseFields=hits,nbPages&hitsPerPage=1');
    assert.deepEqual(Object.keys(fromParams).sort(), ['hits', 'nbPages']);
    const all = await svc.ok('POST', '/1/indexes/shop/query', { responseFields: ['*'] });
    assert.ok('hits' in all && 'params' in all && 'processingTimeMS' in all);
    const browsed = await svc.ok('POST', '/1/indexes/shop/browse', { responseFields: ['nbHits'], hitsPerPage: 10 });
    assert.deepEqual(Object.keys(browsed).sort(), ['cursor', 'nbHits']);
  });

  test('multi-query: per request, and stopIfEnoughMatches still sees the counts it left out', async () => {
    const { results } = await svc.ok('POST', '/1/indexes/*/queries', {
      strategy: 'stopIfEnoughMatches',
      requests: [
        { indexName: 'shop', hitsPerPage: 5, responseFields: ['hits'] },
        { indexName: 'shop', query: 'chair' },
      ],
    });
    assert.deepEqual(Object.keys(results[0]), ['hits']);
    assert.equal(results[1].processed, false, 'the first query had enough hits, so the second was skipped');
  });

  test('an unknown field is a 400 naming it', async () => {
    const answer = await svc.call('POST', '/1/indexes/shop/query', { responseFields: ['hit'] });
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /Unknown field in responseFields: hit\b/);
  });
});
