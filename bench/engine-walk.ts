/**
 * The walk of several words (`src/engine/many-words.ts`) against the general path, paired in one process
 * (`npm run bench -- engine-walk`, opt-in): the Zipf corpus of `engine-scale` (`WALK_SIZE` records, default
 * 1,000,000, seed 42) and its three query sets (seed 7). Each query runs alternately with the walk and without
 * it (the `oneWord` feature installed with a `rankOneWord` that leaves queries of several words to the general
 * path), three times each, the order of the two swapped from one query to the next; each keeps its fastest run
 * (wall clock, and CPU time of the process), which takes most of the waiting for a CPU out of the figure on a
 * shared machine. Prints p50 / p99 / max per kind and path, how many queries the walk answered, how many of its
 * walks stopped on the bound, the records they read and the records the threshold pass added, the slowest
 * queries of each path, and how many responses differ (they must not: every field but `processingTimeMS`).
 * A query's runs come back to back, so its words' derivations are cached after the first (the typo search of a
 * word no recent query used is in `engine-tail`'s and `engine-scale`'s figures, not in these).
 */
import { installFeature } from '../src/engine/features.js';
import { manyWordsStats } from '../src/engine/many-words.js';
import { rankOneWord } from '../src/engine/one-word.js';
import { zipfProducts, syntheticQueries } from '../service/src/datasets/synthetic.js';
import { ours } from './engines.js';
import { fmt, loadNote, percentile, table } from './measure.js';

type Params = Record<string, unknown>;

/** The one-word path as it is; queries of several words left to the general path. */
const generalForSeveralWords: { rankOneWord: typeof rankOneWord } = {
  rankOneWord: (state, exec, crits, need) => (exec.oneWord ? rankOneWord(state, exec, crits, need) : null),
};

function timed(fn: () => void): [number, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return [wall, (cpu.user + cpu.system) / 1000];
}

function tail(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(percentile(sorted, 50))} / ${fmt(percentile(sorted, 99))} / ${fmt(sorted[sorted.length - 1]!)}`;
}

export async function run(): Promise<void> {
  const size = Number(process.env.WALK_SIZE ?? 1_000_000);
  const products = zipfProducts({ count: size, seed: 42 });
  const queries = syntheticQueries(products, { count: 1000, seed: 7 });
  const engine = ours();
  engine.build(products);
  const index = engine.index();
  const kinds: Record<string, Params[]> = {
    prefix: queries.prefix.map((q) => ({ query: q, hitsPerPage: 20 })),
    typo: queries.typo.map(({ query }) => ({ query, hitsPerPage: 20 })),
    faceted: queries.faceted.map((q) => ({ query: q, hitsPerPage: 20, facets: ['brand', 'category'] })),
  };
  const search = (params: Params, walk: boolean) => {
    if (!walk) installFeature('orderWalks', generalForSeveralWords);
    try {
      return index.search(params);
    } finally {
      if (!walk) installFeature('orderWalks', { rankOneWord });
    }
  };
  console.log(`${size.toLocaleString('en')} records; each query's fastest of 3 runs per path, alternating (ms)\n`);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const [kind, list] of Object.entries(kinds)) {
    for (const params of list.slice(0, 50)) {
      search(params, true);
      search(params, false);
    }
    const best = { walk: list.map(() => [Infinity, Infinity]), general: list.map(() => [Infinity, Infinity]) };
    let differ = 0;
    const before = manyWordsStats();
    for (let rep = 0; rep < 3; rep++) {
      list.forEach((params, i) => {
        const answers: string[] = [];
        const once = (walk: boolean) => {
          let text = '';
          const [wall, cpu] = timed(() => {
            text = JSON.stringify({ ...search(params, walk), processingTimeMS: 0 });
          });
          const mine = walk ? best.walk[i]! : best.general[i]!;
          mine[0] = Math.min(mine[0]!, wall);
          mine[1] = Math.min(mine[1]!, cpu);
          answers.push(text);
        };
        const walkFirst = (rep + i) % 2 === 0;
        once(walkFirst);
        once(!walkFirst);
        if (rep === 0 && answers[0] !== answers[1]) differ++;
      });
    }
    const after = manyWordsStats();
    const answered = (after.answers - before.answers) / 3;
    for (const path of ['general', 'walk'] as const) {
      rows.push([
        kind,
        path,
        tail(best[path].map(([wall]) => wall!)),
        tail(best[path].map(([, cpu]) => cpu!)),
        path === 'walk' ? String(differ) : '',
      ]);
    }
    const perAnswer = (value: number) => (answered ? (value / 3 / answered).toFixed(0) : '0');
    notes.push(
      `  ${kind}: the walk answered ${answered} of ${list.length}; ${(after.atBound - before.atBound) / 3} stopped on the bound; ` +
        `${perAnswer(after.read - before.read)} records read and ${perAnswer(after.added - before.added)} added by the threshold pass per answer`,
    );
    const slowest = (path: 'walk' | 'general') =>
      list
        .map((params, i) => ({
          query: String(params.query),
          ms: best[path][i]![0]!,
          other: best[path === 'walk' ? 'general' : 'walk'][i]![0]!,
        }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 6)
        .map((s) =>
          path === 'walk'
            ? `"${s.query}" ${fmt(s.other)} → ${fmt(s.ms)}`
            : `"${s.query}" ${fmt(s.ms)} → ${fmt(s.other)}`,
        )
        .join(', ');
    notes.push(`    slowest on the general path (general → walk, wall): ${slowest('general')}`);
    notes.push(`    slowest with the walk (general → walk, wall): ${slowest('walk')}`);
  }
  table(['kind', 'path', 'wall p50 / p99 / max', 'CPU p50 / p99 / max', 'responses differing'], rows);
  console.log(`\n${notes.join('\n')}`);
  console.log(loadNote());
}
