/**
 * Monitoring (document 3) for the local service as the single server it is (`c1-local-1`, region `local`, cluster
 * `c1-local`): status, incidents, inventory, latency and indexing time computed from the calls
 * recorded for Usage, reachability probes and infrastructure metrics read from the process and the machine.
 * See `docs/notes/usage-monitoring.md`, "Monitoring".
 */
import { statfsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { ServiceError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import type { UsageRow } from '../storage/types.js';
import type { UsageLog } from './log.js';
import { categoryOf, SEARCH_OPS, WRITE_OPS } from './operations.js';
import { DAY, HOUR, LOCAL_REGION, LOCAL_SERVER, type Point } from './report.js';

const LOCAL_CLUSTER = 'c1-local';
/** Names accepted in `{servers}`: the server and its cluster (answered under the name asked). */
const NAMES = [LOCAL_SERVER, LOCAL_CLUSTER];
/** The servers of the application (`/1/status` and `/1/incidents` without names). */
const SERVERS = [LOCAL_SERVER];

/** Window and point width of each infrastructure period. */
const PERIODS: Record<string, { window: number; step: number }> = {
  minute: { window: 60_000, step: 10_000 },
  hour: { window: HOUR, step: 5 * 60_000 },
  day: { window: DAY, step: HOUR },
  week: { window: 7 * DAY, step: 6 * HOUR },
  month: { window: 30 * DAY, step: DAY },
};
const INFRASTRUCTURE_METRICS = [
  'avg_build_time',
  'cpu_usage',
  'ram_search_usage',
  'ram_indexing_usage',
  'ssd_usage',
] as const;

/** A write to an index (records, settings, rules, clear/copy/move/delete): what "indexing time" measures. */
function isIndexingWrite(row: Pick<UsageRow, 'op'>): boolean {
  const category = categoryOf(row.op);
  return WRITE_OPS.has(row.op) && category !== undefined && category !== 'acl';
}

/**
 * The servers a path names (`{servers}`: the server and its cluster, comma-separated), or 404.
 *
 * @example
 * serversNamed('c1-local-1') // ['c1-local-1']
 */
function serversNamed(param: string | undefined): string[] {
  const asked = (param ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = asked.filter((name) => !NAMES.includes(name));
  if (asked.length === 0 || unknown.length > 0) {
    throw new ServiceError(
      404,
      `Unknown server(s): ${unknown.map((name) => JSON.stringify(name)).join(', ') || '(none given)'}; this application has one server, ${LOCAL_SERVER} (cluster ${LOCAL_CLUSTER})`,
    );
  }
  return [...new Set(asked)];
}

/** Average `ms` of the matching rows per bucket of `step` over `[now - window, now)`; buckets without calls are left out. */
function averages(rows: UsageRow[], test: (row: UsageRow) => boolean, step: number): Point[] {
  const sums = new Map<number, { total: number; count: number }>();
  for (const row of rows) {
    if (!test(row)) continue;
    const t = Math.floor(row.ts / step) * step;
    const bucket = sums.get(t) ?? { total: 0, count: 0 };
    bucket.total += row.ms;
    bucket.count += 1;
    sums.set(t, bucket);
  }
  return [...sums].sort(([a], [b]) => a - b).map(([t, { total, count }]) => ({ t, v: Math.round(total / count) }));
}

/** When the service started and the CPU time used by then (the CPU usage is averaged since). */
interface Started {
  wall: number;
  cpu: NodeJS.CpuUsage;
}

/** What Monitoring reads of the services. */
export interface MonitoringParts {
  now: () => number;
  usage: UsageLog;
  storage: Storage;
}

/**
 * @example
 * const monitoring = new Monitoring(services);
 * await monitoring.latency('c1-local-1') // { metrics: { latency: { 'c1-local-1': [...] } } }
 */
export class Monitoring {
  readonly #parts: MonitoringParts;
  readonly #started: Started = { wall: Date.now(), cpu: process.cpuUsage() };

  constructor(parts: MonitoringParts) {
    this.#parts = parts;
  }

  /**
   * `{status}` of the named servers (all of them without a name): `degraded_performance` while this replica
   * is not ready (it rebuilds its memory after stalling past the log's pruning, answering from what it had).
   */
  status(servers?: string): { status: Record<string, string> } {
    const names = servers === undefined ? SERVERS : serversNamed(servers);
    const replication = this.#parts.storage.replication;
    const status = replication && !replication.ready ? 'degraded_performance' : 'operational';
    return { status: Object.fromEntries(names.map((name) => [name, status])) };
  }

  /** `{incidents}` of the named servers (all of them without a name): none. */
  incidents(servers?: string): { incidents: Record<string, never[]> } {
    const names = servers === undefined ? SERVERS : serversNamed(servers);
    return { incidents: Object.fromEntries(names.map((name) => [name, []])) };
  }

  inventory() {
    return { inventory: [{ name: LOCAL_SERVER, region: LOCAL_REGION, is_replica: false, cluster: LOCAL_CLUSTER }] };
  }

  /** Average search time per hour of the last day. */
  async latency(servers: string | undefined) {
    const names = serversNamed(servers);
    const points = averages(await this.#lastDay(), (row) => SEARCH_OPS.has(row.op), HOUR);
    return { metrics: { latency: Object.fromEntries(names.map((name) => [name, points])) } };
  }

  /** Average indexing write time per hour of the last day. */
  async indexing(servers: string | undefined) {
    const names = serversNamed(servers);
    const points = averages(await this.#lastDay(), isIndexingWrite, HOUR);
    return { metrics: { indexing: Object.fromEntries(names.map((name) => [name, points])) } };
  }

  /** Reachability: HTTP answers (this call), storage when it answers a ping. */
  async probes(servers: string | undefined) {
    const names = serversNamed(servers);
    const storage = await this.#parts.storage.ping().catch(() => false);
    return Object.fromEntries(names.map((name) => [name, { http: true, storage }]));
  }

  /** One infrastructure metric (or `*`, all) over a period (400 for an unknown metric or period). */
  async infrastructure(metric: string, periodName: string) {
    const period = PERIODS[periodName];
    if (metric !== '*' && !(INFRASTRUCTURE_METRICS as readonly string[]).includes(metric)) {
      throw new ServiceError(
        400,
        `metric must be one of ${INFRASTRUCTURE_METRICS.join(', ')} or *, got ${JSON.stringify(metric)}`,
      );
    }
    if (!period)
      throw new ServiceError(
        400,
        `period must be one of ${Object.keys(PERIODS).join(', ')}, got ${JSON.stringify(periodName)}`,
      );
    const names = metric === '*' ? [...INFRASTRUCTURE_METRICS] : [metric];
    const metrics: Record<string, Record<string, Point[]>> = {};
    for (const name of names) metrics[name] = { [LOCAL_SERVER]: await this.#metric(name, period) };
    return { metrics };
  }

  /** Calls of the last 24 hours, one row per call. */
  async #lastDay(): Promise<UsageRow[]> {
    const now = this.#parts.now();
    return (await this.#parts.usage.rows(now - DAY, now + 1)).filter((row) => row.app === 1);
  }

  async #metric(metric: string, period: { window: number; step: number }): Promise<Point[]> {
    const now = this.#parts.now();
    if (metric === 'avg_build_time') {
      const rows = (await this.#parts.usage.rows(now - period.window, now + 1)).filter((row) => row.app === 1);
      return averages(rows, isIndexingWrite, period.step);
    }
    // No samples are kept over time: one point, now.
    const t = Math.floor(now / period.step) * period.step;
    if (metric === 'cpu_usage') {
      const used = process.cpuUsage(this.#started.cpu);
      const elapsedUs = Math.max(1, (Date.now() - this.#started.wall) * 1000 * cpus().length);
      return [{ t, v: Math.round((100 * (used.user + used.system)) / elapsedUs) }];
    }
    if (metric === 'ram_search_usage' || metric === 'ram_indexing_usage') {
      return [{ t, v: Math.round((100 * process.memoryUsage().rss) / totalmem()) }];
    }
    // ssd_usage: the filesystem holding the database (none for an in-memory database).
    const file = this.#parts.storage.file();
    if (!file) return [];
    try {
      const stats = statfsSync(dirname(file));
      return [{ t, v: Math.round((100 * (stats.blocks - stats.bfree)) / stats.blocks) }];
    } catch {
      return [];
    }
  }
}
