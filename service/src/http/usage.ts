/**
 * Usage (document 3): `GET /1/usage/{statistic}` and `GET /1/usage/{statistic}/{index}`, and the
 * middleware that records every call of the search API for it (operation, index, time, processing time)
 * in `usage_calls`. Register it before the routers whose calls it counts. See `docs/notes/usage-monitoring.md`.
 */
import { type Context, Hono, type Next } from 'hono';
import { z } from 'zod';
import type { Services } from '../services.js';
import { authorizeOperational } from '../usage/keys.js';
import { callerOf } from './request.js';
import { operationOf } from '../usage/operations.js';
import { computeStatistics, DAY, HOUR, metricsOf } from '../usage/report.js';
import { queryOf } from './validate.js';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/;

/** `startDate` / `endDate`: a UTC timestamp (or a day) as Unix ms. */
function date(name: 'startDate' | 'endDate') {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      const ms = text && DATE.test(text) ? Date.parse(text) : Number.NaN;
      if (Number.isFinite(ms)) return ms;
      context.addIssue({
        code: 'custom',
        message:
          text === undefined || text === ''
            ? `${name} is required (a UTC timestamp such as 2006-01-02T00:00:00.000Z)`
            : `${name} must be a UTC timestamp such as 2006-01-02T00:00:00.000Z, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    });
}

/** The period of a Usage call (document 3): start inclusive, end exclusive, at most 7 days hourly, 365 daily. */
const USAGE_QUERY = z
  .object({
    startDate: date('startDate'),
    endDate: date('endDate'),
    granularity: z
      .string()
      .default('daily')
      .refine((value) => value === 'hourly' || value === 'daily', {
        error: (issue) => `granularity must be hourly or daily, got ${JSON.stringify(issue.input)}`,
      })
      .transform((value) => value as 'hourly' | 'daily'),
  })
  .superRefine(({ startDate: start, endDate: end, granularity }, context) => {
    if (end <= start) {
      context.addIssue({
        code: 'custom',
        message: 'endDate must be after startDate (startDate is inclusive, endDate exclusive)',
      });
      return;
    }
    const maxDays = granularity === 'hourly' ? 7 : 365;
    if (end - start > maxDays * DAY)
      context.addIssue({
        code: 'custom',
        message: `startDate to endDate: ${granularity} granularity allows at most ${maxDays} days`,
      });
  });

async function answer(services: Services, c: Context, indexName: string | undefined) {
  authorizeOperational(services.authorize, services.config, callerOf(c), 'usage', indexName);
  const metrics = metricsOf(c.req.param('statistic') ?? '', indexName === undefined);
  // Usage failures are 422 (document 3, Errors).
  const { startDate: start, endDate: end, granularity } = queryOf(c, USAGE_QUERY, { status: 422 });
  const rows = await services.usage.rows(start, end, indexName);
  const unit = granularity === 'hourly' ? HOUR : DAY;
  return c.json(
    computeStatistics(
      metrics,
      rows,
      { start, end, unit, now: services.now() },
      await services.storage.catalog.sizes(indexName),
      indexName,
    ),
  );
}

/**
 * @example
 * app.route('/', usageRoutes(services)); // then GET /1/usage/total_search_requests?startDate=…&endDate=…
 */
export function usageRoutes(services: Services): Hono {
  const app = new Hono();
  app.use('/1/*', async (c: Context, next: Next) => {
    const operation = operationOf(c.req.method, c.req.path);
    if (!operation) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      services.usage.record({
        ts: services.now(),
        op: operation.op,
        ...(operation.indexName !== undefined ? { indexName: operation.indexName } : {}),
        ...(operation.multi ? { body: c.get('bodyText') ?? '' } : {}),
        ms,
        status: c.res.status,
      });
    }
  });
  app.get('/1/usage/:statistic', (c) => answer(services, c, undefined));
  app.get('/1/usage/:statistic/:index', (c) => answer(services, c, c.req.param('index')));
  return app;
}
