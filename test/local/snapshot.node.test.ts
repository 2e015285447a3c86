/**
 * The engine's structures in a `.svcidx` (`toSnapshot` / `fromSnapshot`): a worker engine that
 * restores the index from them answers exactly as one that builds it from the records — same hits in the same
 * order, facet counts, highlights and snippets, rule effects, synonyms, typos, filters and distinct — on the
 * conformance index and on 3,000 synthetic products; a file whose structures another engine version wrote is
 * still served, built from its records, with the reason reported.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serializeParams } from '../../src/client/params.js';
import { decodeBundle, encodeBundle, type IndexBundle } from '../../src/engine/bundle.js';
import { SNAPSHOT_VERSION } from '../../src/engine/snapshot.js';
import { LocalEngine } from '../../src/local/engine-host.js';
import { syntheticProducts, syntheticQueries } from '../../service/src/datasets/synthetic.js';
import { snapshotOf } from '../../service/src/export.js';
import {
  comparable,
  CONFORMANCE_FACET_QUERIES,
  CONFORMANCE_INDEX,
  CONFORMANCE_QUERIES,
  CONFORMANCE_RECORDS,
  CONFORMANCE_RULES,
  CONFORMANCE_SETTINGS,
  CONFORMANCE_SYNONYMS,
} from './fixture.js';

const REPLICA = `${CONFORMANCE_INDEX}_price_asc`;

function conformanceBundle(): IndexBundle {
  return {
    name: CONFORMANCE_INDEX,
    exportedAt: 1,
    indices: [
      {
        name: CONFORMANCE_INDEX,
        settings: CONFORMANCE_SETTINGS,
        rules: CONFORMANCE_RULES as never,
        synonyms: CONFORMANCE_SYNONYMS as never,
        records: CONFORMANCE_RECORDS,
      },
      {
        name: REPLICA,
        settings: { ...CONFORMANCE_SETTINGS, ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute'] },
        rules: [],
        synonyms: CONFORMANCE_SYNONYMS as never,
        replicaOf: CONFORMANCE_INDEX,
      },
    ],
  };
}

/** Two engines on the same bundle: one builds the index from the records, one restores the written structures. */
async function builtAndRestored(bundle: IndexBundle): Promise<{ built: LocalEngine; restored: LocalEngine }> {
  const built = new LocalEngine();
  await built.load(await decodeBundle(await encodeBundle(bundle)));
  const primary = bundle.indices[0]!;
  const withStructures = {
    ...bundle,
    indices: [{ ...primary, structures: snapshotOf(primary) }, ...bundle.indices.slice(1)],
  };
  const decoded = await decodeBundle(await encodeBundle(withStructures));
  assert.equal(decoded.indices[0]!.structures?.version, SNAPSHOT_VERSION, 'the file carries the structures');
  const restored = new LocalEngine();
  await restored.load(decoded);
  assert.deepEqual(Object.fromEntries(restored.rebuilt), {}, 'restored, not built');
  return { built, restored };
}

function same(built: LocalEngine, restored: LocalEngine, indexName: string, params: Record<string, unknown>) {
  const request = { indexName, params: serializeParams(params) };
  const expected = built.multiSearch([request]).results[0]!;
  const actual = restored.multiSearch([request]).results[0]!;
  assert.deepEqual(comparable(actual), comparable(expected));
  return expected as { nbHits: number; hits: unknown[] };
}

describe('an index restored from its snapshot answers as one built from its records', async () => {
  const { built, restored } = await builtAndRestored(conformanceBundle());

  for (const params of CONFORMANCE_QUERIES) {
    it(`search ${JSON.stringify(params)}`, () => {
      const answer = same(built, restored, CONFORMANCE_INDEX, params);
      assert.ok(answer.nbHits > 0 || params.query === 'classic -sofa', 'the query finds something');
    });
  }

  it('facet value searches', () => {
    for (const { facet, facetQuery, params } of CONFORMANCE_FACET_QUERIES) {
      const expected = built.searchForFacetValues(CONFORMANCE_INDEX, facet, { facetQuery, ...params });
      const actual = restored.searchForFacetValues(CONFORMANCE_INDEX, facet, { facetQuery, ...params });
      assert.deepEqual({ ...actual, processingTimeMS: 0 }, { ...expected, processingTimeMS: 0 });
    }
  });

  it('a replica restores from its primary’s structures and ranks by its own settings', () => {
    const answer = same(built, restored, REPLICA, { query: 'chiar', facets: ['brand'] });
    assert.ok(answer.nbHits > 0);
    assert.deepEqual(Object.fromEntries(restored.rebuilt), {});
  });

  it('3,000 synthetic products: typo, prefix and filtered queries', async () => {
    const products = syntheticProducts({ count: 3000 });
    const settings = {
      searchableAttributes: ['name', 'brand', 'category', 'unordered(description)'],
      attributesForFaceting: ['brand', 'category', 'price'],
      customRanking: ['desc(popularity)'],
    };
    const bundle: IndexBundle = {
      name: 'synthetic',
      exportedAt: 1,
      indices: [{ name: 'synthetic', settings, rules: [], synonyms: [], records: products as never }],
    };
    const pair = await builtAndRestored(bundle);
    const queries = syntheticQueries(products, { count: 10 });
    const asked = [...queries.typo.map((entry) => entry.query), ...queries.prefix];
    assert.ok(asked.length >= 10);
    for (const query of asked) {
      same(pair.built, pair.restored, 'synthetic', { query, facets: ['brand', 'category'], hitsPerPage: 20 });
      same(pair.built, pair.restored, 'synthetic', { query, filters: 'price < 100' });
    }
  });
});

describe('structures of another engine version', () => {
  it('are not restored: the index is built from its records and the reason reported', async () => {
    const bundle = conformanceBundle();
    const primary = bundle.indices[0]!;
    const snapshot = { ...snapshotOf(primary), version: SNAPSHOT_VERSION + 1 };
    const decoded = await decodeBundle(
      await encodeBundle({ ...bundle, indices: [{ ...primary, structures: snapshot }, bundle.indices[1]!] }),
    );
    const engine = new LocalEngine();
    await engine.load(decoded);
    assert.match(
      engine.rebuilt.get(CONFORMANCE_INDEX) ?? '',
      new RegExp(`snapshot version ${SNAPSHOT_VERSION + 1}: this engine reads version ${SNAPSHOT_VERSION}`),
    );
    const reference = new LocalEngine();
    await reference.load(await decodeBundle(await encodeBundle(bundle)));
    same(reference, engine, CONFORMANCE_INDEX, { query: 'chiar', facets: ['brand'] });
  });
});
