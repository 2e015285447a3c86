/**
 * Searches over HTTP on every core: the service with one process (`serve`) against `serve --workers N`
 * (N processes sharing the port and the SQLite file), on the same data directory, with one client and with
 * ten concurrent clients. The records (`zipfProducts`, seed 42) are loaded once through the batch API; then
 * each configuration is started on that directory in turn, warmed up, and measured, in alternating rounds
 * (1, N, 1, N, …) so that the machine's other load falls on both alike; medians of the rounds.
 *
 * The clients run in this process (`load-generator.ts`: one undici pool, bodies made beforehand; ten clients
 * are ten connections, which the cluster hands to the workers in turn), on the same two cores as the service:
 * what a client costs is part of the figure, as it would be for a load balancer on the machine. So the
 * section also prints the CPU per search of both sides (the service's summed over the primary and the
 * workers), the load generator's share, the cores the run used, and the ceiling the ratio could reach from
 * CPU time alone: one client ≤ 1 ÷ its CPU per search (both sides), ten clients ≤ the cores ÷ theirs.
 *
 * `WORKERS_SIZES` (default 100000), `WORKERS_COUNT` (default: the cores), `WORKERS_ROUNDS` (3),
 * `WORKERS_MS` (each measurement, 4000).
 */
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { syntheticQueries, zipfProducts } from '../service/src/datasets/synthetic.js';
import { BENCH_SETTINGS } from './engines.js';
import { fmt, loadNote, table } from './measure.js';
import { CORES, type LoadFigures, LoadGenerator, searchBodies } from './load-generator.js';
import { Client, search, startService } from './service-scale.js';

const INDEX = 'scale';
const TARGET = 1.8;

interface Round {
  one: LoadFigures;
  ten: LoadFigures;
}

function list(name: string, fallback: string): number[] {
  return (process.env[name] ?? fallback).split(',').map(Number);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)} %`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Loads the records through the batch API (1,000 per request) into a new data directory; returns it. */
async function load(count: number): Promise<{ dataDir: string; rate: number }> {
  const products = zipfProducts({ count, seed: 42 });
  // The bodies first: a connection left idle meanwhile could be closed by the service as the next request
  // goes out on it (the keep-alive race).
  const bodies: string[] = [];
  for (let i = 0; i < products.length; i += 1000) {
    const requests = products.slice(i, i + 1000).map((body) => ({ action: 'addObject', body }));
    bodies.push(JSON.stringify({ requests }));
  }
  const { url, child, dataDir } = await startService();
  const client = new Client(url);
  try {
    const settings = await client.ok('PUT', `/1/indexes/${INDEX}/settings`, BENCH_SETTINGS);
    await client.waitTask(settings.taskID as number);
    const t0 = performance.now();
    let last = 0;
    for (const body of bodies) last = (await client.ok('POST', `/1/indexes/${INDEX}/batch`, body)).taskID as number;
    await client.waitTask(last);
    return { dataDir, rate: (count / (performance.now() - t0)) * 1000 };
  } finally {
    client.close();
    await stop(child);
  }
}

/** Starts `workers` processes on the data directory and measures one client, then ten. */
async function measure(dataDir: string, workers: number, mixed: string[], ms: number): Promise<Round> {
  const { url, child, pids } = await startService(['--workers', String(workers)], dataDir);
  const client = new Client(url);
  const load = new LoadGenerator(url, `/1/indexes/${INDEX}/query`, searchBodies(mixed));
  try {
    // Warm-up: every worker's first searches (facet columns, JIT) before the clock runs.
    await load.run(10, Math.min(ms, 1500), pids());
    const one = await load.run(1, ms, pids());
    const ten = await load.run(10, ms, pids());
    const check = await search(client, mixed[0]!);
    if (check.status !== 200) throw new Error(`search failed: ${check.status}`);
    return { one, ten };
  } finally {
    client.close();
    await stop(child);
  }
}

export async function run(): Promise<void> {
  const sizes = list('WORKERS_SIZES', '100000');
  const count = Number(process.env.WORKERS_COUNT ?? availableParallelism());
  const rounds = Number(process.env.WORKERS_ROUNDS ?? 3);
  const ms = Number(process.env.WORKERS_MS ?? 4000);
  console.log(
    `serve vs serve --workers ${count}: zipfProducts (seed 42), mixed prefix / one-typo / faceted queries (seed 7), ` +
      `${rounds} alternating rounds of ${ms / 1000} s per measurement, medians`,
  );
  for (const size of sizes) {
    const products = zipfProducts({ count: size, seed: 42 });
    const queries = syntheticQueries(products, { count: 300, seed: 7 });
    const mixed = queries.prefix.flatMap((q, i) => [q, queries.typo[i]!.query, queries.faceted[i]!]);
    console.log(`\n### ${size.toLocaleString('en')} records\n`);
    const loadBefore = loadNote();
    const { dataDir } = await load(size);
    try {
      const results = new Map<number, Round[]>([
        [1, []],
        [count, []],
      ]);
      for (let round = 0; round < rounds; round++) {
        for (const workers of [1, count]) results.get(workers)!.push(await measure(dataDir, workers, mixed, ms));
      }
      const rows = [...results].map(([workers, list]) => {
        const one = (key: keyof LoadFigures) => median(list.map((r) => r.one[key]));
        const ten = (key: keyof LoadFigures) => median(list.map((r) => r.ten[key]));
        return {
          workers,
          ratio: ten('qps') / one('qps'),
          tenQps: ten('qps'),
          cells: [
            workers === 1 ? '1 (serve)' : `${workers} (--workers ${workers})`,
            `${fmt(one('qps'))} req/s, p50 ${fmt(one('p50'))} ms, p99 ${fmt(one('p99'))} ms`,
            `${fmt(ten('qps'))} req/s, p50 ${fmt(ten('p50'))} ms, p99 ${fmt(ten('p99'))} ms`,
            `×${ten('qps') / one('qps') >= 10 ? fmt(ten('qps') / one('qps')) : (ten('qps') / one('qps')).toFixed(2)}`,
            list.map((r) => `${fmt(r.one.qps)}/${fmt(r.ten.qps)}`).join(', '),
          ],
          cpu: [
            workers === 1 ? '1 (serve)' : `${workers} (--workers ${workers})`,
            `${fmt(one('serviceCpuMs'))} / ${fmt(ten('serviceCpuMs'))}`,
            `${fmt(one('clientCpuMs'))} / ${fmt(ten('clientCpuMs'))}`,
            `${pct(one('clientShare'))} / ${pct(ten('clientShare'))}`,
            `${one('coresUsed').toFixed(2)} / ${ten('coresUsed').toFixed(2)}`,
            // What the two cores could serve if both did nothing but this: cores ÷ CPU per search (both sides).
            fmt((CORES / (ten('serviceCpuMs') + ten('clientCpuMs'))) * 1000),
          ],
          // One client runs its searches one after the other: at most 1 ÷ (CPU per search, both sides); ten on
          // free cores at most CORES ÷ theirs. Both bounds from CPU time alone, whatever the machine's load.
          ceiling: (CORES * (one('serviceCpuMs') + one('clientCpuMs'))) / (ten('serviceCpuMs') + ten('clientCpuMs')),
        };
      });
      table(
        ['processes', '1 client', '10 clients', '10 ÷ 1', 'rounds (1 client / 10 clients req/s)'],
        rows.map((r) => r.cells),
      );
      console.log(`\nCPU per search (ms) and cores used, 1 client / 10 clients (the load generator is this process):`);
      table(
        [
          'processes',
          'service CPU ms/search',
          'load generator CPU ms/search',
          'generator share of the CPU',
          `cores used (of ${CORES})`,
          `10 clients' ceiling req/s (${CORES} cores ÷ CPU/search)`,
        ],
        rows.map((r) => r.cpu),
      );
      const single = rows[0]!;
      const many = rows[1]!;
      console.log(
        `\n  all cores: 10 clients ÷ 1 client with ${count} workers ×${many.ratio.toFixed(2)} ` +
          `(target ≥ ${TARGET}: ${many.ratio >= TARGET ? 'met' : 'not met'}); ` +
          `10 clients, ${count} workers ÷ 1 process ×${(many.tenQps / single.tenQps).toFixed(2)}`,
      );
      console.log(
        `  ceiling of the ratio with ${count} workers, from CPU per search alone: ×${many.ceiling.toFixed(2)} ` +
          `(one client ≤ 1 ÷ its CPU per search, ten ≤ ${CORES} cores ÷ theirs); the cores the run got are in "cores used"`,
      );
      console.log(`  ${loadBefore} before, ${loadNote()} after`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
