/**
 * What starting the worker of `svc-search/local` loads, as Vite builds it (`vite build --mode loader`, the file
 * `assets/worker-*.js` a page with `<svc-search local-index>` fetches; its source map kept as the benchmarks' build
 * keeps it): the engine's loading and search path, not what only some files, requests or the service need — the
 * upkeep of sorted structures on later writes (the worker builds each index in one write), the snapshot restore and
 * the service's `Index`, the settings validation, rules, synonyms, geo search, browsing, the ranking info, custom
 * dictionaries, Recommend (its lists read from the file's form, records by objectID), the search path's speed-ups
 * for large indices. `npm run bench -- byte-map` prints the same file module by module.
 *
 * The ceiling is the target of `npm run bench -- local` (25,000 B min+gzip; 24,898 B when it was set, see
 * docs/notes/engine.md, "In the browser").
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const WORKER_START_CEILING_BYTES = 25_000;

/** Modules a page's worker loads only when a file or a request needs them (or never). */
const NOT_AT_START = [
  'engine/filters.ts',
  'engine/filter-bits.ts',
  'engine/upkeep.ts',
  'engine/snapshot.ts',
  'engine/structures.ts',
  'engine/search-index.ts',
  'engine/settings-validation.ts',
  'engine/rules.ts',
  'engine/synonyms.ts',
  'engine/spans.ts',
  'engine/language-tables.ts',
  'engine/geo.ts',
  'engine/browse.ts',
  'engine/cursor.ts',
  'engine/ranking-info.ts',
  'engine/warm-up.ts',
  // the one-word path on bits and the walk of several words: loaded with the warm-up, for a large index
  'engine/one-word.ts',
  'engine/many-words.ts',
  // the search path's speed-ups for large indices: loaded for an index of `LARGE_INDEX_AT` records or more
  'engine/large-index.ts',
  'engine/dictionaries.ts',
  'engine/personalization.ts',
  'local/recommend.ts',
  // the Recommend lists read into objectIDs (and the file's writing): the worker reads a file with `bundle-read.ts`
  'engine/bundle.ts',
  'local/custom-dictionaries.ts',
];

describe('the worker’s start file (Vite build)', () => {
  let out: string;
  let code: string;
  let modules: Set<string>;

  before(() => {
    out = mkdtempSync(join(tmpdir(), 'svc-worker-start-'));
    const result = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--mode',
        'loader',
        '--logLevel',
        'error',
        '--outDir',
        out,
        '--emptyOutDir',
      ],
      { cwd: root, encoding: 'utf8', env: { ...process.env, SVC_BENCH_WORKER_MAPS: '1' } },
    );
    assert.equal(result.status, 0, `vite build failed:\n${result.stdout}\n${result.stderr}`);
    const workers = readdirSync(join(out, 'assets')).filter((file) => /^worker-[\w-]+\.js$/.test(file));
    assert.equal(workers.length, 1, `one worker start file (${workers.join(', ')})`);
    const path = join(out, 'assets', workers[0]!);
    code = readFileSync(path, 'utf8');
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
    modules = new Set(map.sources.map((source) => /\bsrc\/(.*)$/.exec(source)?.[1] ?? source));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('holds the loading and search path: the index, matching, ranking, facets, highlighting and .svcidx decoding', () => {
    for (const module of [
      'local/worker.ts',
      'engine/bundle-read.ts',
      'engine/index-core.ts',
      'engine/postings.ts',
      'engine/matching.ts',
      'engine/ranking.ts',
      'engine/facets.ts',
      'engine/highlight.ts',
    ])
      assert.ok(modules.has(module), `${module} is in the start file`);
  });

  it('leaves out the filter language’s parser and the evaluation of filters (a search without a filter runs neither)', () => {
    assert.ok(!modules.has('engine/filters.ts'), 'the parser of `filters` and of the filter arrays');
    assert.ok(!modules.has('engine/filter-bits.ts'), 'the evaluation of a filter to bit sets');
    assert.ok(!code.includes('expected AND, OR or end of input'), 'no message of the filter grammar');
  });

  it('leaves out the upkeep of later writes and what only some files, requests or the service need', () => {
    for (const module of NOT_AT_START) assert.ok(!modules.has(module), `${module} is not in the start file`);
  });

  it(`stays under ${WORKER_START_CEILING_BYTES.toLocaleString('en-US')} B min+gzip`, () => {
    const bytes = gzipSync(code, { level: 9 }).length;
    assert.ok(bytes <= WORKER_START_CEILING_BYTES, `${bytes} B`);
  });
});
