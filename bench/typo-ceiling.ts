/**
 * Why one-typo queries lose their source record below the top 20 on the scale corpus
 * (`npm run bench -- typo-ceiling`, opt-in; `SCALE_SIZE`, default 100,000).
 *
 * For each typo query of `engine-scale.ts` whose source record is not in the top 20, every matching
 * record is ranked (pagination raised to 20,000) and the records *strictly better* than the source on
 * the textual criteria (typo, proximity, attribute, exact — the criteria before the custom ranking)
 * are counted and split by whether they hold the source's own words (the word typed, and the word the
 * typo was made in) or match through other terms (a prefix expansion, another typo neighbour).
 *
 * Printed: the top-20 share; the share the custom ranking could reach at best (the source first among
 * its textual ties); how far behind the misses are; and who beats them.
 */
import { Index } from '../service/src/engine/index.js';
import { syntheticQueries, zipfProducts } from '../service/src/datasets/synthetic.js';
import { BENCH_SETTINGS } from './engines.js';

interface Info {
  nbTypos: number;
  proximityDistance: number;
  firstMatchedWord: number;
  nbExactWords: number;
}

const key = (i: Info) => [i.nbTypos, i.proximityDistance, i.firstMatchedWord, -i.nbExactWords];

function better(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! < b[k]!;
  return false;
}

/** Optimal string alignment distance. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export async function run(): Promise<void> {
  const size = Number(process.env.SCALE_SIZE ?? 100_000);
  const products = zipfProducts({ count: size, seed: 42 });
  const byId = new Map(products.map((p) => [p.objectID, p]));
  const queries = syntheticQueries(products, { count: 1000, seed: 7 });
  const index = new Index('typo-ceiling');
  index.setSettings({ ...BENCH_SETTINGS, paginationLimitedTo: 20_000 });
  index.saveObjects(products);
  let inTop = 0;
  let ceiling = 0;
  let deep = 0;
  let sameWords = 0;
  let otherTerms = 0;
  let pushedByOthers = 0;
  const behind: Record<string, number> = { '< 20': 0, '20–99': 0, '100–999': 0, '≥ 1000': 0 };
  for (const { query, objectID } of queries.typo) {
    if (index.search({ query, hitsPerPage: 20 }).hits.some((h) => h.objectID === objectID)) {
      inTop++;
      ceiling++;
      continue;
    }
    const source = byId.get(objectID)!;
    const own = new Set(words(source.name));
    // the source's words the query was made of: the typed word itself, or the closest word of the title
    const wanted = words(query).map((w) =>
      own.has(w) ? w : [...own].sort((a, b) => distance(w, a) - distance(w, b))[0]!,
    );
    let sourceInfo: Info | undefined;
    const hits: Array<{ objectID: string; info: Info; text: string }> = [];
    for (let page = 0; page < 20; page++) {
      const r = index.search({ query, hitsPerPage: 1000, page, getRankingInfo: true, attributesToHighlight: [] });
      for (const h of r.hits) {
        const info = h._rankingInfo as unknown as Info;
        hits.push({ objectID: h.objectID, info, text: `${h.name} ${h.brand} ${h.category}` });
        if (h.objectID === objectID) sourceInfo = info;
      }
      if (r.hits.length < 1000) break;
    }
    if (!sourceInfo) {
      deep++;
      continue;
    }
    let strictly = 0;
    let same = 0;
    for (const h of hits) {
      if (!better(key(h.info), key(sourceInfo))) continue;
      strictly++;
      const held = new Set(words(h.text));
      if (wanted.every((w) => held.has(w))) same++;
    }
    sameWords += same;
    otherTerms += strictly - same;
    if (same < 20 && strictly >= 20) pushedByOthers++;
    if (strictly < 20) ceiling++;
    behind[strictly < 20 ? '< 20' : strictly < 100 ? '20–99' : strictly < 1000 ? '100–999' : '≥ 1000']!++;
  }
  const pct = (n: number) => `${((n / queries.typo.length) * 100).toFixed(1)} %`;
  console.log(`Zipf corpus, ${size.toLocaleString('en')} records, ${queries.typo.length} one-typo queries`);
  console.log(`  source in the top 20: ${pct(inTop)}`);
  console.log(
    `  at best, if the custom ranking put the source first among its textual ties: ${pct(ceiling)} (${deep} sources beyond 20,000 hits not counted)`,
  );
  console.log(`  misses, by records strictly better on typo, proximity, attribute and exact:`, behind);
  console.log(
    `  those better records: ${sameWords.toLocaleString('en')} hold the source's own words, ${otherTerms.toLocaleString('en')} match through other terms; misses that other terms alone push out: ${pushedByOthers}`,
  );
}
