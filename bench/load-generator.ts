/**
 * The search load of the HTTP benchmarks, made to cost the machine as little as possible, so that what the
 * figures measure is the service: an undici connection pool (keep-alive, one request per connection at a
 * time), every request body serialised before the clock runs, answers read to their end but not parsed.
 * The generator measures its own CPU time (this process does nothing else while it runs) and, given the
 * service's process ids, theirs: what one search costs each side, and how much of the machine's cores the
 * run used.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Pool } from 'undici';
import { percentile } from './measure.js';

const HEADERS = {
  'x-service-application-id': 'SVCLOCAL',
  'x-service-api-key': 'local-admin-key',
  'content-type': 'application/json',
};

/** What one run of {@link LoadGenerator.run} measured. */
export interface LoadFigures {
  qps: number;
  p50: number;
  p99: number;
  /** CPU ms per search of this process (the load generator). */
  clientCpuMs: number;
  /** CPU ms per search of the service's processes (all of them: a cluster's primary and workers). */
  serviceCpuMs: number;
  /** The generator's share of the CPU both sides used. */
  clientShare: number;
  /** Cores busy with the run on average: (service + generator CPU) ÷ wall clock. */
  coresUsed: number;
}

/**
 * CPU ms (user + system) of a process so far, from /proc (clock ticks of 1/100 s); 0 once it is gone.
 * @example processCpuMs(child.pid!)
 */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * One search body per query of a mixed list (every third faceted on brand and category, as `search()`).
 * @example searchBodies(['ov', 'overmix fishburgzers', 'jinked'])
 */
export function searchBodies(queries: readonly string[]): string[] {
  return queries.map((query, i) => {
    const params = new URLSearchParams({ query, hitsPerPage: '20' });
    if ((i + 1) % 3 === 0) params.set('facets', JSON.stringify(['brand', 'category']));
    return JSON.stringify({ params: params.toString() });
  });
}

/**
 * @example
 * const load = new LoadGenerator(url, '/1/indexes/scale/query', searchBodies(mixed));
 * const figures = await load.run(10, 4000, [child.pid!]);
 */
export class LoadGenerator {
  readonly #url: string;
  readonly #path: string;
  readonly #bodies: readonly string[];
  #next = 0;

  constructor(url: string, path: string, bodies: readonly string[]) {
    this.#url = url;
    this.#path = path;
    this.#bodies = bodies;
  }

  async #one(pool: Pool, samples: number[]): Promise<void> {
    const body = this.#bodies[this.#next++ % this.#bodies.length]!;
    const t0 = performance.now();
    const answer = await pool.request({ method: 'POST', path: this.#path, headers: HEADERS, body });
    await answer.body.dump({ limit: Number.POSITIVE_INFINITY });
    samples.push(performance.now() - t0);
    if (answer.statusCode !== 200) throw new Error(`search ${body}: ${answer.statusCode}`);
  }

  /**
   * `clients` concurrent loops of searches for `ms`, one keep-alive connection each (as many browsers: a
   * pool with spare connections spreads even one client's requests over them, and so over a cluster's
   * workers); `servicePids`: the processes whose CPU time counts.
   */
  async run(clients: number, ms: number, servicePids: readonly number[]): Promise<LoadFigures> {
    const pool = new Pool(this.#url, { connections: clients, pipelining: 1 });
    // The connections are opened before the clock runs.
    await Promise.all(Array.from({ length: clients }, () => this.#one(pool, [])));
    const samples: number[] = [];
    const serviceCpu = () => servicePids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const service0 = serviceCpu();
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const end = t0 + ms;
    const loop = async () => {
      while (performance.now() < end) await this.#one(pool, samples);
    };
    await Promise.all(Array.from({ length: clients }, loop));
    const elapsed = performance.now() - t0;
    const client = process.cpuUsage(client0);
    await pool.close();
    const clientMs = (client.user + client.system) / 1000;
    const serviceMs = serviceCpu() - service0;
    samples.sort((a, b) => a - b);
    return {
      qps: (samples.length / elapsed) * 1000,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      clientCpuMs: clientMs / samples.length,
      serviceCpuMs: serviceMs / samples.length,
      clientShare: clientMs / (clientMs + serviceMs),
      coresUsed: (clientMs + serviceMs) / elapsed,
    };
  }
}

/** The machine's cores (the ceiling of `coresUsed`). */
export const CORES = availableParallelism();
