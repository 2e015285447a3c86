/**
 * Restrictions only ever narrow (document 1, Authentication 3: "a front end cannot alter restrictions"):
 * a secured key's search parameters are ANDed with its parent key's forced `queryParameters`, never put
 * in their place — filters of every kind, page sizes (also against `offset`/`length`), attribute lists
 * and geo areas — in search, browse, facet value search, get object(s) and delete by query, for keys made
 * through `/1/keys` and index keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { securedKey, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await svc.ok('PUT', '/1/indexes/shop/settings', {
    searchableAttributes: ['name', 'secret'],
    attributesForFaceting: ['searchable(brand)', 'price'],
    customRanking: ['asc(price)'],
  });
  const records = [];
  for (let price = 10; price <= 100; price += 10) {
    records.push({
      objectID: `p${price}`,
      name: `Chair ${price}`,
      brand: price <= 50 ? 'Hon' : 'Acme',
      price,
      secret: `code${price}`,
      _tags: price % 20 === 0 ? ['even'] : ['odd'],
      _geoloc: { lat: 48 + price / 100, lng: 2 },
    });
  }
  await svc.ok('POST', '/1/indexes/shop/batch', { requests: records.map((body) => ({ action: 'addObject', body })) });
});
after(() => svc.stop());

const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID);
const search = async (key: string, params: Record<string, unknown> = {}) =>
  svc.ok('POST', '/1/indexes/shop/query', { hitsPerPage: 100, ...params }, { key });
async function keyWith(queryParameters: string, acl = ['search', 'browse']) {
  return (await svc.ok('POST', '/1/keys', { acl, queryParameters })).key as string;
}

describe('a secured key narrows its parent key', () => {
  test('filters: the parent’s forced `price > 50` and the secured `price < 75` both hold', async () => {
    const parent = await keyWith('filters=price%20%3E%2050');
    const secured = securedKey(parent, { filters: 'price < 75' });
    assert.deepEqual(ids(await search(secured)), ['p60', 'p70']);
    // The query's own filters narrow further and cannot escape either.
    assert.deepEqual(ids(await search(secured, { filters: 'price < 65 OR price > 0' })), ['p60', 'p70']);
    assert.deepEqual(ids(await search(secured, { filters: 'price:60' })), ['p60']);
  });

  test('numericFilters, facetFilters and tagFilters of both keys are ANDed', async () => {
    const parent = await keyWith('numericFilters=price%3E%3D30&facetFilters=brand%3AHon&tagFilters=even');
    assert.deepEqual(ids(await search(parent)), ['p40']);
    // Replacing the parent's lists would let p20 (price < 30) and p70/p90 (Acme, odd) through.
    const secured = securedKey(parent, { numericFilters: 'price<=40' });
    assert.deepEqual(ids(await search(secured)), ['p40']);
    const acme = securedKey(parent, { facetFilters: 'brand:Acme' });
    assert.deepEqual(ids(await search(acme)), []);
    const odd = securedKey(parent, { tagFilters: 'odd' });
    assert.deepEqual(ids(await search(odd)), []);
  });

  test('a forced hitsPerPage holds against offset/length and against a larger secured or query value', async () => {
    const parent = await keyWith('hitsPerPage=2');
    assert.equal((await search(parent, { offset: 0, length: 10 })).hits.length, 2);
    assert.equal((await search(parent, { params: 'offset=3&length=8' })).hits.length, 2);
    const secured = securedKey(parent, { hitsPerPage: 5 });
    assert.equal((await search(secured)).hits.length, 2);
    assert.equal((await search(secured, { offset: 2, length: 9 })).hits.length, 2);
    assert.equal((await search(secured, { hitsPerPage: 1 })).hits.length, 1, 'a smaller page is still allowed');
    // A secured key's own forced page size holds against offset/length too.
    const alone = securedKey(await keyWith(''), { hitsPerPage: 3 });
    assert.equal((await search(alone, { offset: 0, length: 50 })).hits.length, 3);
  });

  test('attributesToRetrieve and restrictSearchableAttributes keep what both keys allow', async () => {
    const parent = await keyWith(
      'attributesToRetrieve=%5B%22name%22%2C%22price%22%5D&restrictSearchableAttributes=name',
    );
    const secured = securedKey(parent, { attributesToRetrieve: '*', restrictSearchableAttributes: 'name,secret' });
    const [hit] = (
      await search(secured, {
        query: 'chair',
        attributesToRetrieve: ['name', 'secret'],
        attributesToSnippet: ['secret'],
      })
    ).hits;
    assert.deepEqual(Object.keys(hit).sort(), ['_highlightResult', '_snippetResult', 'name', 'objectID']);
    // Nor does a highlight or snippet show what the key withholds.
    assert.deepEqual(Object.keys(hit._highlightResult), ['name']);
    assert.deepEqual(hit._snippetResult, {});
    assert.equal((await search(secured, { query: 'code60' })).nbHits, 0, 'secret is not searchable with the parent');
    const star = securedKey(await keyWith('attributesToRetrieve=*,-secret'), { attributesToRetrieve: 'secret,name' });
    const [starHit] = (await search(star, { query: 'code60' })).hits;
    assert.deepEqual(Object.keys(starHit).sort(), ['_highlightResult', 'name', 'objectID']);
    assert.deepEqual(Object.keys(starHit._highlightResult), ['name']);
  });

  test('geo: a smaller radius narrows; another centre than the parent’s is refused, never used instead', async () => {
    const parent = await keyWith('aroundLatLng=48.5%2C2&aroundRadius=12000');
    assert.deepEqual(ids(await search(parent)).sort(), ['p40', 'p50', 'p60']);
    const smaller = securedKey(parent, { aroundRadius: 2000 });
    assert.deepEqual(ids(await search(smaller)), ['p50']);
    const larger = securedKey(parent, { aroundRadius: 'all' });
    assert.deepEqual(ids(await search(larger)).sort(), ['p40', 'p50', 'p60']);
    const elsewhere = securedKey(parent, { aroundLatLng: '49, 2', aroundRadius: 100000 });
    const refused = await svc.call('POST', '/1/indexes/shop/query', {}, { key: elsewhere });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /aroundLatLng/);
    // The query cannot move the key's area either: the key's centre holds.
    assert.deepEqual(ids(await search(parent, { aroundLatLng: '49, 2', aroundRadius: 'all' })).sort(), [
      'p40',
      'p50',
      'p60',
    ]);
  });
});

describe('every call that reads records narrows the same way', () => {
  test('browse, facet value search, get object(s) and delete by query see only what both keys allow', async () => {
    const parent = await keyWith('filters=price%20%3E%2050', ['search', 'browse', 'deleteIndex']);
    const secured = securedKey(parent, { filters: 'price < 75' });
    const browsed = await svc.ok('POST', '/1/indexes/shop/browse', {}, { key: secured });
    assert.deepEqual(ids(browsed), ['p60', 'p70']);
    const facets = await svc.ok('POST', '/1/indexes/shop/facets/brand/query', { facetQuery: '' }, { key: secured });
    assert.deepEqual(facets.facetHits, [{ value: 'Acme', highlighted: 'Acme', count: 2 }]);
    assert.equal((await svc.call('GET', '/1/indexes/shop/p80', undefined, { key: secured })).status, 404);
    assert.equal((await svc.call('GET', '/1/indexes/shop/p70', undefined, { key: secured })).status, 200);
    const objects = await svc.ok(
      'POST',
      '/1/indexes/*/objects',
      { requests: ['p40', 'p60', 'p90'].map((objectID) => ({ indexName: 'shop', objectID })) },
      { key: secured },
    );
    assert.deepEqual(
      objects.results.map((r: { objectID: string } | null) => r?.objectID ?? null),
      [null, 'p60', null],
    );
    await svc.ok('POST', '/1/indexes/shop/deleteByQuery', { numericFilters: ['price>0'] }, { key: secured });
    const left = ids(await svc.ok('POST', '/1/indexes/shop/browse', {}));
    assert.deepEqual(left, ['p10', 'p20', 'p30', 'p40', 'p50', 'p80', 'p90', 'p100']);
    // Put them back for the other tests.
    await svc.ok('POST', '/1/indexes/shop/batch', {
      requests: [60, 70].map((price) => ({
        action: 'addObject',
        body: {
          objectID: `p${price}`,
          name: `Chair ${price}`,
          brand: 'Acme',
          price,
          secret: `code${price}`,
          _tags: price % 20 === 0 ? ['even'] : ['odd'],
          _geoloc: { lat: 48 + price / 100, lng: 2 },
        },
      })),
    });
  });

  test('index keys (/1/indexes/{i}/keys) narrow the same way under a secured key', async () => {
    const { key } = await svc.ok('POST', '/1/indexes/shop/keys', {
      acl: ['search'],
      queryParameters: 'filters=brand%3AHon',
    });
    assert.deepEqual(ids(await search(key)), ['p10', 'p20', 'p30', 'p40', 'p50']);
    const secured = securedKey(key, { filters: 'brand:Acme OR price:20' });
    assert.deepEqual(ids(await search(secured)), ['p20']);
  });
});
