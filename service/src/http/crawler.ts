/**
 * The Crawler API (document 3, "Crawler"): `/api/1/crawlers…` and `/api/1/domains`, with HTTP Basic
 * authentication `<crawler user id>:<crawler API key>` on every call (401 missing or invalid; for
 * `/api/1/domains` 401 missing, 403 invalid), 403 for an unknown crawler, 400 naming the bad field.
 * The work is `crawler/service.ts`; choices where the document is silent: `docs/notes/crawler.md`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { getCrawlers } from '../crawler/options.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';

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
function authenticate(ctx: ServiceContext, c: Context, invalidStatus: 401 | 403): void {
  const header = c.req.header('authorization');
  if (!header)
    throw new HttpError(401, 'Authorization is missing: HTTP Basic with the crawler user id and the crawler API key');
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const { userId, apiKey } = getCrawlers(ctx).options;
  // Both compared, always, so the answer time says nothing about which part was wrong.
  const userOk = colon > 0 && same(decoded.slice(0, colon), userId);
  const keyOk = colon > 0 && same(decoded.slice(colon + 1), apiKey);
  if (!match)
    throw new HttpError(401, 'Authorization must be HTTP Basic: base64 of <crawler user id>:<crawler API key>');
  if (!userOk || !keyOk) throw new HttpError(invalidStatus, 'Invalid crawler user id or crawler API key');
}

function pagination(c: Context): { page: number; itemsPerPage: number } {
  const read = (name: string, fallback: number, max: number) => {
    const text = c.req.query(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < 1 || value > max)
      throw new HttpError(400, `${name}: must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
    return value;
  };
  return { page: read('page', 1, 1_000_000), itemsPerPage: read('itemsPerPage', 20, 100) };
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
async function body(ctx: ServiceContext, c: Context, allowed: string[]): Promise<Record<string, unknown>> {
  const value = asObject(await ctx.readJson(c));
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) throw new HttpError(400, `${field}: unknown field (expected ${allowed.join(', ')})`);
  }
  return value;
}

/**
 * @example
 * crawler.register(app, ctx); // then POST /api/1/crawlers with Authorization: Basic base64(user:key)
 */
export function register(app: Hono, ctx: ServiceContext): void {
  const crawlers = () => getCrawlers(ctx);
  getCrawlers(ctx); // recover what a restart interrupted now, not at the first call

  app.use('/api/1/*', async (c, next) => {
    await next();
    if (c.res.status === 401) c.res.headers.set('WWW-Authenticate', REALM);
  });

  app.post('/api/1/crawlers', async (c) => {
    authenticate(ctx, c, 401);
    const { name, config } = await body(ctx, c, ['name', 'config']);
    if (config === undefined) throw new HttpError(400, 'config: required');
    return c.json({ id: crawlers().create(name, config) });
  });

  app.get('/api/1/crawlers', (c) => {
    authenticate(ctx, c, 401);
    const paging = pagination(c);
    const items = crawlers()
      .list({ name: c.req.query('name'), appId: c.req.query('appId') })
      .map((crawler) => ({ id: crawler.id, name: crawler.name }));
    return c.json(page(items, paging));
  });

  app.get('/api/1/crawlers/:id', (c) => {
    authenticate(ctx, c, 401);
    const withConfig = c.req.query('withConfig');
    if (withConfig !== undefined && withConfig !== 'true' && withConfig !== 'false') {
      throw new HttpError(400, `withConfig: must be true or false, got ${JSON.stringify(withConfig)}`);
    }
    const crawler = crawlers().require(c.req.param('id'));
    return c.json(crawlers().view(crawler, withConfig === 'true'));
  });

  app.patch('/api/1/crawlers/:id', async (c) => {
    authenticate(ctx, c, 401);
    crawlers().require(c.req.param('id'));
    const { name, config } = await body(ctx, c, ['name', 'config']);
    return c.json({ taskId: crawlers().update(c.req.param('id'), name, config) });
  });

  app.patch('/api/1/crawlers/:id/config', async (c) => {
    authenticate(ctx, c, 401);
    crawlers().require(c.req.param('id'));
    const partial = asObject(await ctx.readJson(c), 'The body (top-level configuration properties)');
    return c.json({ taskId: crawlers().patchConfig(c.req.param('id'), partial) });
  });

  for (const action of ['run', 'pause', 'reindex'] as const) {
    app.post(`/api/1/crawlers/:id/${action}`, (c) => {
      authenticate(ctx, c, 401);
      return c.json({ taskId: crawlers()[action](c.req.param('id')) });
    });
  }

  app.get('/api/1/crawlers/:id/stats/urls', (c) => {
    authenticate(ctx, c, 401);
    return c.json(crawlers().statistics(c.req.param('id')));
  });

  app.post('/api/1/crawlers/:id/urls/crawl', async (c) => {
    authenticate(ctx, c, 401);
    crawlers().require(c.req.param('id'));
    const { urls, save } = await body(ctx, c, ['urls', 'save']);
    return c.json({ taskId: crawlers().crawlUrls(c.req.param('id'), urls, save) });
  });

  app.post('/api/1/crawlers/:id/test', async (c) => {
    authenticate(ctx, c, 401);
    crawlers().require(c.req.param('id'));
    const { url, config } = await body(ctx, c, ['url', 'config']);
    return c.json(await crawlers().test(c.req.param('id'), url, config));
  });

  app.get('/api/1/crawlers/:id/tasks/:taskId', (c) => {
    authenticate(ctx, c, 401);
    return c.json(crawlers().task(c.req.param('id'), c.req.param('taskId')));
  });

  app.post('/api/1/crawlers/:id/tasks/:taskId/cancel', (c) => {
    authenticate(ctx, c, 401);
    crawlers().cancel(c.req.param('id'), c.req.param('taskId'));
    return c.json({});
  });

  app.get('/api/1/domains', (c) => {
    authenticate(ctx, c, 403);
    const paging = pagination(c);
    const appId = c.req.query('appId');
    if (appId !== undefined && appId !== ctx.appId)
      throw new HttpError(400, `appId: ${JSON.stringify(appId)} is not the application id of this service`);
    return c.json(page(crawlers().domains(), paging));
  });
}
