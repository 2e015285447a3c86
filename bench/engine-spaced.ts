/**
 * The engine's queries back to back and spaced out (`npm run bench -- engine-spaced`, opt-in): what part of
 * the gap between the in-process and the over-HTTP latency is the engine itself, running colder when its
 * queries are not back to back. The in-process benchmarks run one query after the other, so each finds the
 * caches (CPU caches, TLB, branch predictors) as the previous one left them; behind a server the searches
 * are separated by the HTTP work of both sides and by waits for the network, which evict them.
 *
 * The Zipf corpus and query sets of `engine-scale` (`SPACED_SIZE` records, default 1,000,000, seed 42;
 * queries seed 7), the engine's CPU time per query (this thread, `process.cpuUsage`, so waits for a CPU do
 * not count) in three ways, alternating, `SPACED_ROUNDS` rounds (default 3), medians of the rounds' p50s:
 * back to back; with the thread asleep 0.5 ms between queries (a client's turn-around); with unrelated
 * JavaScript between queries (serialising and parsing a 9 kB answer, about what the HTTP layer of one
 * search handles).
 */
import { syntheticQueries, zipfProducts } from '../service/src/datasets/synthetic.js';
import { ours } from './engines.js';
import { fmt, loadNote, percentile, table } from './measure.js';

export async function run(): Promise<void> {
  const size = Number(process.env.SPACED_SIZE ?? 1_000_000);
  const rounds = Number(process.env.SPACED_ROUNDS ?? 3);
  const products = zipfProducts({ count: size, seed: 42 });
  const queries = syntheticQueries(products, { count: 1000, seed: 7 });
  const engine = ours();
  engine.build(products);
  const index = engine.index();
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  // about one answer of 20 highlighted hits, serialised and parsed: the kind of work the HTTP layer does
  const answer = index.search({ query: queries.prefix[0]!, hitsPerPage: 20 });
  const between: Record<string, () => void> = {
    'back to back': () => undefined,
    'asleep 0.5 ms between': () => {
      Atomics.wait(sleeper, 0, 0, 0.5);
    },
    'a 9 kB JSON round trip between': () => {
      JSON.parse(JSON.stringify(answer));
    },
  };
  const kinds: Record<string, Array<Record<string, unknown>>> = {
    prefix: queries.prefix.map((query) => ({ query, hitsPerPage: 20 })),
    typo: queries.typo.map(({ query }) => ({ query, hitsPerPage: 20 })),
    faceted: queries.faceted.map((query) => ({ query, hitsPerPage: 20, facets: ['brand', 'category'] })),
  };
  const p50s = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [kind, list] of Object.entries(kinds)) {
      for (const [mode, pause] of Object.entries(between)) {
        for (const params of list.slice(0, 50)) index.search(params);
        const cpu: number[] = [];
        for (const params of list) {
          pause();
          const before = process.cpuUsage();
          index.search(params);
          const used = process.cpuUsage(before);
          cpu.push((used.user + used.system) / 1000);
        }
        cpu.sort((a, b) => a - b);
        const key = `${kind}\u0000${mode}`;
        p50s.set(key, [...(p50s.get(key) ?? []), percentile(cpu, 50)]);
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `${size.toLocaleString('en')} records; the engine's CPU ms per query, p50 (median of ${rounds} alternating rounds)\n`,
  );
  const modes = Object.keys(between);
  table(
    ['kind', ...modes, 'spaced ÷ back to back'],
    Object.keys(kinds).map((kind) => {
      const values = modes.map((mode) => median(p50s.get(`${kind}\u0000${mode}`)!));
      return [kind, ...values.map(fmt), `×${(Math.max(...values.slice(1)) / values[0]!).toFixed(2)}`];
    }),
  );
  console.log(loadNote());
}
