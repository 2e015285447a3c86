/**
 * The `.svcidx` encoding (src/engine/bundle.ts): records survive column storage exactly (absent attributes
 * stay absent, `null` stays `null`, nested values, an attribute named `__proto__`), Recommend lists survive
 * position packing, and a file that is not one is refused with a message.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle, type IndexBundle } from '../../src/engine/bundle.js';
import { addDictionaries, Dictionaries } from '../../src/engine/index.js';

describe('.svcidx bundles', () => {
  const records = [
    { objectID: 'a', name: 'Chair', price: 10, tags: ['x', 'y'], meta: { color: 'red' }, gone: null },
    { objectID: 'b', name: 'Table', extra: true },
    JSON.parse('{"objectID":"c","__proto__":{"polluted":true},"name":"Lamp"}'),
  ];
  const bundle: IndexBundle = {
    name: 'shop',
    exportedAt: 1,
    indices: [
      { name: 'shop', settings: { searchableAttributes: ['name'] }, rules: [], synonyms: [], records },
      { name: 'shop_price', settings: { ranking: ['asc(price)'] }, rules: [], synonyms: [], replicaOf: 'shop' },
    ],
    recommendations: {
      shop: {
        relatedProducts: { a: [{ objectID: 'b', score: 50.5 }], c: [{ objectID: 'a', score: 12 }] },
        boughtTogether: {},
        trendingItems: [{ objectID: 'c', score: 3 }],
        trendingFacets: { name: [{ facetValue: 'Chair', score: 1 }] },
      },
    },
  };

  it('round-trips records, replicas and Recommend lists exactly', async () => {
    const decoded = await decodeBundle(await encodeBundle(bundle));
    assert.deepEqual(decoded, bundle);
    const c = decoded.indices[0]!.records![2]!;
    assert.ok(Object.hasOwn(c, '__proto__'), '__proto__ is an own attribute');
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.ok(!Object.hasOwn(decoded.indices[0]!.records![1]!, 'gone'), 'an absent attribute stays absent');
  });

  it('round-trips the custom dictionaries, and adds them to the engine’s', async () => {
    const dictionaries = {
      stopwords: [{ objectID: 's1', language: 'en', word: 'deluxe', state: 'enabled' as const }],
      plurals: [{ objectID: 'p1', language: 'en', words: ['gizmo', 'gizmata'] }],
      compounds: [],
      disabledStandardStopwords: ['fr'],
    };
    const decoded = await decodeBundle(await encodeBundle({ ...bundle, dictionaries }));
    assert.deepEqual(decoded.dictionaries, dictionaries);
    const engine = new Dictionaries();
    addDictionaries(engine, decoded.dictionaries!);
    assert.ok(engine.stopWords(['en']).has('deluxe'));
    assert.deepEqual(engine.disabledStandardStopwords(), ['fr']);
    assert.deepEqual([...engine.entries('plurals').keys()], ['p1']);
    assert.equal((await decodeBundle(await encodeBundle(bundle))).dictionaries, undefined);
  });

  it('refuses bytes that are not a .svcidx', async () => {
    await assert.rejects(decodeBundle(new TextEncoder().encode('{"json": true}')), /Not a .svcidx file/);
    const future = await encodeBundle(bundle);
    future[7] = 9;
    await assert.rejects(decodeBundle(future), /Unsupported .svcidx version 9/);
  });
});
