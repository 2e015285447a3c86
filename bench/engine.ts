/**
 * Engine benchmark: our engine side by side with MiniSearch and Orama, in one process, on the same
 * seeded synthetic corpus (100,000 short product records) and the same queries.
 *
 * Figures: build time, memory delta after build (V8 heap + external memory of typed arrays; needs
 * `--expose-gc`, as `npm run bench` passes),
 * median and p99 latency of one-word prefix queries, two-word queries with one typo, and one-word
 * queries with facet counts on brand and category, and the typo recall (share of typo queries whose
 * source record is in the top 20).
 *
 * Fairness: see `engines.ts` (same fields, prefix and typo tolerance, AND, top 20). Typo figures: *found*
 * (the source record matches at all) and *top 20* (see `engine-measure.ts`). The scale corpus, where
 * typos compete with many exact matches, is `engine-scale.ts`.
 */
import os from 'node:os';
import { Index } from '../service/src/engine/index.js';
import { syntheticProducts, syntheticQueries } from '../service/src/datasets/synthetic.js';
import { measureEngine, type Figures } from './engine-measure.js';
import { ENGINES } from './engines.js';
import { fmt as f, pair as p, percentile, table } from './measure.js';

export async function run(): Promise<void> {
  const count = Number(process.env.BENCH_RECORDS ?? 100_000);
  const nQueries = Number(process.env.BENCH_QUERIES ?? 1000);
  const only = (process.env.BENCH_ENGINES ?? 'ours,minisearch,orama').split(',');
  const products = syntheticProducts({ count, seed: 42 });
  const queries = syntheticQueries(products, { count: nQueries, seed: 7 });
  if (!(globalThis as { gc?: unknown }).gc)
    console.log('(run with --expose-gc for memory figures: npm run bench does)');
  console.log(
    `corpus: ${products.length.toLocaleString('en')} synthetic products (seed 42), ${nQueries} queries per kind (seed 7)`,
  );
  console.log(
    `examples: prefix "${queries.prefix[0]}", typo "${queries.typo[0]!.query}", faceted "${queries.faceted[0]}"\n`,
  );
  const results: Figures[] = [];
  for (const name of only) results.push(await measureEngine(ENGINES[name]!, products, queries));
  console.log('wall-clock latency (what a caller waits):');
  table(
    [
      'engine',
      'build ms',
      'memory MB',
      'prefix p50/p99 ms',
      'typo p50/p99 ms',
      'faceted p50/p99 ms',
      'typo found',
      'typo top 20',
    ],
    results.map((r) => [
      r.name,
      f(r.buildMs),
      f(r.memoryBytes / 2 ** 20),
      p(r.prefix.wall),
      p(r.typo.wall),
      p(r.faceted.wall),
      `${(r.found * 100).toFixed(1)} %`,
      `${(r.recall * 100).toFixed(1)} %`,
    ]),
  );
  console.log('\nCPU time per query (this process, user + system; insensitive to other load on the machine):');
  table(
    ['engine', 'prefix p50/p99 ms', 'typo p50/p99 ms', 'faceted p50/p99 ms'],
    results.map((r) => [r.name, p(r.prefix.cpu), p(r.typo.cpu), p(r.faceted.cpu)]),
  );
  const load = os.loadavg()[0]!;
  console.log(
    `\nload average during the run: ${load.toFixed(1)} on ${os.cpus().length} CPUs${load > os.cpus().length ? ' — the machine was busy; wall-clock p99 includes waiting for a CPU' : ''}`,
  );
  const me = results.find((r) => r.name === 'svc-search engine');
  if (me) {
    console.log('\nratios (peer ÷ ours; above 1 means ours is faster/smaller):');
    for (const r of results) {
      if (r === me) continue;
      console.log(
        `  vs ${r.name}: build ×${(r.buildMs / me.buildMs).toFixed(2)}, memory ×${(r.memoryBytes / me.memoryBytes).toFixed(2)}, ` +
          `p99 prefix ×${(r.prefix.wall[1] / me.prefix.wall[1]).toFixed(1)}, typo ×${(r.typo.wall[1] / me.typo.wall[1]).toFixed(1)}, faceted ×${(r.faceted.wall[1] / me.faceted.wall[1]).toFixed(1)}, ` +
          `recall ${(me.recall * 100).toFixed(1)} % vs ${(r.recall * 100).toFixed(1)} %`,
      );
    }
    const worst = Math.max(me.prefix.wall[1], me.typo.wall[1], me.faceted.wall[1]);
    const worstCpu = Math.max(me.prefix.cpu[1], me.typo.cpu[1], me.faceted.cpu[1]);
    console.log(
      `\ntarget p99 ≤ 10 ms: wall-clock ${worst <= 10 ? 'met' : 'NOT met'} (worst p99 ${f(worst)} ms), CPU ${worstCpu <= 10 ? 'met' : 'NOT met'} (worst p99 ${f(worstCpu)} ms); ` +
        `better typo recall than both peers: ${results.every((r) => r === me || me.recall > r.recall) ? 'yes' : 'no'}`,
    );
  }
  // Incremental writes on the loaded corpus: one record saved, then a search that must see it (what the
  // local service does for every single-record write followed by a read).
  if (only.includes('ours')) {
    const index = new Index('bench-writes');
    index.setSettings({
      searchableAttributes: ['name', 'brand', 'category'],
      attributesForFaceting: ['brand', 'category'],
    });
    index.saveObjects(products.map((product) => ({ ...product })));
    index.search({ query: 'a' });
    const perWrite: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t0 = performance.now();
      index.saveObjects([
        { objectID: `write-${i}`, name: `zebrawrite${i} lamp`, brand: 'bench', category: 'bench', price: i },
      ]);
      const seen = index.search({ query: `zebrawrite${i}`, typoTolerance: false, facets: ['brand'] }).nbHits;
      perWrite.push(performance.now() - t0);
      if (seen !== 1) throw new Error(`bench: write ${i} not visible to the next search`);
    }
    perWrite.sort((a, b) => a - b);
    console.log(`
incremental writes on the ${products.length.toLocaleString('en')}-record index (save one record + a faceted search that sees it), 500 in a row: p50 ${f(percentile(perWrite, 50))} ms, p99 ${f(percentile(perWrite, 99))} ms`);
  }
}
