/**
 * Delete by query deletes exactly the records a search with the same parameters matches (document 1,
 * Records: "only filters (numeric, facet, tag) and geo queries are honoured; an empty filter or empty query
 * is refused"): geo alone or with filters, every filter kind, the key's forced restrictions, and nothing
 * when the call would match every record. Each case compares the deleted records with a search made first.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

const INDEX = 'places';
/** Paris (48.8566, 2.3522), a record 500 m east of it, Lyon, Marseille, and one record without a location. */
const RECORDS = [
  { objectID: 'paris', kind: 'y', price: 10, _tags: ['capital'], _geoloc: { lat: 48.8566, lng: 2.3522 } },
  { objectID: 'paris-east', kind: 'y', price: 30, _geoloc: { lat: 48.8566, lng: 2.359 } },
  { objectID: 'lyon', kind: 'y', price: 20, _geoloc: { lat: 45.764, lng: 4.8357 } },
  { objectID: 'marseille', kind: 'z', price: 40, _geoloc: { lat: 43.2965, lng: 5.3698 } },
  { objectID: 'nowhere', kind: 'y', price: 50 },
];

beforeEach(async () => {
  await svc.ok('PUT', `/1/indexes/${INDEX}/settings`, { attributesForFaceting: ['kind', 'price'] });
  await svc.ok('POST', `/1/indexes/${INDEX}/clear`);
  await svc.ok('POST', `/1/indexes/${INDEX}/batch`, {
    requests: RECORDS.map((body) => ({ action: 'addObject', body })),
  });
});

const remaining = async () =>
  (await svc.ok('POST', `/1/indexes/${INDEX}/browse`, {})).hits.map((hit: { objectID: string }) => hit.objectID).sort();
const searched = async (params: Record<string, unknown>, key?: string) =>
  (await svc.ok('POST', `/1/indexes/${INDEX}/query`, { ...params, hitsPerPage: 1000 }, key ? { key } : {})).hits
    .map((hit: { objectID: string }) => hit.objectID)
    .sort();

/** Deletes by `params` and checks that exactly the records a search with them matched are gone. */
async function deletesWhatSearchMatches(params: Record<string, unknown>, expected: string[]) {
  assert.deepEqual(await searched(params), expected, 'the search matches');
  const before: string[] = await remaining();
  await svc.ok('POST', `/1/indexes/${INDEX}/deleteByQuery`, params);
  assert.deepEqual(
    await remaining(),
    before.filter((id) => !expected.includes(id)),
    `deleteByQuery ${JSON.stringify(params)} deletes exactly the search's hits`,
  );
}

describe('delete by query matches what a search matches', () => {
  test('filters with aroundLatLng + aroundRadius: only the records inside the circle go', async () => {
    // The audit's case: a search for kind:y within 1 km of a point far away matches nothing.
    await deletesWhatSearchMatches({ filters: 'kind:y', aroundLatLng: '40.0, -3.7', aroundRadius: 1000 }, []);
    assert.equal((await remaining()).length, RECORDS.length, 'nothing deleted');
    await deletesWhatSearchMatches({ filters: 'kind:y', aroundLatLng: '48.8566, 2.3522', aroundRadius: 1000 }, [
      'paris',
      'paris-east',
    ]);
  });

  test('a geo constraint alone is a valid delete: circle, bounding box, polygon (in the body or a params string)', async () => {
    await deletesWhatSearchMatches({ aroundLatLng: '48.8566, 2.3522', aroundRadius: 100 }, ['paris']);
    await deletesWhatSearchMatches({ insideBoundingBox: [[45, 4, 46, 5]] }, ['lyon']);
    await deletesWhatSearchMatches(
      { params: 'insidePolygon=%5B%5B43%2C5%2C44%2C5%2C44%2C6%2C43%2C6%5D%5D' }, // a square around Marseille
      ['marseille'],
    );
    assert.deepEqual(await remaining(), ['nowhere', 'paris-east']);
  });

  test('every filter kind: facetFilters, numericFilters, tagFilters, and filters with OR and NOT', async () => {
    await deletesWhatSearchMatches({ facetFilters: [['kind:z', 'kind:x']] }, ['marseille']);
    await deletesWhatSearchMatches({ numericFilters: ['price>=30', 'price<=30'] }, ['paris-east']);
    await deletesWhatSearchMatches({ tagFilters: ['capital'] }, ['paris']);
    await deletesWhatSearchMatches({ filters: 'kind:y AND NOT price:20 TO 20' }, ['nowhere']);
    assert.deepEqual(await remaining(), ['lyon']);
  });

  test('a key with forced filters (key queryParameters, secured key) deletes only within them', async () => {
    const { key } = await svc.ok('POST', '/1/keys', {
      acl: ['search', 'browse', 'deleteIndex'],
      queryParameters: 'filters=price%20%3C%2035',
    });
    assert.deepEqual(await searched({ filters: 'kind:y' }, key), ['lyon', 'paris', 'paris-east']);
    await svc.ok('POST', `/1/indexes/${INDEX}/deleteByQuery`, { filters: 'kind:y' }, { key });
    assert.deepEqual(await remaining(), ['marseille', 'nowhere'], 'nowhere (price 50) is outside the key');
  });
});

describe('refused', () => {
  test('a call that would match every record: no filter, empty filters, no area', async () => {
    for (const body of [
      {},
      { params: '' },
      { filters: '' },
      { facetFilters: [] },
      { numericFilters: '' },
      { aroundLatLng: '48.8566, 2.3522' }, // a centre without a radius is no area
      { aroundLatLng: '48.8566, 2.3522', aroundRadius: 'all' },
    ]) {
      const refused = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.body.message, /every record/);
    }
    assert.equal((await remaining()).length, RECORDS.length);
  });

  test('query, and parameters that are not filters or geo, are refused naming them', async () => {
    const withQuery = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, { filters: 'kind:y', query: 'x' });
    assert.equal(withQuery.status, 400);
    assert.match(withQuery.body.message, /query/);
    const inParams = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, {
      params: 'filters=kind%3Ay&query=x',
    });
    assert.equal(inParams.status, 400);
    const other = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, { filters: 'kind:y', hitsPerPage: 1 });
    assert.equal(other.status, 400);
    assert.match(other.body.message, /hitsPerPage/);
    const unknown = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, { filter: 'kind:y' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /Unknown parameter: filter\b/);
    const radiusAlone = await svc.call('POST', `/1/indexes/${INDEX}/deleteByQuery`, { aroundRadius: 1000 });
    assert.equal(radiusAlone.status, 400);
    assert.match(radiusAlone.body.message, /aroundLatLng/);
    assert.equal((await remaining()).length, RECORDS.length);
  });
});
