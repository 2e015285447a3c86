/**
 * The engine and the service at scale (`npm run bench -- engine-scale`): the Zipf corpus of
 * `zipfProducts` (title words with P(rank r) ∝ 1/r, 4–6 per title, the most common one in ~37 % of the
 * records; 500 Zipf-like brands; 40 categories) at 10k, 100k and 1M records, seed 42, and the query
 * sets of `syntheticQueries` (seed 7): one-word prefixes, two-word queries with one typo, faceted
 * one-word queries.
 *
 * In process: our engine beside MiniSearch and Orama (peers up to `SCALE_PEERS_MAX` records, default
 * 100,000: at 1M they take minutes and gigabytes), build time, memory and bytes of index per record
 * (beyond the records, which the bench holds anyway), p50 / p99 of the three kinds (wall clock and CPU
 * time), typo found / top 20. Over HTTP (`service-scale.ts`): batch loading, first search after the
 * load, one-client latency, 10 vs 1 client throughput.
 *
 * Environment: `SCALE_SIZES` (default `10000,100000,1000000`), `SCALE_HTTP_SIZES` (default: the same),
 * `SCALE_PEERS_MAX`, `SCALE_QUERIES` (default 1000 per kind), `SCALE_ENGINES` (default
 * `ours,minisearch,orama`).
 */
import { zipfProducts, syntheticQueries, type SyntheticProduct } from '../service/src/datasets/synthetic.js';
import { measureEngine, type Figures } from './engine-measure.js';
import { ENGINES } from './engines.js';
import { fmt, loadNote, pair, table } from './measure.js';
import { measureService, type ServiceFigures } from './service-scale.js';

function list(name: string, fallback: string): number[] {
  return (process.env[name] ?? fallback)
    .split(',')
    .filter(Boolean)
    .map((x) => Number(x));
}

/** The most common title word, the share of records holding it, and of records matching its 2-letter prefix. */
function corpusShape(products: SyntheticProduct[]): string {
  const counts = new Map<string, number>();
  for (const p of products)
    for (const w of new Set(p.name.toLowerCase().split(' '))) counts.set(w, (counts.get(w) ?? 0) + 1);
  let top = '';
  let best = 0;
  for (const [w, c] of counts) {
    if (c > best) {
      best = c;
      top = w;
    }
  }
  const two = top.slice(0, 2);
  let prefixed = 0;
  for (const p of products)
    if (
      p.name
        .toLowerCase()
        .split(' ')
        .some((w) => w.startsWith(two))
    )
      prefixed++;
  const pct = (n: number) => `${((n / products.length) * 100).toFixed(1)} %`;
  return `${counts.size.toLocaleString('en')} distinct title words; the most common, "${top}", is in ${pct(best)} of the records, its prefix "${two}" matches ${pct(prefixed)}`;
}

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);

function printEngines(results: Figures[], count: number): void {
  console.log('in process, wall clock (ms; build s):');
  table(
    [
      'engine',
      'build s',
      'of which 1st search ms',
      'memory MB',
      'index B/record',
      'prefix p50/p99',
      'typo p50/p99',
      'faceted p50/p99',
      'typo found',
      'typo top 20',
    ],
    results.map((r) => [
      r.name,
      fmt(r.buildMs / 1000),
      fmt(r.firstSearchMs),
      fmt(r.memoryBytes / 2 ** 20),
      fmt(r.memoryBytes / count),
      pair(r.prefix.wall),
      pair(r.typo.wall),
      pair(r.faceted.wall),
      pct(r.found),
      pct(r.recall),
    ]),
  );
  console.log('\nin process, CPU time per query (ms, this process, user + system):');
  table(
    ['engine', 'prefix p50/p99', 'typo p50/p99', 'faceted p50/p99'],
    results.map((r) => [r.name, pair(r.prefix.cpu), pair(r.typo.cpu), pair(r.faceted.cpu)]),
  );
}

function printService(s: ServiceFigures): void {
  console.log('\nover HTTP (the service in a child process, one client unless said; ms):');
  table(
    [
      'records',
      'batch load rec/s',
      'rec/s of service CPU',
      '1st search after load',
      '1st faceted',
      'prefix p50/p99',
      'typo p50/p99',
      'faceted p50/p99',
      'service CPU ms/search',
      '1 client q/s (p50)',
      '10 clients q/s (p50)',
      '10 ÷ 1',
      'service RSS MB',
    ],
    [
      [
        s.records.toLocaleString('en'),
        Math.round(s.loadRate).toLocaleString('en'),
        Math.round(s.loadRateCpu).toLocaleString('en'),
        fmt(s.firstSearchMs),
        fmt(s.firstFacetedMs),
        pair(s.prefix.wall),
        pair(s.typo.wall),
        pair(s.faceted.wall),
        fmt(s.serviceCpuMs),
        `${Math.round(s.one.qps)} (${fmt(s.one.p50)})`,
        `${Math.round(s.ten.qps)} (${fmt(s.ten.p50)})`,
        `×${(s.ten.qps / s.one.qps).toFixed(2)}`,
        fmt(s.rssMB),
      ],
    ],
  );
  console.log(
    `one client, per search: service CPU ${fmt(s.serviceCpuMs)} ms, client CPU ${fmt(s.clientCpuMs)} ms (request, answer read and parsed); the same searches on an index without records: p50 ${fmt(s.emptyP50)} ms (the HTTP floor)`,
  );
}

function targets(size: number, me: Figures | undefined, service: ServiceFigures | undefined): void {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\ntargets at ${size.toLocaleString('en')} records:`);
  if (me) {
    const worst = Math.max(me.prefix.wall[1], me.typo.wall[1], me.faceted.wall[1]);
    const worstCpu = Math.max(me.prefix.cpu[1], me.typo.cpu[1], me.faceted.cpu[1]);
    const p50 = Math.max(me.prefix.wall[0], me.typo.wall[0], me.faceted.wall[0]);
    console.log(
      `  in process p99 ≤ 10 ms: ${mark(worst <= 10)} (worst ${fmt(worst)} ms wall, ${fmt(worstCpu)} ms CPU); p50 ≤ 2 ms: ${mark(p50 <= 2)} (worst ${fmt(p50)} ms)`,
    );
    const recallGoal = size >= 1_000_000 ? 0.9 : 0.97;
    console.log(`  typo top 20 ≥ ${recallGoal * 100} %: ${mark(me.recall >= recallGoal)} (${pct(me.recall)})`);
    if (size >= 1_000_000) {
      console.log(`  build ≤ 5 s: ${mark(me.buildMs <= 5000)} (${fmt(me.buildMs / 1000)} s)`);
      console.log(
        `  index ≤ 250 B/record: ${mark(me.memoryBytes / size <= 250)} (${fmt(me.memoryBytes / size)} B/record)`,
      );
    }
  }
  if (service) {
    const worst = Math.max(service.prefix.wall[1], service.typo.wall[1], service.faceted.wall[1]);
    const p50 = Math.max(service.prefix.wall[0], service.typo.wall[0], service.faceted.wall[0]);
    console.log(
      `  over HTTP p99 ≤ 15 ms: ${mark(worst <= 15)} (worst ${fmt(worst)} ms); p50 ≤ 2 ms: ${mark(p50 <= 2)} (worst ${fmt(p50)} ms)`,
    );
    console.log(
      `  batch indexing ≥ 80k records/s: ${mark(service.loadRate >= 80_000)} (${Math.round(service.loadRate).toLocaleString('en')}/s wall clock; ${Math.round(service.loadRateCpu).toLocaleString('en')} per second of the service's CPU)`,
    );
    const first = Math.max(service.firstSearchMs, service.firstFacetedMs);
    console.log(`  first search after a load ≤ 20 ms: ${mark(first <= 20)} (${fmt(first)} ms)`);
    console.log(
      `  10 clients ÷ 1 client (one process; several: the workers section): ×${(service.ten.qps / service.one.qps).toFixed(2)}`,
    );
  }
}

export async function run(): Promise<void> {
  const sizes = list('SCALE_SIZES', '10000,100000,1000000');
  const httpSizes = list('SCALE_HTTP_SIZES', sizes.join(','));
  const peersMax = Number(process.env.SCALE_PEERS_MAX ?? 100_000);
  const nQueries = Number(process.env.SCALE_QUERIES ?? 1000);
  const engines = (process.env.SCALE_ENGINES ?? 'ours,minisearch,orama').split(',');
  if (!(globalThis as { gc?: unknown }).gc)
    console.log('(run with --expose-gc for memory figures: npm run bench does)');
  console.log(
    `corpus: zipfProducts (seed 42), ${nQueries} queries per kind (seed 7); peers up to ${peersMax.toLocaleString('en')} records`,
  );
  for (const size of [...new Set([...sizes, ...httpSizes])].sort((a, b) => a - b)) {
    const products = zipfProducts({ count: size, seed: 42 });
    const queries = syntheticQueries(products, { count: nQueries, seed: 7 });
    console.log(`\n### ${size.toLocaleString('en')} records\n`);
    console.log(`${corpusShape(products)}`);
    console.log(
      `examples: prefix "${queries.prefix[0]}", typo "${queries.typo[0]!.query}", faceted "${queries.faceted[0]}"\n`,
    );
    let me: Figures | undefined;
    if (sizes.includes(size)) {
      const results: Figures[] = [];
      for (const name of engines) {
        if (name !== 'ours' && size > peersMax) continue;
        results.push(await measureEngine(ENGINES[name]!, products, queries));
      }
      printEngines(results, size);
      if (size > peersMax) console.log(`(peers not run at this size: SCALE_PEERS_MAX=${peersMax})`);
      console.log(loadNote());
      me = results.find((r) => r.name === 'svc-search engine');
    }
    let service: ServiceFigures | undefined;
    if (httpSizes.includes(size)) {
      service = await measureService(products, queries);
      printService(service);
      console.log(loadNote());
    }
    targets(size, me, service);
  }
}
