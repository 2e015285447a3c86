/**
 * The HTTP app: one Hono sub-app per API section, mounted in order on one app with the middlewares every
 * answer shares (CORS for the browser-facing APIs, the path check, the JSON content type) and the one error
 * mapping (`ServiceError` and the engine's `EngineError` → the section's failure body, `failure.ts`).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { ServiceError } from '../errors.js';
import type { Services } from '../services.js';
import { abTestRoutes } from './abtests.js';
import { analyticsRoutes } from './analytics.js';
import { clusterRoutes } from './clusters.js';
import { crawlerRoutes } from './crawler.js';
import { dictionaryRoutes } from './dictionaries.js';
import { bodies } from './body.js';
import type { BodyBudget } from './body-budget.js';
import { failureBody } from './failure.js';
import { indexRoutes } from './indices.js';
import { insightsRoutes } from './insights.js';
import { keyRoutes } from './keys.js';
import { logRoutes } from './logs.js';
import { monitoringRoutes } from './monitoring.js';
import { personalizationRoutes } from './personalization.js';
import { querySuggestionRoutes } from './query-suggestions.js';
import { recommendRoutes } from './recommend.js';
import { objectRoutes, recordRoutes } from './records.js';
import { ruleRoutes } from './rules.js';
import { searchRoutes } from './search.js';
import { synonymRoutes } from './synonyms.js';
import { usageRoutes } from './usage.js';

/** Headers a browser may send cross-origin (preflight answer). */
const ALLOWED_HEADERS = [
  'Content-Type',
  'X-Service-Application-Id',
  'X-Service-API-Key',
  'X-Service-UserToken',
  'X-Service-User-ID',
  'X-Service-Agent',
];

/** Whether the path of a request URL percent-decodes to UTF-8 text. */
function wellEncodedPath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sections in the order they are mounted: the call log and the Usage recorder first (their middlewares
 * wrap every call below), the Crawler API (`/api/1/…`, outside what they record) after the others, and
 * `GET /1/indexes/{indexName}/{objectID}` last (its path is the most generic).
 */
const SECTIONS = [
  logRoutes,
  usageRoutes,
  monitoringRoutes,
  indexRoutes,
  searchRoutes,
  recordRoutes,
  keyRoutes,
  ruleRoutes,
  synonymRoutes,
  dictionaryRoutes,
  insightsRoutes,
  recommendRoutes,
  analyticsRoutes,
  abTestRoutes,
  querySuggestionRoutes,
  personalizationRoutes,
  clusterRoutes,
  crawlerRoutes,
  objectRoutes,
];

/**
 * @example
 * const app = createApp(services, new BodyBudget(services.config.maxBodyBytesInFlight));
 * const answer = await app.request('/1/indexes', { headers });
 */
export function createApp(services: Services, bodyBudget: BodyBudget): Hono {
  const app = new Hono();
  // CORS for the browser-facing APIs only. The Crawler API (`/api/1/`) is for servers and scripts: no page of
  // another origin may call it (its key runs record extractors on this machine), so it gets no CORS headers.
  // Two plain prefixes, not one `/:version{1|2}/*` pattern: Hono's combined router let that pattern match
  // any path whose last character is `2` (`/api/1/crawlers/…2` got CORS headers).
  const preflight = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    maxAge: 86400,
  });
  // The preflight is `cors`'s. On every other call `cors` only adds `Access-Control-Allow-Origin: *` (the
  // origin is `*`, whatever the request's `Origin`), but on the answer object it makes before the route runs:
  // Hono then copies the route's answer into a new one, whose body becomes a web stream the Node adapter
  // reads chunk by chunk. Set as a prepared header, it goes into the route's answer as it is made.
  const browserCors: MiddlewareHandler = async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    c.header('Access-Control-Allow-Origin', '*');
    await next();
  };
  app.use('/1/*', browserCors);
  app.use('/2/*', browserCors);
  // A path with a malformed percent-escape (`%ZZ`) or bytes that are not UTF-8 (`%ff%fe`) names nothing:
  // 400 before anything else reads it (authentication, the call log, the routers).
  app.use('*', async (c, next) => {
    if (!wellEncodedPath(c.req.raw.url)) {
      return c.json(
        { message: 'Malformed path: a percent-escape is not valid (or does not decode to UTF-8 text)' },
        400,
      );
    }
    await next();
  });
  // The body, made available to the routes without being read: a route reads it once it has authorised the
  // call; what an answer leaves unread is drained after it (`bodies`).
  app.use('*', bodies(bodyBudget));
  // Document 1, wire rule 2: answers are JSON objects with `application/json; charset=UTF-8`.
  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('application/json')) {
      c.res.headers.set('content-type', 'application/json; charset=UTF-8');
    }
  });
  app.onError((error, c) => {
    // ServiceError, the engine's EngineError, and any other error that carries a 4xx status.
    const status = (error as { status?: unknown }).status;
    // …and the 503 of the request-body budget (`body.ts`): the service busy, not broken.
    const busy = error instanceof ServiceError && status === 503;
    if (typeof status === 'number' && ((status >= 400 && status < 500) || busy)) {
      const headers = error instanceof ServiceError ? error.headers : undefined;
      return c.json(failureBody(c.req.path, status, error.message), status as 400, headers);
    }
    console.error('[svc-search]', c.req.method, c.req.path, error);
    return c.json(failureBody(c.req.path, 500, 'Internal error of the local service'), 500);
  });
  app.notFound((c) => c.json({ message: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  for (const section of SECTIONS) app.route('/', section(services));
  return app;
}
