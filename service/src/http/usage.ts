/**
 * Usage (document 3): `GET /1/usage/{statistic}` and `GET /1/usage/{statistic}/{index}`, and the
 * middleware that records every call of the search API for it (operation, index, time, processing time)
 * in `usage_calls`. Register it before the routers whose calls it counts. See `docs/notes/usage-monitoring.md`.
 */
import type { Context, Hono, Next } from 'hono';
import type { ServiceContext } from '../context.js';
import { bodyTexts } from './body.js';
import { HttpError } from './errors.js';
import { authorizeOperational } from '../usage/keys.js';
import { operationOf } from '../usage/operations.js';
import { getUsageLog } from '../usage/record.js';
import { computeStatistics, DAY, HOUR, metricsOf, UsageError } from '../usage/report.js';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/;

function date(c: Context, name: 'startDate' | 'endDate'): number {
  const text = c.req.query(name);
  if (text === undefined || text === '')
    throw new UsageError(`${name} is required (a UTC timestamp such as 2006-01-02T00:00:00.000Z)`);
  const ms = DATE.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `${name} must be a UTC timestamp such as 2006-01-02T00:00:00.000Z, got ${JSON.stringify(text)}`,
    );
  return ms;
}

function answer(ctx: ServiceContext, c: Context, indexName: string | undefined) {
  try {
    authorizeOperational(ctx, c, 'usage', indexName);
    const metrics = metricsOf(c.req.param('statistic') ?? '', indexName === undefined);
    const start = date(c, 'startDate');
    const end = date(c, 'endDate');
    const granularity = c.req.query('granularity') ?? 'daily';
    if (granularity !== 'hourly' && granularity !== 'daily')
      throw new UsageError(`granularity must be hourly or daily, got ${JSON.stringify(granularity)}`);
    if (end <= start)
      throw new UsageError('endDate must be after startDate (startDate is inclusive, endDate exclusive)');
    const maxDays = granularity === 'hourly' ? 7 : 365;
    if (end - start > maxDays * DAY)
      throw new UsageError(`startDate to endDate: ${granularity} granularity allows at most ${maxDays} days`);
    const rows = getUsageLog(ctx).rows(start, end, indexName);
    const unit = granularity === 'hourly' ? HOUR : DAY;
    return c.json(computeStatistics(metrics, rows, { start, end, unit, now: ctx.now() }, ctx.db, indexName));
  } catch (error) {
    // Usage failures carry `status` (document 3, Errors); validation failures are 422.
    const status = error instanceof UsageError ? 422 : error instanceof HttpError ? error.status : 500;
    if (status === 500) console.error('[svc-search] usage', error);
    return c.json(
      { status, message: status === 500 ? 'Internal error of the local service' : (error as Error).message },
      status as 422,
    );
  }
}

/**
 * @example
 * usage.register(app, ctx); // then GET /1/usage/total_search_requests?startDate=…&endDate=…
 */
export function register(app: Hono, ctx: ServiceContext): void {
  app.use('/1/*', async (c: Context, next: Next) => {
    const operation = operationOf(c.req.method, c.req.path);
    if (!operation) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      getUsageLog(ctx).record({
        ts: ctx.now(),
        op: operation.op,
        ...(operation.indexName !== undefined ? { indexName: operation.indexName } : {}),
        ...(operation.multi ? { body: bodyTexts.get(c.req.raw) ?? '' } : {}),
        ms,
        status: c.res.status,
      });
    }
  });
  app.get('/1/usage/:statistic', (c) => answer(ctx, c, undefined));
  app.get('/1/usage/:statistic/:index', (c) => answer(ctx, c, c.req.param('index')));
}
