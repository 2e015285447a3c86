/**
 * The Crawler API (document 3, "Crawler"): `/api/1/crawlers…` and `/api/1/domains`, with HTTP Basic
 * authentication `<crawler user id>:<crawler API key>` on every call (401 missing or invalid; for
 * `/api/1/domains` 401 missing, 403 invalid), 403 for an unknown crawler, 400 naming the bad field.
 * The work is `crawler/service.ts`; choices where the document is silent: `docs/notes/crawler.md`.
 */
import { timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Services } from '../services.js';
import { onlyKeys } from '../validation.js';
import { jsonBody, jsonObject, queryOf } from './validate.js';
import { ServiceError } from '../errors.js';

const REALM = 'Basic realm="crawler", charset="UTF-8"';

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks the Basic credentials; `invalidStatus` is 401 for the crawler paths, 403 for `/api/1/domains`
 * (the document's table).
 */
function authenticate(services: Services, c: Context, invalidStatus: 401 | 403): void {
  const header = c.req.header('authorization');
  if (!header)
    throw new ServiceError(
      401,
      'Authorization is missing: HTTP Basic with the crawler user id and the crawler API key',
    );
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const { userId, apiKey } = services.config.crawler;
  // Both compared, always, so the answer time says nothing about which part was wrong.
  const userOk = colon > 0 && same(decoded.slice(0, colon), userId);
  const keyOk = colon > 0 && same(decoded.slice(colon + 1), apiKey);
  if (!match)
    throw new ServiceError(401, 'Authorization must be HTTP Basic: base64 of <crawler user id>:<crawler API key>');
  if (!userOk || !keyOk) throw new ServiceError(invalidStatus, 'Invalid crawler user id or crawler API key');
}

/** A query-string integer from 1 to `max` (400 naming it with what was sent). */
function position(name: string, fallback: number, max: number) {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined) return fallback;
      const value = Number(text);
      if (/^\d+$/.test(text) && value >= 1 && value <= max) return value;
      context.addIssue({
        code: 'custom',
        message: `${name}: must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    });
}

const PAGINATION = z.object({ page: position('page', 1, 1_000_000), itemsPerPage: position('itemsPerPage', 20, 100) });
const WITH_CONFIG = z.object({
  withConfig: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === 'true' || value === 'false', {
      error: (issue) => `withConfig: must be true or false, got ${JSON.stringify(issue.input)}`,
    }),
});

/** The filters of the crawler list and the domains listing (text; `appId` is checked against the service's). */
const FILTER_QUERY = z.looseObject({ name: z.string().optional(), appId: z.string().optional() });

function pagination(c: Context): { page: number; itemsPerPage: number } {
  return queryOf(c, PAGINATION);
}

function page<T>(items: T[], { page, itemsPerPage }: { page: number; itemsPerPage: number }) {
  return {
    items: items.slice((page - 1) * itemsPerPage, page * itemsPerPage),
    itemsPerPage,
    page,
    total: items.length,
  };
}

/** The body as an object holding only `allowed` fields (400 naming an unknown one). */
async function body(c: Context, allowed: string[]): Promise<Record<string, unknown>> {
  return jsonBody(
    c,
    jsonObject('The body must be a JSON object').pipe(
      onlyKeys(allowed, (key) => `${key}: unknown field (expected ${allowed.join(', ')})`),
    ),
  );
}

/**
 * @example
 * app.route('/', crawlerRoutes(services)); // then POST /api/1/crawlers with Authorization: Basic base64(user:key)
 */
export function crawlerRoutes(services: Services): Hono {
  const app = new Hono();
  const crawlers = () => services.crawler;

  app.use('/api/1/*', async (c, next) => {
    await next();
    if (c.res.status === 401) c.res.headers.set('WWW-Authenticate', REALM);
  });

  app.post('/api/1/crawlers', async (c) => {
    authenticate(services, c, 401);
    const { name, config } = await body(c, ['name', 'config']);
    if (config === undefined) throw new ServiceError(400, 'config: required');
    return c.json({ id: await crawlers().create(name, config) });
  });

  app.get('/api/1/crawlers', async (c) => {
    authenticate(services, c, 401);
    const paging = pagination(c);
    const { name, appId } = queryOf(c, FILTER_QUERY);
    const items = (await crawlers().list({ name, appId })).map((crawler) => ({ id: crawler.id, name: crawler.name }));
    return c.json(page(items, paging));
  });

  app.get('/api/1/crawlers/:id', async (c) => {
    authenticate(services, c, 401);
    const { withConfig } = queryOf(c, WITH_CONFIG);
    const crawler = await crawlers().require(c.req.param('id'));
    return c.json(crawlers().view(crawler, withConfig === 'true'));
  });

  app.patch('/api/1/crawlers/:id', async (c) => {
    authenticate(services, c, 401);
    await crawlers().require(c.req.param('id'));
    const { name, config } = await body(c, ['name', 'config']);
    return c.json({ taskId: await crawlers().update(c.req.param('id'), name, config) });
  });

  app.patch('/api/1/crawlers/:id/config', async (c) => {
    authenticate(services, c, 401);
    await crawlers().require(c.req.param('id'));
    const partial = await jsonBody(
      c,
      jsonObject('The body (top-level configuration properties) must be a JSON object'),
    );
    return c.json({ taskId: await crawlers().patchConfig(c.req.param('id'), partial) });
  });

  for (const action of ['run', 'pause', 'reindex'] as const) {
    app.post(`/api/1/crawlers/:id/${action}`, async (c) => {
      authenticate(services, c, 401);
      return c.json({ taskId: await crawlers()[action](c.req.param('id')) });
    });
  }

  app.get('/api/1/crawlers/:id/stats/urls', async (c) => {
    authenticate(services, c, 401);
    return c.json(await crawlers().statistics(c.req.param('id')));
  });

  app.post('/api/1/crawlers/:id/urls/crawl', async (c) => {
    authenticate(services, c, 401);
    await crawlers().require(c.req.param('id'));
    const { urls, save } = await body(c, ['urls', 'save']);
    return c.json({ taskId: await crawlers().crawlUrls(c.req.param('id'), urls, save) });
  });

  app.post('/api/1/crawlers/:id/test', async (c) => {
    authenticate(services, c, 401);
    await crawlers().require(c.req.param('id'));
    const { url, config } = await body(c, ['url', 'config']);
    return c.json(await crawlers().test(c.req.param('id'), url, config));
  });

  app.get('/api/1/crawlers/:id/tasks/:taskId', async (c) => {
    authenticate(services, c, 401);
    return c.json(await crawlers().task(c.req.param('id'), c.req.param('taskId')));
  });

  app.post('/api/1/crawlers/:id/tasks/:taskId/cancel', async (c) => {
    authenticate(services, c, 401);
    await crawlers().cancel(c.req.param('id'), c.req.param('taskId'));
    return c.json({});
  });

  app.get('/api/1/domains', async (c) => {
    authenticate(services, c, 403);
    const paging = pagination(c);
    const { appId } = queryOf(c, FILTER_QUERY);
    if (appId !== undefined && appId !== services.config.appId)
      throw new ServiceError(400, `appId: ${JSON.stringify(appId)} is not the application id of this service`);
    return c.json(page(await crawlers().domains(), paging));
  });
  return app;
}
