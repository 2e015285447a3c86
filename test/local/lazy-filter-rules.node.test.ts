/**
 * The worker of `svc-search/local` loads the filters (`filters.ts`, `filter-bits.ts`, an optional feature of the
 * engine) with a file whose rules filter the searches they apply to — a rule that hides or pins records (excluded or
 * found with an `objectID` filter) or adds a filter parameter — since the worker sees only the request, not the
 * rules' edits, before a search runs. This file runs in a process of its own that imports only what the worker
 * imports, so the load is observable; the browser test (`local-client.browser.test.ts`) compares a rule adding
 * filters with the service in a fresh worker.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle, type IndexBundle } from '../../src/engine/bundle.js';
import { optionalFeature } from '../../src/engine/features.js';
import { LocalEngine } from '../../src/local/engine-host.js';

const RECORDS = [
  { objectID: '1', name: 'Oak chair', brand: 'Acme' },
  { objectID: '2', name: 'Pine table', brand: 'Bolt' },
  { objectID: '3', name: 'Desk chair', brand: 'Acme' },
  { objectID: '4', name: 'Garden chair', brand: 'Bolt' },
];

function bundleWith(rules: unknown[]): IndexBundle {
  return {
    name: 'furniture',
    exportedAt: 0,
    indices: [
      {
        name: 'furniture',
        settings: { searchableAttributes: ['name'], attributesForFaceting: ['brand'] },
        rules: rules as never,
        synonyms: [],
        records: RECORDS,
      },
    ],
  };
}

describe('the filters of a file whose rules filter', () => {
  it('are not loaded for a file whose rules do not filter', async () => {
    const engine = new LocalEngine();
    const banner = {
      objectID: 'banner',
      conditions: [{ pattern: 'chair', anchoring: 'contains' }],
      consequence: { userData: { b: 1 } },
    };
    await engine.load(await decodeBundle(await encodeBundle(bundleWith([banner]))));
    const answer = engine.search('furniture', { query: 'chair' }) as { hits: unknown[]; userData: unknown };
    assert.equal(answer.hits.length, 3);
    assert.deepEqual(answer.userData, [{ b: 1 }]);
    assert.equal(optionalFeature('filters'), undefined);
  });

  it('are loaded with a file whose rule hides and pins records, which a search without a filter then applies', async () => {
    const engine = new LocalEngine();
    const rule = {
      objectID: 'garden-first',
      conditions: [{ pattern: 'chair', anchoring: 'contains' }],
      consequence: { hide: [{ objectID: '3' }], promote: [{ objectID: '4', position: 0 }] },
    };
    await engine.load(await decodeBundle(await encodeBundle(bundleWith([rule]))));
    assert.notEqual(optionalFeature('filters'), undefined);
    const answer = engine.search('furniture', { query: 'chair' }) as { hits: Array<{ objectID: string }> };
    assert.deepEqual(
      answer.hits.map((hit) => hit.objectID),
      ['4', '1'],
    );
  });
});
