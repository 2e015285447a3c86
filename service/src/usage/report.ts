/**
 * The Usage answers (document 3): statistics computed from the recorded calls (`usage_calls`) and,
 * for `records`/`data_size`/`file_size`, from the stored records. See `docs/notes/usage-monitoring.md`.
 */
import { ServiceError } from '../errors.js';
import type { UsageRow } from '../storage/types.js';
import {
  APP_ONLY_METRICS,
  CATEGORIES,
  categoryOf,
  GROUPS,
  INDEX_ENDPOINT_METRICS,
  NOT_IN_TOTALS,
  NOT_MEASURED,
  SEARCH_OPS,
  WRITE_OPS,
  type Category,
} from './operations.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The server and region names of the local service (Usage maps and Monitoring). */
export const LOCAL_SERVER = 'c1-local-1';
export const LOCAL_REGION = 'local';

export type Point = { t: number; v: number | Record<string, number> };
export type Statistics = Record<string, Point[]>;

/** A Usage parameter the document refuses: 422 naming it (document 3, Errors). */
export class UsageError extends ServiceError {
  constructor(message: string) {
    super(422, message);
    this.name = 'UsageError';
  }
}

/**
 * The metric names a `statistic` path segment asks for, in order, without duplicates.
 *
 * @example
 * metricsOf('search_operations,records', false) // ['queries_operations', 'multi_queries_operations', 'records']
 */
export function metricsOf(statistic: string, wholeApplication: boolean): string[] {
  const known = wholeApplication ? [...INDEX_ENDPOINT_METRICS, ...APP_ONLY_METRICS] : INDEX_ENDPOINT_METRICS;
  const out = new Set<string>();
  const unknown: string[] = [];
  for (const item of statistic.split(',').map((part) => part.trim())) {
    if (item === '*') for (const metric of known) out.add(metric);
    // Object.hasOwn: a name such as `constructor` or `__proto__` is not a group (Object.prototype's members are not).
    else if (Object.hasOwn(GROUPS, item)) for (const metric of GROUPS[item]!) out.add(metric);
    else if (known.includes(item)) out.add(item);
    else unknown.push(item);
  }
  if (unknown.length > 0) {
    const appOnly = unknown.filter((item) => APP_ONLY_METRICS.includes(item));
    if (!wholeApplication && appOnly.length === unknown.length) {
      throw new UsageError(
        `statistic: ${appOnly.join(', ')} ${appOnly.length > 1 ? 'are metrics' : 'is a metric'} of the whole application only (GET /1/usage/{statistic})`,
      );
    }
    throw new UsageError(
      `statistic: unknown metric or group name(s): ${unknown.map((item) => JSON.stringify(item)).join(', ')}`,
    );
  }
  return [...out];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

interface Bucket {
  rows: UsageRow[];
}

/**
 * Computes the asked metrics over `[start, end)` in buckets of `unit` (aligned to UTC hours or days).
 * Counting metrics with at least one call in the range give every bucket (0 where none); processing
 * times only the buckets with searches; metrics without data are left out.
 */
export function computeStatistics(
  metrics: string[],
  rows: UsageRow[],
  range: { start: number; end: number; unit: number; now: number },
  sizes: { records: number; recordBytes: number; settingsBytes: number } | undefined,
  indexName: string | undefined,
): Statistics {
  const wholeApplication = indexName === undefined;
  const first = Math.floor(range.start / range.unit) * range.unit;
  const starts: number[] = [];
  for (let t = first; t < range.end; t += range.unit) starts.push(t);
  const buckets = new Map<number, Bucket>(starts.map((t) => [t, { rows: [] }]));
  for (const row of rows) buckets.get(Math.floor(row.ts / range.unit) * range.unit)?.rows.push(row);

  // Whole application: a call counts once (its `app` row); per index: every row of that index.
  const counted = (row: UsageRow) => (wholeApplication ? row.app === 1 : true);
  const inTotals = (row: UsageRow) => !NOT_IN_TOTALS.has(row.op);

  const counters: Record<string, (row: UsageRow) => number> = {};
  for (const ops of Object.values(CATEGORIES))
    for (const op of ops) counters[`${op}_operations`] = (row) => (row.op === op && counted(row) ? 1 : 0);
  const totalOf = (test: (row: UsageRow) => boolean) => (row: UsageRow) =>
    counted(row) && inTotals(row) && test(row) ? 1 : 0;
  const categoryTests: Record<string, (row: UsageRow) => boolean> = {};
  for (const category of Object.keys(CATEGORIES) as Category[])
    categoryTests[category] = (row) => categoryOf(row.op) === category;
  categoryTests.write = (row) => WRITE_OPS.has(row.op);
  categoryTests.read = (row) => !WRITE_OPS.has(row.op);
  for (const [suffix, test] of Object.entries(categoryTests)) {
    counters[`total_${suffix}_operations`] = totalOf(test);
    counters[`querysuggestions_total_${suffix}_operations`] = totalOf((row) => row.qs === 1 && test(row));
  }
  counters.total_operations = totalOf(() => true);
  counters.querysuggestions_total_operations = totalOf((row) => row.qs === 1);
  counters.queries_above_last_ms_processing_time = (row) =>
    SEARCH_OPS.has(row.op) && counted(row) && row.ms >= 1000 ? 1 : 0;
  counters.total_search_requests = (row) => (SEARCH_OPS.has(row.op) ? row.n : 0);
  counters.querysuggestions_total_search_requests = (row) => (SEARCH_OPS.has(row.op) && row.qs === 1 ? row.n : 0);
  counters.total_recommend_requests = (row) => (row.op === 'recommend' ? row.n : 0);
  counters.insights_operations = (row) => (row.op === 'insights' ? 1 : 0);

  const out: Statistics = {};
  for (const metric of metrics) {
    if (NOT_MEASURED.has(metric)) continue;
    const counter = counters[metric];
    if (counter) {
      const points = starts.map((t) => ({ t, v: buckets.get(t)!.rows.reduce((sum, row) => sum + counter(row), 0) }));
      if (points.some((point) => point.v > 0)) out[metric] = points;
      continue;
    }
    if (metric === 'avg_processing_time' || metric === '90p_processing_time' || metric === '99p_processing_time') {
      const points: Point[] = [];
      for (const t of starts) {
        const times = buckets
          .get(t)!
          .rows.filter((row) => SEARCH_OPS.has(row.op) && counted(row))
          .map((row) => row.ms)
          .sort((x, y) => x - y);
        if (times.length === 0) continue;
        const v =
          metric === 'avg_processing_time'
            ? times.reduce((sum, ms) => sum + ms, 0) / times.length
            : percentile(times, metric === '90p_processing_time' ? 0.9 : 0.99);
        points.push({ t, v: Math.round(v) });
      }
      if (points.length > 0) out[metric] = points;
      continue;
    }
    if (metric === 'max_qps' || metric === 'region_max_qps' || metric === 'total_max_qps') {
      const points: Point[] = [];
      for (const t of starts) {
        const perSecond = new Map<number, number>();
        for (const row of buckets.get(t)!.rows) {
          if (!SEARCH_OPS.has(row.op)) continue;
          const second = Math.floor(row.ts / 1000);
          perSecond.set(second, (perSecond.get(second) ?? 0) + row.n);
        }
        const max = Math.max(0, ...perSecond.values());
        points.push({
          t,
          v: metric === 'total_max_qps' ? max : { [metric === 'max_qps' ? LOCAL_SERVER : LOCAL_REGION]: max },
        });
      }
      if (points.some((point) => (typeof point.v === 'number' ? point.v : Object.values(point.v)[0]!) > 0))
        out[metric] = points;
      continue;
    }
    if (metric === 'records' || metric === 'data_size' || metric === 'file_size') {
      // No history of the index sizes is kept: one point, the bucket of the present, when it is in range.
      const current = Math.floor(range.now / range.unit) * range.unit;
      if (!buckets.has(current) || range.now < range.start) continue;
      const v = sizeOf(sizes, metric);
      if (v !== undefined) out[metric] = [{ t: current, v }];
    }
  }
  return out;
}

function sizeOf(
  sizes: { records: number; recordBytes: number; settingsBytes: number } | undefined,
  metric: 'records' | 'data_size' | 'file_size',
): number | undefined {
  if (!sizes) return undefined;
  if (metric === 'records') return sizes.records;
  if (metric === 'data_size') return sizes.recordBytes;
  return sizes.recordBytes + sizes.settingsBytes;
}
