/**
 * The local engine (`svc-search/local`'s `LocalEngine`, what the worker runs) against the service: an index
 * written to the service over HTTP, exported with `exportFromService`, loaded from the `.svcidx` bytes, then
 * the same multi-queries and facet value searches asked of both — same hits in the same order, same facet
 * counts, highlights, snippets, rule effects and synonyms. The browser test does the same through the worker.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serializeParams } from '../../src/client/params.js';
import { decodeBundle } from '../../src/engine/bundle.js';
import { LocalEngine } from '../../src/local/engine-host.js';
import { exportFromService } from '../../service/src/export.js';
import { startService, type Running } from '../../service/test/service-helpers.js';
import {
  comparable,
  CONFORMANCE_FACET_QUERIES,
  CONFORMANCE_INDEX,
  CONFORMANCE_QUERIES,
  CONFORMANCE_RECORDS,
  CONFORMANCE_RULES,
  CONFORMANCE_SETTINGS,
  CONFORMANCE_SYNONYMS,
  BAD_PARAMETERS,
  BAD_FILTERS,
  FIRST_FILTERED_QUERIES,
} from './fixture.js';

const REPLICA = `${CONFORMANCE_INDEX}_price_asc`;

describe('the local engine answers as the service', () => {
  let running: Running;
  const engine = new LocalEngine();

  before(async () => {
    running = await startService();
    const path = `/1/indexes/${CONFORMANCE_INDEX}`;
    await running.ok('PUT', `${path}/settings`, CONFORMANCE_SETTINGS);
    await running.ok('POST', `${path}/batch`, {
      requests: CONFORMANCE_RECORDS.map((body) => ({ action: 'addObject', body })),
    });
    await running.ok('POST', `${path}/synonyms/batch`, CONFORMANCE_SYNONYMS);
    await running.ok('POST', `${path}/rules/batch`, CONFORMANCE_RULES);
    await running.ok('PUT', `${path}/settings`, { replicas: [REPLICA] });
    await running.ok('PUT', `/1/indexes/${REPLICA}/settings`, {
      ranking: ['asc(price)', 'typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'],
    });
    const { bytes } = await exportFromService(running.service, { index: CONFORMANCE_INDEX, recommendations: 0 });
    await engine.load(await decodeBundle(bytes));
  });
  after(() => running.stop());

  for (const params of [...CONFORMANCE_QUERIES, ...FIRST_FILTERED_QUERIES]) {
    it(`search ${JSON.stringify(params)}`, async () => {
      const request = { indexName: CONFORMANCE_INDEX, params: serializeParams(params) };
      const service = await running.ok('POST', '/1/indexes/*/queries', { requests: [request] });
      const local = engine.multiSearch([request]);
      assert.ok(service.results[0].nbHits > 0 || params.query === 'classic -sofa', 'the query finds something');
      assert.deepEqual(comparable(local.results[0]!), comparable(service.results[0]));
    });
  }

  it('a replica (built on its first search) answers as the service’s', async () => {
    assert.deepEqual(engine.names(), [CONFORMANCE_INDEX, REPLICA]);
    const request = { indexName: REPLICA, params: serializeParams({ query: 'chair', facets: ['brand'] }) };
    const service = await running.ok('POST', '/1/indexes/*/queries', { requests: [request] });
    const local = engine.multiSearch([request]);
    const prices = (local.results[0] as { hits: Array<{ price: number }> }).hits.map((hit) => hit.price);
    assert.deepEqual(
      prices,
      [...prices].sort((a, b) => a - b),
      'sorted by price',
    );
    assert.deepEqual(comparable(local.results[0]!), comparable(service.results[0]));
  });

  it('the compared answers exercise rules, synonyms, typos and distinct', () => {
    const answer = (params: Record<string, unknown>) =>
      engine.multiSearch([{ indexName: CONFORMANCE_INDEX, params: serializeParams(params) }]).results[0] as any;
    const phone = answer({ query: 'phone' });
    assert.equal(phone.hits[0].objectID, 'p6');
    assert.deepEqual(phone.userData, [{ banner: 'phones' }]);
    assert.ok(!phone.hits.some((hit: any) => hit.objectID === 'p4'), 'the hidden record is hidden');
    assert.ok(answer({ query: 'cheap chair' }).hits.every((hit: any) => hit.price < 200));
    assert.ok(answer({ query: 'couch' }).hits.some((hit: any) => hit.name.includes('Sofa')));
    assert.ok(answer({ query: 'chiar' }).hits.every((hit: any) => hit.name.includes('Chair')));
    const distinct = answer({ query: 'chair', distinct: true });
    assert.equal(new Set(distinct.hits.map((hit: any) => hit.group)).size, distinct.hits.length);
  });

  for (const { facet, facetQuery, params } of CONFORMANCE_FACET_QUERIES) {
    it(`facet value search ${facet}:${facetQuery}`, async () => {
      const body = { ...params, facetQuery };
      const service = await running.ok('POST', `/1/indexes/${CONFORMANCE_INDEX}/facets/${facet}/query`, body);
      const local = engine.searchForFacetValues(CONFORMANCE_INDEX, facet, body);
      assert.ok(service.facetHits.length > 0);
      assert.deepEqual(comparable(local), comparable(service));
    });
  }

  it('stopIfEnoughMatches skips every request after enough hits, a facet value search too, as the service', async () => {
    const requests = [
      // Fewer hits than hitsPerPage: the next request runs.
      { indexName: CONFORMANCE_INDEX, params: serializeParams({ query: 'lamp', hitsPerPage: 50 }) },
      { indexName: CONFORMANCE_INDEX, type: 'facet', facet: 'color', params: serializeParams({ facetQuery: 'gr' }) },
      // Enough hits: everything after it is skipped.
      { indexName: CONFORMANCE_INDEX, params: serializeParams({ query: '', hitsPerPage: 1 }) },
      { indexName: CONFORMANCE_INDEX, type: 'facet', facet: 'color', params: serializeParams({ facetQuery: 'li' }) },
      { indexName: CONFORMANCE_INDEX, params: serializeParams({ query: 'chair', hitsPerPage: 2 }) },
    ] as const;
    const service = await running.ok('POST', '/1/indexes/*/queries', {
      requests,
      strategy: 'stopIfEnoughMatches',
    });
    const local = engine.multiSearch([...requests], 'stopIfEnoughMatches');
    assert.ok(service.results[1].facetHits.length > 0, 'the facet value search before enough hits ran');
    assert.deepEqual(
      service.results.map((result: { processed?: boolean }) => result.processed),
      [undefined, undefined, undefined, false, false],
      'the service skips the facet value search after enough hits',
    );
    assert.deepEqual(local.results.map(comparable), service.results.map(comparable));
  });

  it('records by objectID (getObjects) as the service’s: projected, null for one not found', async () => {
    const requests = [
      { indexName: CONFORMANCE_INDEX, objectID: 'p3' },
      { indexName: CONFORMANCE_INDEX, objectID: 'p5', attributesToRetrieve: ['name', 'price'] },
      { indexName: CONFORMANCE_INDEX, objectID: 'no-such-record' },
    ];
    const service = await running.ok('POST', '/1/indexes/*/objects', { requests });
    const local = await engine.getObjects(requests);
    assert.deepEqual(Object.keys(local.results[1]!).sort(), ['name', 'objectID', 'price']);
    assert.equal(local.results[2], null);
    assert.deepEqual(local, service);
  });

  for (const [kind, list] of [
    ['', BAD_PARAMETERS],
    ['the bad filter ', BAD_FILTERS],
  ] as const) {
    for (const params of list) {
      it(`refuses ${kind}${JSON.stringify(params)} with the service’s status and message`, async () => {
        const request = { indexName: CONFORMANCE_INDEX, params: serializeParams(params) };
        const service = await running.call('POST', '/1/indexes/*/queries', { requests: [request] });
        assert.equal(service.status, 400);
        await assert.rejects(
          (async () => {
            await engine.prepare('multiSearch', [[request]]);
            engine.multiSearch([request]);
          })(),
          { status: 400, message: service.body.message },
        );
      });
    }
  }
});

describe('the local engine applies the application’s custom dictionaries as the service', () => {
  let running: Running;
  const engine = new LocalEngine();
  const INDEX = 'local_dictionaries';
  const RECORDS = [
    { objectID: 'd1', name: 'Deluxe oak table' },
    { objectID: 'd2', name: 'Deluxe lamp' },
    { objectID: 'd3', name: 'Oak lamp' },
    { objectID: 'd4', name: 'Red gizmo' },
    { objectID: 'd5', name: 'Blue gizmata' },
  ];
  const QUERIES = [
    { query: 'deluxe lamp', removeStopWords: true },
    { query: 'gizmata', ignorePlurals: true },
    { query: 'deluxe gizmo', removeStopWords: true, ignorePlurals: true },
  ];

  before(async () => {
    running = await startService();
    await running.ok('PUT', `/1/indexes/${INDEX}/settings`, { searchableAttributes: ['name'], queryLanguages: ['en'] });
    await running.ok('POST', `/1/indexes/${INDEX}/batch`, {
      requests: RECORDS.map((body) => ({ action: 'addObject', body })),
    });
    const add = (body: Record<string, unknown>) => ({ requests: [{ action: 'addEntry', body }] });
    await running.ok(
      'POST',
      '/1/dictionaries/stopwords/batch',
      add({ objectID: 'sw-deluxe', language: 'en', word: 'deluxe', state: 'enabled' }),
    );
    await running.ok(
      'POST',
      '/1/dictionaries/plurals/batch',
      add({ objectID: 'pl-gizmo', language: 'en', words: ['gizmo', 'gizmata'] }),
    );
    const { bytes } = await exportFromService(running.service, { index: INDEX, recommendations: 0 });
    await engine.load(await decodeBundle(bytes));
  });
  after(() => running.stop());

  for (const params of QUERIES) {
    it(`search ${JSON.stringify(params)}`, async () => {
      const request = { indexName: INDEX, params: serializeParams(params) };
      const service = await running.ok('POST', '/1/indexes/*/queries', { requests: [request] });
      assert.deepEqual(comparable(engine.multiSearch([request]).results[0]!), comparable(service.results[0]));
    });
  }

  it('the compared answers depend on the custom entries', () => {
    const ids = (params: Record<string, unknown>) =>
      (
        engine.multiSearch([{ indexName: INDEX, params: serializeParams(params) }]).results[0] as {
          hits: Array<{ objectID: string }>;
        }
      ).hits
        .map((hit) => hit.objectID)
        .sort();
    // the custom stop word is left out of the query: "lamp" alone
    assert.deepEqual(ids(QUERIES[0]!), ['d2', 'd3']);
    assert.deepEqual(ids({ query: 'deluxe lamp' }), ['d2']);
    // the custom plural finds the other form
    assert.deepEqual(ids(QUERIES[1]!), ['d4', 'd5']);
    assert.deepEqual(ids({ query: 'gizmata' }), ['d5']);
  });
});
