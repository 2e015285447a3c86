/**
 * `npm run bench -- replicas`: service replicas over PostgreSQL (a throwaway server from this machine's
 * binaries, fsync on), each replica its own `serve --database` process with the demo catalogue.
 *
 * - Search throughput with 1 and 2 replicas of the same database, same load generator, same run: 50
 *   connections for 10 s per run (one-word queries of the demo catalogue), sent to replica A alone, then
 *   turned over A and B, three alternating rounds (median round). The load generator runs in this process,
 *   on the same cores: the ratio is capped by them.
 * - Replication lag: a one-record write acknowledged by A → the record visible on B (polled every ms), 300
 *   writes in a row; p50 / p99.
 * - Write throughput: records/s in batches of 1,000 (each acknowledged before the next), 30 batches, to one
 *   PostgreSQL replica and to one SQLite service (WAL, synchronous FULL), side by side over HTTP; and the
 *   storage alone (the task store's commit of the same batches: no engine, no HTTP) on both.
 * - Replica start-up: a new replica joining the database written above (its records counted); its memory
 *   (RSS).
 *
 * Opt-in (`npm run bench -- replicas`): it needs PostgreSQL and takes about a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startThrowawayPostgres } from '../service/src/cluster/postgres.js';
import { DEV_CREDENTIALS } from '../service/src/index.js';
import { PostgresStorage } from '../service/src/storage/postgres/storage.js';
import { SqliteStorage } from '../service/src/storage/sqlite/storage.js';
import type { Change, TaskStore } from '../service/src/storage/types.js';

const headers = {
  'content-type': 'application/json',
  'x-service-application-id': DEV_CREDENTIALS.appId,
  'x-service-api-key': DEV_CREDENTIALS.adminKey,
};
const WORDS = ['chair', 'desk', 'lamp', 'table', 'paper', 'binder', 'phone', 'storage', 'art', 'envelope'];
const CONNECTIONS = 50;
const SECONDS = Number(process.env.REPLICAS_BENCH_SECONDS ?? 10);
const ROUNDS = 3;

interface Started {
  child: ChildProcess;
  url: string;
  startMs: number;
}

function startService(args: string[]): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/src/cli.ts', 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ child, url, startMs: performance.now() - started });
      }
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${out}`)));
  });
}

function stopService({ child }: Started): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function waitForTask(url: string, taskID: unknown): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/1/task/${taskID}`, { headers });
    const answer = (await response.json()) as { status: string };
    if (answer.status === 'published') return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** CONNECTIONS loops sending searches for SECONDS, turning over `hosts`; requests/s and latency. */
async function load(hosts: string[]): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const end = performance.now() + SECONDS * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const host = hosts[next % hosts.length]!;
      next += 1;
      const started = performance.now();
      try {
        const response = await fetch(`${host}/1/indexes/products/query`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ query: WORDS[next % WORDS.length], facets: ['*'] }),
        });
        await response.arrayBuffer();
        if (response.status !== 200) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

/** 30 batches of 1,000 records, each acknowledged before the next: records/s. */
async function writeRate(url: string, indexName: string): Promise<number> {
  const batches = 30;
  const began = performance.now();
  for (let b = 0; b < batches; b += 1) {
    const requests = Array.from({ length: 1000 }, (_, i) => ({
      action: 'addObject',
      body: {
        objectID: `r${b}-${i}`,
        name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} model ${b}-${i}`,
        brand: `brand ${i % 40}`,
        price: (i * 37) % 1000,
      },
    }));
    await post(url, `/1/indexes/${indexName}/batch`, { requests });
  }
  return (batches * 1000) / ((performance.now() - began) / 1000);
}

const f = (n: number, digits = 1) => n.toFixed(digits);
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => f(n, 2))
    .join(' ');
/** Records/s of the task store's commit alone: 30 batches of 1,000 records, each its own write. */
async function commitRate(tasks: TaskStore, indexName: string): Promise<number> {
  const inTurn = (write: () => Promise<unknown>) => (tasks.exclusive ? tasks.exclusive(write) : write());
  const began = performance.now();
  for (let b = 0; b < 30; b += 1) {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      objectID: `s${b}-${i}`,
      name: `${WORDS[i % WORDS.length]} model ${b}-${i}`,
      price: i,
    }));
    const texts = items.map((item) => JSON.stringify(item));
    const meta = { name: indexName, settings: {}, replicas: [], createdAt: 0, updatedAt: Date.now() };
    const changes: Change[] = [
      { area: 'catalog', type: 'putItems', kind: 'records', indexName, items, texts },
      { area: 'catalog', type: 'putIndex', meta },
    ];
    await inTurn(() => tasks.commit([{ indexName, kind: 'batch' }], changes, Date.now()));
  }
  return 30_000 / ((performance.now() - began) / 1000);
}

/** On a database of its own, so the replicas' memory does not take the records in. */
async function storageWriteRates(database: string, sqliteDir: string): Promise<[number, number]> {
  const postgres = await PostgresStorage.open(database, { id: 'bench-storage' });
  const sqlite = new SqliteStorage(join(sqliteDir, 'storage-alone'));
  try {
    return [await commitRate(postgres.tasks, 'storage_alone'), await commitRate(sqlite.tasks, 'storage_alone')];
  } finally {
    await postgres.close();
    await sqlite.close();
  }
}

const medianRun = (runs: Run[]) => [...runs].sort((x, y) => x.rps - y.rps)[Math.floor(runs.length / 2)]!;
const describeRun = (run: Run) =>
  `${f(run.rps, 0)} req/s, p50 ${f(run.p50)} ms, p99 ${f(run.p99)} ms, errors ${run.errors}`;

export async function run(): Promise<void> {
  console.log(`cores: ${os.cpus().length}; load average at start: ${loadAverage()}`);
  const postgres = await startThrowawayPostgres();
  const sqliteDir = mkdtempSync(join(os.tmpdir(), 'svc-bench-replicas-'));
  const started: Started[] = [];
  try {
    const database = postgres.createDatabase('bench');
    const a = await startService(['--database', database, '--replica-id', 'a', '--demo']);
    started.push(a);
    const b = await startService(['--database', database, '--replica-id', 'b']);
    started.push(b);
    console.log(
      `replicas: a ${a.url} (start ${f(a.startMs, 0)} ms, demo loaded), b ${b.url} (start ${f(b.startMs, 0)} ms)`,
    );

    // Warm-up of both (JIT, caches), then ROUNDS alternating runs (1 replica, 2 replicas, …), so a change in
    // the machine's load meanwhile falls on both; the median round of each is printed.
    await load([a.url, b.url]);
    const ones: Run[] = [];
    const twos: Run[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ones.push(await load([a.url]));
      twos.push(await load([a.url, b.url]));
    }
    const one = medianRun(ones);
    const two = medianRun(twos);
    console.log(
      `search throughput, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, POST query + facets on the demo index (median round):`,
    );
    console.log(`  1 replica : ${describeRun(one)}`);
    console.log(`  2 replicas: ${describeRun(two)}`);
    const perRound = (runs: Run[]) => runs.map((run) => f(run.rps, 0)).join(', ');
    console.log(`  req/s by round: 1 replica ${perRound(ones)}; 2 replicas ${perRound(twos)}`);
    console.log(`  ratio 2/1: ${f(two.rps / one.rps, 2)} (load generator on the same ${os.cpus().length} cores)`);
    console.log(`  load average after: ${loadAverage()}`);

    // Replication lag: write acknowledged by A → visible on B.
    const lags: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const objectID = `lag-${i}`;
      await post(a.url, '/1/indexes/lag/batch', { requests: [{ action: 'addObject', body: { objectID, n: i } }] });
      const acknowledged = performance.now();
      for (;;) {
        const response = await fetch(`${b.url}/1/indexes/lag/${objectID}`, { headers });
        await response.arrayBuffer();
        if (response.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      lags.push(performance.now() - acknowledged);
    }
    lags.sort((x, y) => x - y);
    console.log(
      `replication lag (one-record write acknowledged by a → visible on b), 300 writes: p50 ${f(lags[150]!)} ms, p99 ${f(percentile(lags, 99))} ms, max ${f(lags.at(-1)!)} ms`,
    );

    // Write throughput, PostgreSQL replica vs SQLite service, side by side.
    const sqlite = await startService(['--data-dir', sqliteDir]);
    started.push(sqlite);
    const pgRate = await writeRate(a.url, 'writes');
    const sqliteRate = await writeRate(sqlite.url, 'writes');
    console.log(
      `write throughput, 30 batches of 1,000 records (each acknowledged before the next): PostgreSQL ${f(pgRate, 0)} records/s, SQLite ${f(sqliteRate, 0)} records/s (ratio ${f(pgRate / sqliteRate, 2)})`,
    );
    const [pgStore, sqliteStore] = await storageWriteRates(postgres.createDatabase('storage_alone'), sqliteDir);
    console.log(
      `  the storage alone (task commits of 30 batches of 1,000 records, no engine, no HTTP): PostgreSQL ${f(pgStore, 0)} records/s, SQLite ${f(sqliteStore, 0)} records/s (ratio ${f(pgStore / sqliteStore, 2)})`,
    );
    const { taskID } = await post(a.url, '/1/indexes/writes/batch', {
      requests: [{ action: 'addObject', body: { objectID: 'last' } }],
    });
    await waitForTask(b.url, taskID);

    // A new replica joining the database written above.
    const records = (await post(a.url, '/1/indexes/writes/query', { query: '', hitsPerPage: 0 })).nbHits as number;
    const c = await startService(['--database', database, '--replica-id', 'c']);
    started.push(c);
    console.log(
      `replica start-up (a new replica joins: demo catalogue + ${records.toLocaleString('en')} records + lag index): ${f(c.startMs, 0)} ms to listening; RSS a ${f(rssMB(a.child.pid!), 0)} MB, b ${f(rssMB(b.child.pid!), 0)} MB, c ${f(rssMB(c.child.pid!), 0)} MB`,
    );
    console.log(`load average at end: ${loadAverage()}`);
  } finally {
    for (const service of started) await stopService(service);
    postgres.stop();
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}
