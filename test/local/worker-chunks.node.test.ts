/**
 * The worker of `svc-search/local` as a bundler splits it (esbuild, ES modules as Vite emits workers): the code only
 * some files or requests need — the snapshot restore (with the service's `Index`, which restores), the rules, the
 * Recommend answers, the settings validation, synonyms, geo search, the warm-up and the search path's speed-ups of
 * large indices, browsing, the hits' ranking info, the upkeep of sorted structures on later writes — is in chunks the
 * worker imports when it needs them, not in what starting the worker loads.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const LAZY = [
  'src/engine/snapshot.ts',
  // the service's index (deletes, delete by query, snapshots): the worker builds `IndexCore`s
  'src/engine/search-index.ts',
  'src/engine/rules.ts',
  'src/local/recommend.ts',
  'src/engine/settings-validation.ts',
  'src/engine/geo.ts',
  'src/engine/warm-up.ts',
  // the search path's speed-ups for large indices
  'src/engine/large-index.ts',
  'src/engine/synonyms.ts',
  'src/engine/spans.ts',
  'src/engine/language-tables.ts',
  // browsing and its cursor: a page of search elements never browses
  'src/engine/browse.ts',
  'src/engine/cursor.ts',
  // the hits' `_rankingInfo` (`getRankingInfo`)
  'src/engine/ranking-info.ts',
  // the custom dictionaries (a file of an application that has custom entries)
  'src/engine/dictionaries.ts',
  'src/local/custom-dictionaries.ts',
  // the upkeep of sorted structures on later writes: the worker builds each index in one write (the snapshot
  // export's compaction is the service's, in the snapshot chunk)
  'src/engine/upkeep.ts',
];

describe('the worker’s chunks', () => {
  it('leave the snapshot restore and the service’s Index, the rules, Recommend, the settings validation, synonyms, the language tables, geo search, the warm-up and speed-ups of large indices, browsing, the ranking info, custom dictionaries and the upkeep of later writes out of what starting the worker loads, and personalisation out of the worker', async () => {
    const result = await build({
      entryPoints: [join(root, 'src/local/worker.ts')],
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: '/tmp/svc-search-worker-chunks',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    // the worker's own output (a dynamically imported module is an entry point of its own chunk too)
    const entry = Object.keys(outputs).find((name) => outputs[name]!.entryPoint === 'src/local/worker.ts')!;
    const eager = new Set<string>();
    const visit = (name: string) => {
      if (eager.has(name)) return;
      eager.add(name);
      for (const imported of outputs[name]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit(entry);
    const eagerInputs = new Set([...eager].flatMap((name) => Object.keys(outputs[name]!.inputs)));
    assert.ok(eagerInputs.has('src/engine/matching.ts'), 'the engine starts with the worker');
    for (const module of LAZY) {
      assert.ok(!eagerInputs.has(module), `${module} is not loaded at start`);
      const lazy = Object.keys(outputs).filter((name) => !eager.has(name) && module in outputs[name]!.inputs);
      assert.equal(lazy.length, 1, `${module} has a chunk of its own`);
    }
    const everything = new Set(Object.values(outputs).flatMap((output) => Object.keys(output.inputs)));
    assert.ok(!everything.has('src/engine/personalization.ts'), 'personalisation is not in the worker');
  });
});
