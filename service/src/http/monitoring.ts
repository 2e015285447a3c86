/**
 * Monitoring (document 3) for the local service as the single server it is (`c1-local-1`, region `local`, cluster
 * `c1-local`): status, incidents, inventory, latency and indexing time computed from the calls
 * recorded for Usage (`usage_calls`), reachability probes and infrastructure metrics read from the
 * process and the machine. See `docs/notes/usage-monitoring.md`, "Monitoring".
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { cpus, totalmem } from 'node:os';
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { HttpError } from './errors.js';
import { authorizeOperational } from '../usage/keys.js';
import { categoryOf, SEARCH_OPS, WRITE_OPS } from '../usage/operations.js';
import { getUsageLog } from '../usage/record.js';
import { DAY, HOUR, LOCAL_REGION, LOCAL_SERVER, type Point } from '../usage/report.js';
import type { UsageRow } from '../storage/usage-log.js';

export const LOCAL_CLUSTER = 'c1-local';
/** Names accepted in `{servers}`: the server and its cluster (answered under the name asked). */
const NAMES = [LOCAL_SERVER, LOCAL_CLUSTER];
const SERVERS = [LOCAL_SERVER];

/** Window and point width of each infrastructure period. */
export const PERIODS: Record<string, { window: number; step: number }> = {
  minute: { window: 60_000, step: 10_000 },
  hour: { window: HOUR, step: 5 * 60_000 },
  day: { window: DAY, step: HOUR },
  week: { window: 7 * DAY, step: 6 * HOUR },
  month: { window: 30 * DAY, step: DAY },
};
export const INFRASTRUCTURE_METRICS = [
  'avg_build_time',
  'cpu_usage',
  'ram_search_usage',
  'ram_indexing_usage',
  'ssd_usage',
] as const;

/** A write to an index (records, settings, rules, clear/copy/move/delete): what "indexing time" measures. */
export function isIndexingWrite(row: Pick<UsageRow, 'op'>): boolean {
  const category = categoryOf(row.op);
  return WRITE_OPS.has(row.op) && category !== undefined && category !== 'acl';
}

function servers(c: Context): string[] {
  const asked = (c.req.param('servers') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = asked.filter((name) => !NAMES.includes(name));
  if (asked.length === 0 || unknown.length > 0) {
    throw new HttpError(
      404,
      `Unknown server(s): ${unknown.map((name) => JSON.stringify(name)).join(', ') || '(none given)'}; this application has one server, ${LOCAL_SERVER} (cluster ${LOCAL_CLUSTER})`,
    );
  }
  return [...new Set(asked)];
}

/** Average `ms` of the matching rows per bucket of `step` over `[now - window, now)`; buckets without calls are left out. */
export function averages(rows: UsageRow[], test: (row: UsageRow) => boolean, step: number): Point[] {
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

/** Calls of the last 24 hours, one row per call. */
function lastDay(ctx: ServiceContext): UsageRow[] {
  const now = ctx.now();
  return getUsageLog(ctx)
    .rows(now - DAY, now + 1)
    .filter((row) => row.app === 1);
}

const startedAt = { wall: Date.now(), cpu: process.cpuUsage() };

function infrastructure(ctx: ServiceContext, metric: string, period: { window: number; step: number }): Point[] {
  const now = ctx.now();
  if (metric === 'avg_build_time') {
    const rows = getUsageLog(ctx)
      .rows(now - period.window, now + 1)
      .filter((row) => row.app === 1);
    return averages(rows, isIndexingWrite, period.step);
  }
  // No samples are kept over time: one point, now.
  const t = Math.floor(now / period.step) * period.step;
  if (metric === 'cpu_usage') {
    const used = process.cpuUsage(startedAt.cpu);
    const elapsedUs = Math.max(1, (Date.now() - startedAt.wall) * 1000 * cpus().length);
    return [{ t, v: Math.round((100 * (used.user + used.system)) / elapsedUs) }];
  }
  if (metric === 'ram_search_usage' || metric === 'ram_indexing_usage') {
    return [{ t, v: Math.round((100 * process.memoryUsage().rss) / totalmem()) }];
  }
  // ssd_usage: the filesystem holding the database (none for an in-memory database).
  if (ctx.db.memory || !ctx.db.name) return [];
  try {
    const stats = statfsSync(dirname(ctx.db.name));
    return [{ t, v: Math.round((100 * (stats.blocks - stats.bfree)) / stats.blocks) }];
  } catch {
    return [];
  }
}

/**
 * @example
 * monitoring.register(app, ctx); // GET /1/status → {"status":{"local-1":"operational"}}
 */
export function register(app: Hono, ctx: ServiceContext): void {
  const guard = (c: Context) => authorizeOperational(ctx, c, 'monitoring');
  const status = (names: string[]) => ({ status: Object.fromEntries(names.map((name) => [name, 'operational'])) });
  const incidents = (names: string[]) => ({ incidents: Object.fromEntries(names.map((name) => [name, []])) });

  app.get('/1/status', (c) => (guard(c), c.json(status(SERVERS))));
  app.get('/1/status/:servers', (c) => (guard(c), c.json(status(servers(c)))));
  app.get('/1/incidents', (c) => (guard(c), c.json(incidents(SERVERS))));
  app.get('/1/incidents/:servers', (c) => (guard(c), c.json(incidents(servers(c)))));
  app.get('/1/inventory/servers', (c) => {
    guard(c);
    return c.json({
      inventory: [{ name: LOCAL_SERVER, region: LOCAL_REGION, is_replica: false, cluster: LOCAL_CLUSTER }],
    });
  });
  app.get('/1/latency/:servers', (c) => {
    guard(c);
    const names = servers(c);
    const points = averages(lastDay(ctx), (row) => SEARCH_OPS.has(row.op), HOUR);
    return c.json({ metrics: { latency: Object.fromEntries(names.map((name) => [name, points])) } });
  });
  app.get('/1/indexing/:servers', (c) => {
    guard(c);
    const names = servers(c);
    const points = averages(lastDay(ctx), isIndexingWrite, HOUR);
    return c.json({ metrics: { indexing: Object.fromEntries(names.map((name) => [name, points])) } });
  });
  app.get('/1/reachability/:servers/probes', (c) => {
    guard(c);
    const names = servers(c);
    let storage = false;
    try {
      storage = ctx.db.open && ctx.db.prepare('SELECT 1 AS one').get() !== undefined;
    } catch {
      storage = false;
    }
    return c.json(Object.fromEntries(names.map((name) => [name, { http: true, storage }])));
  });
  app.get('/1/infrastructure/:metric/period/:period', (c) => {
    guard(c);
    const metric = c.req.param('metric');
    const period = PERIODS[c.req.param('period')];
    if (metric !== '*' && !(INFRASTRUCTURE_METRICS as readonly string[]).includes(metric)) {
      throw new HttpError(
        400,
        `metric must be one of ${INFRASTRUCTURE_METRICS.join(', ')} or *, got ${JSON.stringify(metric)}`,
      );
    }
    if (!period)
      throw new HttpError(
        400,
        `period must be one of ${Object.keys(PERIODS).join(', ')}, got ${JSON.stringify(c.req.param('period'))}`,
      );
    const names = metric === '*' ? [...INFRASTRUCTURE_METRICS] : [metric];
    return c.json({
      metrics: Object.fromEntries(names.map((name) => [name, { [LOCAL_SERVER]: infrastructure(ctx, name, period) }])),
    });
  });
}
