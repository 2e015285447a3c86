/**
 * The service over HTTP at scale: the real service (`service/src/cli.ts serve`) in a child process on
 * loopback, a fresh data directory, records loaded through the batch API (1,000 per request, one
 * client sending them one after the other, as the official clients' `saveObjects` does), then the
 * first search after the load, one-client latency of the three query kinds (with the CPU each side spent
 * per search, and the latency of the same searches on an index without records: the HTTP floor), and
 * search throughput of 10 concurrent clients against one.
 *
 * The clients run in this process, the service in its own, so on a two-core machine each has a core;
 * latencies are what the client measures, HTTP and JSON included. The load and the per-kind latencies go
 * through a keep-alive `http.Agent` (answers parsed and checked); the throughput runs through the lean
 * load generator (`load-generator.ts`: undici pool, bodies made beforehand), which also gives the CPU
 * each side spent per search.
 * The batch bodies are serialised before the load is timed, so the load rate is the service's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SyntheticProduct, SyntheticQueries } from '../service/src/datasets/synthetic.js';
import { BENCH_SETTINGS } from './engines.js';
import { LoadGenerator, type LoadFigures, processCpuMs, searchBodies } from './load-generator.js';
import { latency, type Latency } from './measure.js';

const APP_ID = 'SVCLOCAL';
const ADMIN_KEY = 'local-admin-key';
const INDEX = 'scale';
const EMPTY_INDEX = 'scale-empty';

export interface ServiceFigures {
  records: number;
  /** Records per second from the first batch sent to the last task published. */
  loadRate: number;
  loadMs: number;
  /** Records per second of the service's CPU time during the load (insensitive to the machine's other load). */
  loadRateCpu: number;
  /** The first searches after the load (prefix, then faceted: the first use of facet columns). */
  firstSearchMs: number;
  firstFacetedMs: number;
  prefix: Latency;
  typo: Latency;
  faceted: Latency;
  /** The service's CPU ms per search over the one-client runs of the three kinds (insensitive to the machine's other load). */
  serviceCpuMs: number;
  /** This process's CPU ms per search over the same runs: the client's share (request, answer read and parsed). */
  clientCpuMs: number;
  /**
   * The floor of a search over HTTP: one client's p50 (ms) searching an index with no records — the round trip,
   * the HTTP layer on both sides, the key check, the pipeline around the engine and a minimal answer.
   */
  emptyP50: number;
  /** Searches per second, latency and CPU per search with one client and with ten (`load-generator.ts`). */
  one: LoadFigures;
  ten: LoadFigures;
  /** Resident memory of the service process after the load (MB). */
  rssMB: number;
}

interface Answer {
  status: number;
  body: unknown;
}

/** An HTTP client with a keep-alive pool (up to 64 connections) and the admin key. */
export class Client {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  readonly #host: string;
  readonly #port: number;

  constructor(url: string) {
    const u = new URL(url);
    this.#host = u.hostname;
    this.#port = Number(u.port);
  }

  /**
   * A JSON request; a string body is sent as it is (already JSON). `parse: false` reads the answer without
   * parsing it (the throughput loops: a load generator's JSON is not the service's cost).
   */
  request(method: string, path: string, body?: unknown, parse = true): Promise<Answer> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.#agent,
          host: this.#host,
          port: this.#port,
          method,
          path,
          headers: {
            'X-Service-Application-Id': APP_ID,
            'X-Service-API-Key': ADMIN_KEY,
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, body: text && parse ? JSON.parse(text) : undefined });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  async ok(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const answer = await this.request(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  }

  async waitTask(taskID: number, index = INDEX): Promise<void> {
    for (;;) {
      const { status } = await this.ok('GET', `/1/indexes/${index}/task/${taskID}`);
      if (status === 'published') return;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** One search on the bench index (20 hits; faceted: brand and category facets). */
export function search(client: Client, query: string, faceted = false, parse = true, index = INDEX): Promise<Answer> {
  const params = new URLSearchParams({ query, hitsPerPage: '20' });
  if (faceted) params.set('facets', JSON.stringify(['brand', 'category']));
  return client.request('POST', `/1/indexes/${index}/query`, { params: params.toString() }, parse);
}

/** Starts `serve` on a data directory (a new one unless given) with extra arguments (`--workers 2`). */
export async function startService(
  args: string[] = [],
  dir?: string,
): Promise<{ url: string; child: ChildProcess; dataDir: string; pids: () => number[] }> {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
  const cli = fileURLToPath(new URL('../service/src/cli.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=16384', '--import', 'tsx', cli, 'serve', '--port', '0', '--data-dir', dataDir, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // `serve --workers N` prints each worker's pid (`worker w1: pid 1234`) after `listening on`.
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening`)));
  });
  const pids = () => [child.pid!, ...[...out.matchAll(/^worker \S+: pid (\d+)$/gm)].map((m) => Number(m[1]))];
  return { url, child, dataDir, pids };
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Sequential searches of one client; wall-clock ms per search. */
async function timed(client: Client, list: string[], faceted = false, index = INDEX): Promise<number[]> {
  const out: number[] = [];
  for (const q of list) {
    const t0 = performance.now();
    const answer = await search(client, q, faceted, true, index);
    out.push(performance.now() - t0);
    if (answer.status !== 200) throw new Error(`search "${q}": ${answer.status}`);
  }
  return out;
}

/**
 * Starts the service, loads the products through the batch API and measures searches over HTTP.
 * @example const figures = await measureService(products, queries);
 */
export async function measureService(
  products: SyntheticProduct[],
  queries: SyntheticQueries,
  options: { batchSize?: number; throughputMs?: number } = {},
): Promise<ServiceFigures> {
  const batchSize = options.batchSize ?? 1000;
  const throughputMs = options.throughputMs ?? 5000;
  const { url, child, dataDir } = await startService();
  const client = new Client(url);
  try {
    const settings = await client.ok('PUT', `/1/indexes/${INDEX}/settings`, BENCH_SETTINGS);
    await client.waitTask(settings.taskID as number);
    // the request bodies are made first: the rate is the service's, not this client's JSON.stringify
    const bodies: string[] = [];
    for (let i = 0; i < products.length; i += batchSize) {
      const requests = products.slice(i, i + batchSize).map((body) => ({ action: 'addObject', body }));
      bodies.push(JSON.stringify({ requests }));
    }
    const cpu0 = processCpuMs(child.pid!) / 1000;
    const t0 = performance.now();
    let last = 0;
    for (const body of bodies) {
      const answer = await client.ok('POST', `/1/indexes/${INDEX}/batch`, body);
      last = answer.taskID as number;
    }
    await client.waitTask(last);
    const loadMs = performance.now() - t0;
    const loadCpu = processCpuMs(child.pid!) / 1000 - cpu0;
    let t = performance.now();
    const first = await search(client, queries.prefix[0]!);
    const firstSearchMs = performance.now() - t;
    t = performance.now();
    const firstFaceted = await search(client, queries.faceted[0]!, true);
    const firstFacetedMs = performance.now() - t;
    if (first.status !== 200 || firstFaceted.status !== 200) throw new Error('the first searches failed');
    const nbHits = (first.body as { nbHits: number }).nbHits;
    if (!(nbHits > 0)) throw new Error(`the first search found nothing (${JSON.stringify(first.body)})`);
    const rss = rssMB(child.pid!);
    let searchCpu = 0;
    let clientCpu = 0;
    let searches = 0;
    const kinds = async (list: string[], faceted = false, index = INDEX) => {
      await timed(client, list.slice(0, 50), faceted, index);
      const cpu0 = processCpuMs(child.pid!);
      const own0 = process.cpuUsage();
      const wall = await timed(client, list, faceted, index);
      const own = process.cpuUsage(own0);
      if (index === INDEX) {
        searchCpu += processCpuMs(child.pid!) - cpu0;
        clientCpu += (own.user + own.system) / 1000;
        searches += list.length;
      }
      return latency(wall, wall.slice());
    };
    const prefix = await kinds(queries.prefix);
    const typo = await kinds(queries.typo.map((t) => t.query));
    const faceted = await kinds(queries.faceted, true);
    // an index without records: what a search costs around the engine, over the same client
    const empty = await client.ok('PUT', `/1/indexes/${EMPTY_INDEX}/settings`, BENCH_SETTINGS);
    await client.waitTask(empty.taskID as number, EMPTY_INDEX);
    const emptyP50 = (await kinds(queries.prefix, false, EMPTY_INDEX)).wall[0];
    const mixed = queries.prefix.flatMap((q, i) => [q, queries.typo[i]!.query, queries.faceted[i]!]);
    const load = new LoadGenerator(url, `/1/indexes/${INDEX}/query`, searchBodies(mixed));
    const one = await load.run(1, throughputMs, [child.pid!]);
    const ten = await load.run(10, throughputMs, [child.pid!]);
    return {
      records: products.length,
      loadRate: (products.length / loadMs) * 1000,
      loadMs,
      loadRateCpu: products.length / loadCpu,
      firstSearchMs,
      firstFacetedMs,
      prefix,
      typo,
      faceted,
      serviceCpuMs: searchCpu / searches,
      clientCpuMs: clientCpu / searches,
      emptyP50,
      one,
      ten,
      rssMB: rss,
    };
  } finally {
    client.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
