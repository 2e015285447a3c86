/**
 * A browse cursor carries the parameters of the browse's first call, filters included: the worker of
 * `svc-search/local` loads the filters (an optional feature of the engine) with browsing, so a fresh worker given a
 * cursor kept from elsewhere answers it filtered. This file runs in a process of its own that imports only what the
 * worker imports, so the load is observable.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle } from '../../src/engine/bundle.js';
import { encodeCursor } from '../../src/engine/cursor.js';
import { optionalFeature } from '../../src/engine/features.js';
import { LocalEngine } from '../../src/local/engine-host.js';

const RECORDS = [
  { objectID: '1', name: 'Oak chair', brand: 'Acme' },
  { objectID: '2', name: 'Pine table', brand: 'Bolt' },
  { objectID: '3', name: 'Desk chair', brand: 'Acme' },
  { objectID: '4', name: 'Garden chair', brand: 'Bolt' },
  { objectID: '5', name: 'Oak shelf', brand: 'Acme' },
];

describe('a browse cursor with filters in a fresh worker', () => {
  it('loads the filters with browsing and answers the rest of the browse filtered', async () => {
    const engine = new LocalEngine();
    const bundle = {
      name: 'furniture',
      exportedAt: 0,
      indices: [
        {
          name: 'furniture',
          settings: { searchableAttributes: ['name'], attributesForFaceting: ['brand'] },
          rules: [],
          synonyms: [],
          records: RECORDS,
        },
      ],
    };
    await engine.load(await decodeBundle(await encodeBundle(bundle)));
    // what a first call `browse({ filters: 'brand:Acme', hitsPerPage: 1 })` answers with, kept by the page
    const cursor = encodeCursor({ p: 'filters=brand%3AAcme&hitsPerPage=1', o: 1 });
    assert.equal(optionalFeature('filters'), undefined, 'no filters before the browse');
    await engine.prepare('browse', ['furniture', { cursor }]);
    assert.notEqual(optionalFeature('filters'), undefined);
    const page = engine.browse('furniture', { cursor }) as { hits: Array<{ objectID: string }>; cursor?: string };
    assert.deepEqual(
      page.hits.map((hit) => hit.objectID),
      ['3'],
    );
    const last = engine.browse('furniture', { cursor: page.cursor }) as { hits: Array<{ objectID: string }> };
    assert.deepEqual(
      last.hits.map((hit) => hit.objectID),
      ['5'],
    );
  });
});
