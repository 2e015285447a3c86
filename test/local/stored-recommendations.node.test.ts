/**
 * A file's Recommend lists in the worker of `svc-search/local`: `readBundle` (what the worker reads a file with) leaves
 * them as the file stores them (positions in the primary's record order), and the local engine reads them with its
 * first Recommend request — answering as from the lists `decodeBundle` reads whole, for every model.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle, type IndexBundle, readBundle } from '../../src/engine/bundle.js';
import { type LocalRecommendRequest, LocalEngine } from '../../src/local/engine-host.js';

const RECORDS = [
  { objectID: 'oak', name: 'Oak chair', brand: 'Acme' },
  { objectID: 'pine', name: 'Pine table', brand: 'Bolt' },
  { objectID: 'desk', name: 'Desk chair', brand: 'Acme' },
  { objectID: 'lamp', name: 'Floor lamp', brand: 'Bolt' },
];

const BUNDLE: IndexBundle = {
  name: 'furniture',
  exportedAt: 0,
  indices: [
    { name: 'furniture', settings: {}, rules: [], synonyms: [], records: RECORDS },
    { name: 'furniture_by_name', settings: {}, rules: [], synonyms: [], replicaOf: 'furniture' },
  ],
  recommendations: {
    furniture: {
      relatedProducts: {
        oak: [
          { objectID: 'desk', score: 0.9 },
          { objectID: 'pine', score: 0.4 },
        ],
      },
      boughtTogether: { pine: [{ objectID: 'oak', score: 0.7 }] },
      trendingItems: [
        { objectID: 'lamp', score: 12 },
        { objectID: 'oak', score: 8 },
      ],
      trendingFacets: { brand: [{ facetValue: 'Acme', score: 5 }] },
    },
  },
};

const REQUESTS: LocalRecommendRequest[] = [
  { indexName: 'furniture', model: 'related-products', objectID: 'oak' },
  { indexName: 'furniture', model: 'bought-together', objectID: 'pine' },
  { indexName: 'furniture_by_name', model: 'trending-items' },
  { indexName: 'furniture', model: 'trending-facets', facetName: 'brand' },
];

/** An answer without its queryID (a new one each time). */
function withoutQueryIDs(answer: { results: Array<Record<string, unknown>> }): unknown {
  return answer.results.map(({ queryID: _queryID, ...rest }) => rest);
}

describe('a file’s Recommend lists in the worker', () => {
  it('are left as stored by readBundle and read with the first Recommend request, answering as decodeBundle’s', async () => {
    const bytes = await encodeBundle(BUNDLE);
    const read = await readBundle(bytes);
    assert.equal('recommendations' in read, false, 'nothing read into objectIDs at load');
    assert.deepEqual(read.storedRecommendations?.furniture?.trendingItems, [3, 12, 0, 8], 'positions and scores');

    const lazy = new LocalEngine();
    await lazy.load(read);
    const whole = new LocalEngine();
    await whole.load(await decodeBundle(bytes));
    const answer = await lazy.recommend(REQUESTS);
    assert.deepEqual(
      (answer.results[0]!.hits as Array<{ objectID: string }>).map((hit) => hit.objectID),
      ['desk', 'pine'],
    );
    assert.deepEqual(
      (answer.results[2]!.hits as Array<{ objectID: string }>).map((hit) => hit.objectID),
      ['lamp', 'oak'],
      'a replica answers from its primary’s lists',
    );
    assert.deepEqual(withoutQueryIDs(answer), withoutQueryIDs(await whole.recommend(REQUESTS)));
    // read once, then kept: a second request answers the same
    assert.deepEqual(withoutQueryIDs(await lazy.recommend(REQUESTS)), withoutQueryIDs(answer));
  });
});
