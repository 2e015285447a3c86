/**
 * The Analytics API (document 2, "Endpoints > Analytics"): every `GET /2/…` report, computed at each call
 * from the searches the service recorded (`src/service/analytics/record.ts`) and the Insights events it
 * stored. A key with the `analytics` right, by headers or URL parameters (missing credentials 401, wrong
 * ones 403); failures are `{ status, message }`; 100 calls per
 * minute per application with the `X-RateLimit-*` headers (document 2, "Limits").
 */
import type { Context, Hono } from 'hono';
import { parseBoolean, parseCount, parsePeriod, parseTags, TOP_LIMIT } from '../analytics/params.js';
import { getAnalyticsLog } from '../analytics/record.js';
import { AnalyticsReports, ORDER_BY, type OrderBy, type Page, type Scope } from '../analytics/reports.js';
import type { ServiceContext } from '../context.js';
import { EngineError } from '../engine/index.js';
import { getEventStore } from '../insights/event-store.js';
import { authorizeOrUnauthorized } from './auth.js';
import { HttpError } from './errors.js';

/** "Analytics calls: 100 per minute per application". */
export const ANALYTICS_CALLS_PER_MINUTE = 100;

interface Call {
  c: Context;
  index: string;
  /** The common parameters `startDate`, `endDate`, `tags` (400 when malformed). */
  scope(): Scope;
  /** `limit` (default 10, 0 = the whole top list) and `offset` (default 0). */
  page(defaultLimit?: number): Page;
}

export function register(app: Hono, ctx: ServiceContext): void {
  getEventStore(ctx); // the events table the click figures read
  const log = getAnalyticsLog(ctx);
  const reports = new AnalyticsReports(ctx.db);
  const calls = { minute: -1, count: 0 };

  /** Counts the call against the application's minute; 429 past the limit. Returns the headers to send. */
  function rateLimit(): Record<string, string> {
    const minute = Math.floor(ctx.now() / 60_000);
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
      throw Object.assign(
        new HttpError(
          429,
          `Too many requests: the Analytics API allows ${ANALYTICS_CALLS_PER_MINUTE} calls per minute per application`,
        ),
        { headers },
      );
    }
    return headers;
  }

  function route(path: string, handler: (call: Call) => unknown): void {
    app.get(path, (c) => {
      let headers: Record<string, string> = {};
      try {
        const index = c.req.query('index');
        // Missing credentials 401, wrong ones 403 (as the A/B test API on the same host).
        authorizeOrUnauthorized(ctx, c, 'analytics', index || undefined, 403);
        headers = rateLimit();
        if (!index) throw new HttpError(400, 'index: required (the name of the index to report on)');
        const scope = (): Scope => ({
          index,
          period: parsePeriod(c.req.query('startDate'), c.req.query('endDate'), ctx.now()),
          tags: parseTags(c.req.query('tags')),
        });
        const page = (defaultLimit = 10): Page => ({
          limit: parseCount('limit', c.req.query('limit'), defaultLimit, TOP_LIMIT),
          offset: parseCount('offset', c.req.query('offset'), 0),
        });
        log.flush(); // searches still queued count too
        return c.json(handler({ c, index, scope, page }), 200, headers);
      } catch (error) {
        if (error instanceof HttpError || error instanceof EngineError) {
          const extra = (error as { headers?: Record<string, string> }).headers;
          return c.json({ status: error.status, message: error.message }, error.status as 400, {
            ...headers,
            ...extra,
          });
        }
        throw error;
      }
    });
  }

  const required = (c: Context, name: string): string => {
    const value = c.req.query(name);
    if (value === undefined) throw new HttpError(400, `${name}: required`);
    return value;
  };
  const optional = (c: Context, name: string): string | undefined => c.req.query(name);

  // index only (the document): other parameters are ignored.
  route('/2/status', ({ index }) => reports.status(index));

  route('/2/searches', ({ c, scope, page }) => {
    const clickAnalytics = parseBoolean('clickAnalytics', c.req.query('clickAnalytics'), false);
    const orderBy = (c.req.query('orderBy') || 'searchCount') as OrderBy;
    if (!ORDER_BY.includes(orderBy)) throw new HttpError(400, `orderBy: must be one of ${ORDER_BY.join(', ')}`);
    if (orderBy !== 'searchCount' && !clickAnalytics)
      throw new HttpError(400, `orderBy: ${orderBy} needs clickAnalytics=true`);
    const direction = c.req.query('direction') || 'desc';
    if (direction !== 'asc' && direction !== 'desc') throw new HttpError(400, 'direction: must be asc or desc');
    return reports.topSearches(scope(), { ...page(), clickAnalytics, orderBy, direction });
  });
  route('/2/searches/count', ({ scope }) => reports.searchesCount(scope()));
  route('/2/searches/noResults', ({ scope, page }) => reports.noResults(scope(), page()));
  route('/2/searches/noClicks', ({ scope, page }) => reports.noClicks(scope(), page()));
  route('/2/searches/noResultRate', ({ scope }) => reports.noResultRate(scope()));
  route('/2/searches/noClickRate', ({ scope }) => reports.noClickRate(scope()));

  route('/2/hits', ({ c, scope, page }) => {
    const clickAnalytics = parseBoolean('clickAnalytics', c.req.query('clickAnalytics'), false);
    const search = optional(c, 'search');
    // With `search`, the document's default limit is 0: read as "no limit" (the whole top list).
    return reports.topHits({ ...scope(), search }, { ...page(search === undefined ? 10 : 0), clickAnalytics });
  });

  route('/2/users/count', ({ scope }) => reports.usersCount(scope()));

  route('/2/filters', ({ c, scope, page }) =>
    reports.filterAttributes({ ...scope(), search: optional(c, 'search') }, page()),
  );
  route('/2/filters/noResults', ({ c, scope, page }) =>
    reports.filtersNoResults({ ...scope(), search: required(c, 'search') }, page()),
  );
  route('/2/filters/:attributes', ({ c, scope, page }) => {
    const path = c.req.param('attributes') ?? '';
    const search = optional(c, 'search');
    // Document 2: a comma-separated list of attributes goes with the required `search`.
    if (search === undefined && path.includes(',')) {
      throw new HttpError(400, 'search: required with a list of attributes (/2/filters/{attribute,…}?search=)');
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
      throw new HttpError(400, 'attribute: required in the path');
    return reports.filterValues({ ...scope(), search }, attributes, page());
  });

  // The country of each search is the one a proxy put in a header (analytics/record.ts, searchOrigin).
  route('/2/countries', ({ scope, page }) => reports.countries(scope(), page()));

  route('/2/clicks/averageClickPosition', ({ scope }) => reports.averageClickPosition(scope()));
  route('/2/clicks/positions', ({ scope }) => reports.clickPositions(scope()));
  route('/2/clicks/clickThroughRate', ({ scope }) => reports.clickThroughRate(scope()));
  route('/2/conversions/conversionRate', ({ scope }) => reports.conversionRate(scope()));
}
