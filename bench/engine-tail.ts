/**
 * The slowest 1 % of the engine's queries (`npm run bench -- engine-tail`, opt-in): the Zipf corpus of
 * `engine-scale` (`TAIL_SIZE` records, default 1,000,000, seed 42) and its three query sets (seed 7).
 * Each query runs `TAIL_REPS` times (default 3) and keeps its fastest time, which takes most of the
 * waiting for a CPU out of the figure on a shared machine: what is left is the query's own cost. Prints
 * p50 / p99 of those per kind, the slowest 1 % with their hit counts, then where their time goes — a
 * CPU profile (V8's sampling profiler, through `node:inspector`, started after the build) of 20 runs of
 * each of them, as self time per function.
 */
import { Session } from 'node:inspector';
import { zipfProducts, syntheticQueries } from '../service/src/datasets/synthetic.js';
import { ours } from './engines.js';
import { fmt, loadNote, percentile, table } from './measure.js';

type Params = Record<string, unknown>;

interface Slow {
  kind: string;
  query: string;
  params: Params;
  ms: number;
  nbHits: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => {
      if (error) reject(error);
      else resolve(result as T);
    });
  });
}

/** Self time per function of `run()` (the profiler's own calls left out), largest first. */
async function profileOf(run: () => void): Promise<Array<[string, number]>> {
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
  await post(session, 'Profiler.start');
  run();
  const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
  session.disconnect();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    // `dispatch` (no script) is the inspector session answering the profiler: not the searches
    if (frame.functionName === 'dispatch' && !frame.url) return;
    const file = frame.url.split('/').pop() || '(native)';
    const name = `${frame.functionName || '(anonymous)'} (${file})`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self].map(([name, us]): [string, number] => [name, us / total]).sort((a, b) => b[1] - a[1]);
}

export async function run(): Promise<void> {
  const size = Number(process.env.TAIL_SIZE ?? 1_000_000);
  const reps = Number(process.env.TAIL_REPS ?? 3);
  const products = zipfProducts({ count: size, seed: 42 });
  const queries = syntheticQueries(products, { count: 1000, seed: 7 });
  const engine = ours();
  engine.build(products);
  const index = engine.index();
  const kinds: Record<string, Array<[string, Params]>> = {
    prefix: queries.prefix.map((q) => [q, { query: q, hitsPerPage: 20 }]),
    typo: queries.typo.map(({ query: q }) => [q, { query: q, hitsPerPage: 20 }]),
    faceted: queries.faceted.map((q) => [q, { query: q, hitsPerPage: 20, facets: ['brand', 'category'] }]),
  };
  console.log(`${size.toLocaleString('en')} records; each query's fastest of ${reps} runs (ms)\n`);
  const rows: string[][] = [];
  const slowest: Slow[] = [];
  for (const [kind, list] of Object.entries(kinds)) {
    for (const [, params] of list.slice(0, 50)) index.search(params);
    const best = list.map(() => Number.POSITIVE_INFINITY);
    const hits = list.map(() => 0);
    for (let rep = 0; rep < reps; rep++) {
      list.forEach(([, params], i) => {
        const t0 = performance.now();
        const response = index.search(params);
        best[i] = Math.min(best[i]!, performance.now() - t0);
        hits[i] = response.nbHits;
      });
    }
    const sorted = [...best].sort((a, b) => a - b);
    rows.push([kind, fmt(percentile(sorted, 50)), fmt(percentile(sorted, 99)), fmt(sorted[sorted.length - 1]!)]);
    const order = best.map((_, i) => i).sort((a, b) => best[b]! - best[a]!);
    for (const i of order.slice(0, Math.max(1, Math.round(list.length / 100)))) {
      slowest.push({ kind, query: list[i]![0], params: list[i]![1], ms: best[i]!, nbHits: hits[i]! });
    }
  }
  table(['kind', 'p50', 'p99', 'max'], rows);
  console.log('\nthe slowest 1 % (fastest of the runs, ms; hits):');
  for (const kind of Object.keys(kinds)) {
    const mine = slowest.filter((s) => s.kind === kind);
    console.log(
      `  ${kind}: ${mine.map((s) => `"${s.query}" ${fmt(s.ms)} (${s.nbHits.toLocaleString('en')})`).join(', ')}`,
    );
  }
  const shares = await profileOf(() => {
    for (let i = 0; i < 20; i++) for (const s of slowest) index.search(s.params);
  });
  console.log('\nwhere their time goes (CPU profile, self time):');
  table(
    ['function', 'share'],
    shares.slice(0, 12).map(([name, share]) => [name, `${(share * 100).toFixed(1)} %`]),
  );
  console.log(loadNote());
  engine.dispose();
}
