/**
 * `svc-search-service export`: the command writes a `.svcidx` of an index (the demo catalogue here) that
 * decodes to the same records, settings, replicas, rules and synonyms as the service holds, with Recommend
 * answers equal to the service's own, and the engine's structures when asked; bad arguments exit with code 2 and the usage; a replica or a missing
 * index is refused with a message.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBundle, type IndexBundle } from 'svc-search/engine';
import { DEMO_RULES } from '../src/datasets/demo.js';
import { exportIndex } from '../src/export.js';
import { startService, type Running } from './service-helpers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'service/src/cli.ts'), ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

describe('svc-search-service export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-export-'));
  const out = join(dir, 'indexes/products.svcidx');
  let bundle: IndexBundle;
  let bytes: Uint8Array;
  let running: Running;

  before(async () => {
    const result = await run(['export', '--index', 'products', '--out', out, '--data-dir', ':memory:', '--demo']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /wrote .*products\.svcidx: \d+ bytes, 1862 records, indices products, products_price_asc, products_price_desc/,
    );
    bytes = new Uint8Array(readFileSync(out));
    bundle = await decodeBundle(bytes);
    running = await startService({ dataDir: ':memory:', demo: true });
  });
  after(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the file starts with the magic bytes and holds the index, its replicas, rules and records', async () => {
    assert.deepEqual([...bytes.subarray(0, 8)], [0x53, 0x56, 0x43, 0x49, 0x44, 0x58, 0, 2]);
    assert.equal(bundle.name, 'products');
    assert.deepEqual(
      bundle.indices.map((entry) => [entry.name, entry.replicaOf]),
      [
        ['products', undefined],
        ['products_price_asc', 'products'],
        ['products_price_desc', 'products'],
      ],
    );
    const [primary, asc] = bundle.indices;
    assert.equal(primary!.records!.length, 1862);
    assert.equal(asc!.records, undefined, 'a replica shares its primary’s records');
    assert.deepEqual(primary!.rules, DEMO_RULES);
    const settings = await running.ok('GET', '/1/indexes/products/settings');
    const { replicas: _replicas, ...own } = settings;
    assert.deepEqual(primary!.settings, own);
    assert.deepEqual((asc!.settings as { ranking: string[] }).ranking[0], 'asc(price)');
    const browsed = await running.ok('POST', '/1/indexes/products/browse', { hitsPerPage: 1000 });
    const byId = new Map(primary!.records!.map((record) => [record.objectID, record]));
    for (const hit of browsed.hits) {
      const { _highlightResult, _snippetResult, ...record } = hit;
      assert.deepEqual(byId.get(hit.objectID), record);
    }
  });

  test('the Recommend answers are the service’s (top 10 per record and model)', async () => {
    const lists = bundle.recommendations!.products!;
    const ids = ['TEC-AC-10002049', 'FUR-CH-10002024', bundle.indices[0]!.records![100]!.objectID];
    for (const objectID of ids) {
      for (const [model, byObject] of [
        ['related-products', lists.relatedProducts],
        ['bought-together', lists.boughtTogether],
      ] as const) {
        const answer = await running.ok('POST', '/1/indexes/*/recommendations', {
          requests: [{ indexName: 'products', model, objectID, threshold: 0, maxRecommendations: 10 }],
        });
        const expected = answer.results[0].hits.map((hit: any) => ({ objectID: hit.objectID, score: hit._score }));
        assert.deepEqual(byObject[objectID] ?? [], expected, `${model} of ${objectID}`);
      }
    }
    assert.ok(Object.keys(lists.relatedProducts).length > 1000);
    assert.ok(lists.trendingItems.length > 0);
    assert.ok((lists.trendingFacets.category ?? []).length > 0);
  });

  test('the demo catalogue’s file is at most 150,000 bytes (it is gzip inside)', () => {
    assert.ok(bytes.length <= 150_000, `${bytes.length} bytes`);
  });

  test('the demo catalogue (under 10,000 records) leaves the structures out by default; --structures always writes them', async () => {
    assert.equal(bundle.indices[0]!.structures, undefined);
    const result = await run([
      'export',
      '--index',
      'products',
      '--out',
      out.replace('products.svcidx', 'with-structures.svcidx'),
      '--data-dir',
      ':memory:',
      '--demo',
      '--recommendations',
      '0',
      '--structures',
      'always',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const withStructures = await decodeBundle(
      new Uint8Array(readFileSync(out.replace('products.svcidx', 'with-structures.svcidx'))),
    );
    const structures = withStructures.indices[0]!.structures!;
    assert.equal(structures.records, 1862);
    assert.ok(structures.sections.tokenTerms.length > 10_000, 'the records’ tokens');
    assert.equal(withStructures.indices[1]!.structures, undefined, 'replicas restore from their primary’s');
  });

  test('--recommendations 0 leaves Recommend out', async () => {
    const { bytes: none } = await exportIndex({
      dataDir: ':memory:',
      demo: true,
      index: 'products',
      recommendations: 0,
    });
    assert.equal((await decodeBundle(none)).recommendations, undefined);
    assert.ok(none.length < bytes.length);
  });

  test('bad arguments exit with code 2 and the usage; a replica or a missing index is refused', async () => {
    for (const args of [
      ['export'],
      ['export', '--index', 'products'],
      ['export', '--index', 'x', '--out', out, '--recommendations', '-1'],
      ['export', '--index', 'x', '--out', out, '--structures', 'sometimes'],
    ]) {
      const result = await run(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /svc-search-service export --index NAME/);
    }
    await assert.rejects(
      exportIndex({ dataDir: ':memory:', demo: true, index: 'products_price_asc', recommendations: 0 }),
      /products_price_asc is a replica of products: export the primary/,
    );
    await assert.rejects(exportIndex({ dataDir: ':memory:', index: 'nothing' }), /Index nothing does not exist/);
  });
});
