/**
 * One engine measured on one corpus: build time, memory, latency of the three query kinds, and the
 * typo figures — *found* (the source record matches the query at all) and *top 20* (it is among the
 * first 20 hits of the full corpus).
 *
 * "Found" is measured on an index of the source records only: matching a record does not depend on
 * the other records (prefix ranges and typo derivations only look at the record's own words), so a
 * source found there is in the full result set, at some rank.
 */
import type { SyntheticProduct, SyntheticQueries } from '../service/src/datasets/synthetic.js';
import type { Engine } from './engines.js';
import { heap, latency, time, type Latency } from './measure.js';

export interface Figures {
  name: string;
  buildMs: number;
  /** Part of the build spent in the first search (lazy work left by the writes; ours only). */
  firstSearchMs: number;
  memoryBytes: number;
  prefix: Latency;
  typo: Latency;
  faceted: Latency;
  /** Share of typo queries whose source record matches. */
  found: number;
  /** Share of typo queries whose source record is in the top 20. */
  recall: number;
}

/**
 * Builds `make()` on the products and runs the query sets (50 warm-up queries per kind first).
 * @example const figures = await measureEngine(ours, products, syntheticQueries(products));
 */
export async function measureEngine(
  make: () => Engine,
  products: SyntheticProduct[],
  queries: SyntheticQueries,
  options: { found?: boolean } = {},
): Promise<Figures> {
  const engine = make();
  const before = heap();
  const [buildMs] = await time(() => engine.build(products));
  const memoryBytes = heap() - before;
  const run = async (list: string[], fn: (q: string) => unknown): Promise<Latency> => {
    for (const q of list.slice(0, 50)) await fn(q);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (const q of list) {
      const [w, c] = await time(() => fn(q));
      wall.push(w);
      cpu.push(c);
    }
    return latency(wall, cpu);
  };
  const prefix = await run(queries.prefix, (q) => engine.query(q));
  let inTop = 0;
  const typoWall: number[] = [];
  const typoCpu: number[] = [];
  for (const { query } of queries.typo.slice(0, 50)) await engine.query(query);
  for (const { query, objectID } of queries.typo) {
    const [w, c, ids] = await time(() => engine.query(query));
    typoWall.push(w);
    typoCpu.push(c);
    if (ids.includes(objectID)) inTop++;
  }
  const faceted = await run(queries.faceted, (q) => engine.faceted(q));
  engine.dispose();
  const found = options.found === false ? NaN : await typoFound(make, products, queries);
  return {
    name: engine.name,
    buildMs,
    firstSearchMs: (engine as { firstSearchMs?: number }).firstSearchMs ?? NaN,
    memoryBytes,
    prefix,
    typo: latency(typoWall, typoCpu),
    faceted,
    found,
    recall: inTop / queries.typo.length,
  };
}

/** Share of typo queries whose source record matches, on an index of the source records only. */
async function typoFound(make: () => Engine, products: SyntheticProduct[], queries: SyntheticQueries) {
  const wanted = new Set(queries.typo.map((t) => t.objectID));
  const sources = products.filter((p) => wanted.has(p.objectID));
  const engine = make();
  await engine.build(sources);
  let found = 0;
  for (const { query, objectID } of queries.typo) {
    const ids = await engine.query(query, sources.length);
    if (ids.includes(objectID)) found++;
  }
  engine.dispose();
  return found / queries.typo.length;
}
