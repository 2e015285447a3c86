/**
 * The Analytics API (document 2, "Endpoints > Analytics"): every `GET /2/…` report, computed at each call
 * from the searches the service recorded (`analytics/record.ts`) and the Insights events it
 * stored. A key with the `analytics` right, by headers or URL parameters (missing credentials 401, wrong
 * ones 403); failures are `{ status, message }`; 100 calls per
 * minute per application with the `X-RateLimit-*` headers (document 2, "Limits").
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { ORDER_BY, parseBoolean, parseCount, parsePeriod, parseTags, TOP_LIMIT } from '../analytics/params.js';
import type { OrderBy, Page, Scope } from '../storage/types.js';
import type { Services } from '../services.js';
import { authorizeOrUnauthorized } from './request.js';
import { queryOf } from './validate.js';
import { ServiceError } from '../errors.js';

/** "Analytics calls: 100 per minute per application". */
export const ANALYTICS_CALLS_PER_MINUTE = 100;

/**
 * The query parameters of the Analytics reports, as text: each report reads those it takes and the
 * parameter parsers of `analytics/params.ts` check them (400 naming the parameter); others are ignored.
 */
const ANALYTICS_QUERY = z.looseObject({
  index: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  tags: z.string().optional(),
  limit: z.string().optional(),
  offset: z.string().optional(),
  clickAnalytics: z.string().optional(),
  orderBy: z.string().optional(),
  direction: z.string().optional(),
  search: z.string().optional(),
});
type AnalyticsQuery = z.output<typeof ANALYTICS_QUERY>;

interface Call {
  c: Context;
  /** The parsed query string. */
  query: AnalyticsQuery;
  index: string;
  /** The common parameters `startDate`, `endDate`, `tags` (400 when malformed). */
  scope(): Scope;
  /** `limit` (default 10, 0 = the whole top list) and `offset` (default 0). */
  page(defaultLimit?: number): Page;
}

export function analyticsRoutes(services: Services): Hono {
  const app = new Hono();
  const { analyticsLog: log, analytics: reports } = services;
  const calls = { minute: -1, count: 0 };

  /** Counts the call against the application's minute; 429 past the limit. Returns the headers to send. */
  function rateLimit(): Record<string, string> {
    const minute = Math.floor(services.now() / 60_000);
    if (minute !== calls.minute) {
      calls.minute = minute;
      calls.count = 0;
    }
    calls.count += 1;
    const headers = {
      'X-RateLimit-Limit': String(ANALYTICS_CALLS_PER_MINUTE),
      'X-RateLimit-Remaining': String(Math.max(0, ANALYTICS_CALLS_PER_MINUTE - calls.count)),
      'X-RateLimit-Reset': String((minute + 1) * 60),
    };
    if (calls.count > ANALYTICS_CALLS_PER_MINUTE) {
      throw new ServiceError(
        429,
        `Too many requests: the Analytics API allows ${ANALYTICS_CALLS_PER_MINUTE} calls per minute per application`,
        { headers },
      );
    }
    return headers;
  }

  function route(path: string, handler: (call: Call) => Promise<unknown>): void {
    app.get(path, async (c) => {
      const query = queryOf(c, ANALYTICS_QUERY);
      const index = query.index;
      // Missing credentials 401, wrong ones 403 (as the A/B test API on the same host).
      authorizeOrUnauthorized(services, c, 'analytics', index || undefined, 403);
      // Every answer from here on carries the rate-limit headers, refusals included.
      for (const [name, value] of Object.entries(rateLimit())) c.header(name, value);
      if (!index) throw new ServiceError(400, 'index: required (the name of the index to report on)');
      const scope = (): Scope => ({
        index,
        period: parsePeriod(query.startDate, query.endDate, services.now()),
        tags: parseTags(query.tags),
      });
      const page = (defaultLimit = 10): Page => ({
        limit: parseCount('limit', query.limit, defaultLimit, TOP_LIMIT),
        offset: parseCount('offset', query.offset, 0),
      });
      await log.flush(); // searches still queued count too
      return c.json(await handler({ c, query, index, scope, page }), 200);
    });
  }

  const required = (value: string | undefined, name: string): string => {
    if (value === undefined) throw new ServiceError(400, `${name}: required`);
    return value;
  };

  // index only (the document): other parameters are ignored.
  route('/2/status', ({ index }) => reports.status(index));

  route('/2/searches', ({ query, scope, page }) => {
    const clickAnalytics = parseBoolean('clickAnalytics', query.clickAnalytics, false);
    const orderBy = (query.orderBy || 'searchCount') as OrderBy;
    if (!ORDER_BY.includes(orderBy)) throw new ServiceError(400, `orderBy: must be one of ${ORDER_BY.join(', ')}`);
    if (orderBy !== 'searchCount' && !clickAnalytics)
      throw new ServiceError(400, `orderBy: ${orderBy} needs clickAnalytics=true`);
    const direction = query.direction || 'desc';
    if (direction !== 'asc' && direction !== 'desc') throw new ServiceError(400, 'direction: must be asc or desc');
    return reports.topSearches(scope(), { ...page(), clickAnalytics, orderBy, direction });
  });
  route('/2/searches/count', ({ scope }) => reports.searchesCount(scope()));
  route('/2/searches/noResults', ({ scope, page }) => reports.noResults(scope(), page()));
  route('/2/searches/noClicks', ({ scope, page }) => reports.noClicks(scope(), page()));
  route('/2/searches/noResultRate', ({ scope }) => reports.noResultRate(scope()));
  route('/2/searches/noClickRate', ({ scope }) => reports.noClickRate(scope()));

  route('/2/hits', ({ query, scope, page }) => {
    const clickAnalytics = parseBoolean('clickAnalytics', query.clickAnalytics, false);
    const { search } = query;
    // With `search`, the document's default limit is 0: read as "no limit" (the whole top list).
    return reports.topHits({ ...scope(), search }, { ...page(search === undefined ? 10 : 0), clickAnalytics });
  });

  route('/2/users/count', ({ scope }) => reports.usersCount(scope()));

  route('/2/filters', ({ query, scope, page }) =>
    reports.filterAttributes({ ...scope(), search: query.search }, page()),
  );
  route('/2/filters/noResults', ({ query, scope, page }) =>
    reports.filtersNoResults({ ...scope(), search: required(query.search, 'search') }, page()),
  );
  route('/2/filters/:attributes', ({ c, query, scope, page }) => {
    const path = c.req.param('attributes') ?? '';
    const { search } = query;
    // Document 2: a comma-separated list of attributes goes with the required `search`.
    if (search === undefined && path.includes(',')) {
      throw new ServiceError(400, 'search: required with a list of attributes (/2/filters/{attribute,…}?search=)');
    }
    // With `search` the path is a comma-separated list of attributes; without, one exact attribute name.
    const attributes =
      search === undefined
        ? [path]
        : path
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean);
    if (attributes.length === 0 || attributes.some((name) => name === ''))
      throw new ServiceError(400, 'attribute: required in the path');
    return reports.filterValues({ ...scope(), search }, attributes, page());
  });

  // The country of each search is the one a proxy put in a header (analytics/record.ts, searchOrigin).
  route('/2/countries', ({ scope, page }) => reports.countries(scope(), page()));

  route('/2/clicks/averageClickPosition', ({ scope }) => reports.averageClickPosition(scope()));
  route('/2/clicks/positions', ({ scope }) => reports.clickPositions(scope()));
  route('/2/clicks/clickThroughRate', ({ scope }) => reports.clickThroughRate(scope()));
  route('/2/conversions/conversionRate', ({ scope }) => reports.conversionRate(scope()));
  return app;
}
