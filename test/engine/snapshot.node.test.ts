/**
 * Index snapshots (`toSnapshot` / `fromSnapshot`, src/engine/snapshot.ts): the restored index answers
 * as the one the snapshot was taken of — with every attribute searchable (ranks given as attributes appear), after
 * deletes and replacements, and under later writes — and a snapshot that does not fit is refused with a
 * `SnapshotError` naming why. The `.svcidx` sections round-trip; damaged ones are refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle } from '../../src/engine/bundle.js';
import { SnapshotError } from '../../src/engine/errors.js';
import { Index, type IndexRecord } from '../../src/engine/index.js';
import { fromSnapshot, type IndexSnapshot, SNAPSHOT_VERSION, toSnapshot } from '../../src/engine/snapshot.js';

const WORDS = ['oak', 'table', 'chair', 'lamp', 'wooden', 'modern', 'sofa', 'grey', 'café', 'garden', 'desk'];

function records(count: number, from = 0): IndexRecord[] {
  return Array.from({ length: count }, (_, k) => {
    const i = k + from;
    return {
      objectID: `r${i}`,
      title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]} ${WORDS[(i * 7 + 2) % WORDS.length]}`,
      ...(i % 3 === 0 ? { notes: `${WORDS[(i * 5) % WORDS.length]} notes ${i}` } : {}),
      tags: [WORDS[i % 4]!, `t${i % 6}`],
      price: (i * 37) % 200,
      rank: i % 10,
    };
  });
}

const SETTINGS = { attributesForFaceting: ['tags', 'price'], customRanking: ['desc(rank)'] };

const QUERIES: Array<Record<string, unknown>> = [
  { query: '' },
  { query: 'chiar', facets: ['tags'] },
  { query: 'wooden tab', getRankingInfo: true },
  { query: 'cafe', attributesToHighlight: ['*'] },
  { query: 'notes', filters: 'price < 100', facets: ['price'] },
  { query: 'grey sofa', facetFilters: [['tags:oak', 'tags:lamp']] },
  { query: '"oak table"', advancedSyntax: true },
];

function answers(index: Index): unknown[] {
  return QUERIES.map((params) => ({ ...index.search(params), processingTimeMS: 0 }));
}

function restore(index: Index, snapshot: IndexSnapshot = toSnapshot(index)): Index {
  return fromSnapshot(index.name, { settings: index.getSettings(), records: [...index.objects()], snapshot });
}

describe('index snapshots', () => {
  it('restore an index that answers as the original, every attribute searchable', () => {
    const original = new Index('shop');
    original.setSettings(SETTINGS);
    original.saveObjects(records(400));
    const restored = restore(original);
    assert.deepEqual(answers(restored), answers(original));
    assert.ok((original.search({ query: 'notes' }).nbHits ?? 0) > 0, 'an attribute only some records have');
  });

  it('restore after deletes and replacements, and take later writes as the original does', () => {
    const original = new Index('shop');
    original.setSettings({ ...SETTINGS, searchableAttributes: ['title', 'unordered(notes)', 'tags'] });
    original.saveObjects(records(300));
    original.deleteObjects(['r1', 'r2', 'r50']);
    original.saveObjects(records(20, 100).map((record) => ({ ...record, title: `replaced ${record.title}` })));
    const restored = restore(original);
    assert.deepEqual(answers(restored), answers(original));
    for (const index of [original, restored]) {
      index.saveObjects([...records(30, 1000), { objectID: 'r5', title: 'brand new lamp' }]);
      index.deleteObjects(['r7']);
    }
    assert.deepEqual(answers(restored), answers(original));
    assert.equal(restored.search({ query: 'brand new' }).hits[0]?.objectID, 'r5');
  });

  it('survive the .svcidx file', async () => {
    const original = new Index('shop');
    original.setSettings(SETTINGS);
    original.saveObjects(records(200));
    const snapshot = toSnapshot(original);
    const entry = { name: 'shop', settings: SETTINGS, rules: [], synonyms: [], records: [...original.objects()] };
    const decoded = await decodeBundle(
      await encodeBundle({ name: 'shop', exportedAt: 1, indices: [{ ...entry, structures: snapshot }] }),
    );
    assert.deepEqual(decoded.indices[0]!.structures, snapshot);
    assert.deepEqual(answers(restore(original, decoded.indices[0]!.structures)), answers(original));
  });

  it('refuse another version, other records, other searchable attributes, damaged sections', () => {
    const original = new Index('shop');
    original.setSettings(SETTINGS);
    original.saveObjects(records(50));
    const snapshot = toSnapshot(original);
    const all = [...original.objects()];
    const attempt =
      (change: Partial<IndexSnapshot>, settings: Record<string, unknown> = SETTINGS, given = all) =>
      () =>
        fromSnapshot('shop', { settings, records: given, snapshot: { ...snapshot, ...change } });
    assert.throws(
      attempt({ version: SNAPSHOT_VERSION + 1 }),
      (error: Error) => error instanceof SnapshotError && /version 2: this engine reads version 1/.test(error.message),
    );
    assert.throws(attempt({}, SETTINGS, all.slice(1)), /snapshot of 50 records, given 49/);
    assert.throws(attempt({}, { ...SETTINGS, searchableAttributes: ['title'] }), /other searchable attributes/);
    const cut = { ...snapshot.sections, tokenTerms: snapshot.sections.tokenTerms.subarray(1) };
    assert.throws(attempt({ sections: cut }), SnapshotError);
    const stray = { ...snapshot.sections, postingIds: snapshot.sections.postingIds.map(() => 1000) };
    assert.throws(attempt({ sections: stray }), /a posting names no record/);
    assert.doesNotThrow(attempt({}));
  });

  it('a .svcidx with cut sections is refused, a version 1 file is still read', async () => {
    const original = new Index('shop');
    original.saveObjects(records(20));
    const entry = { name: 'shop', settings: {}, rules: [], synonyms: [], records: [...original.objects()] };
    const bytes = await encodeBundle({
      name: 'shop',
      exportedAt: 1,
      indices: [{ ...entry, structures: toSnapshot(original) }],
    });
    const plain = new Uint8Array(
      await new Response(
        new Blob([bytes.subarray(8) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip')),
      ).arrayBuffer(),
    );
    const gzip = async (data: Uint8Array) =>
      new Uint8Array(
        await new Response(
          new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip')),
        ).arrayBuffer(),
      );
    const cut = await gzip(plain.subarray(0, plain.length - 10));
    await assert.rejects(decodeBundle(new Uint8Array([...bytes.subarray(0, 8), ...cut])), /cut short or damaged/);
    const json = new TextEncoder().encode(
      JSON.stringify({
        name: 'shop',
        exportedAt: 1,
        indices: [{ ...entry, records: undefined, count: 0, columns: { attributes: [], values: [], absent: [] } }],
      }),
    );
    const v1 = new Uint8Array([0x53, 0x56, 0x43, 0x49, 0x44, 0x58, 0x00, 0x01, ...(await gzip(json))]);
    const decoded = await decodeBundle(v1);
    assert.equal(decoded.indices[0]!.name, 'shop');
    assert.equal(decoded.indices[0]!.structures, undefined);
  });
});
