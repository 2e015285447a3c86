/**
 * Recommend (document 2): `POST /1/indexes/{*}/recommendations` on the read host, key with the search right.
 * Every request of `requests` is checked (credentials, index, parameters) before any is answered; the
 * models are those of `src/service/recommend/` (see `docs/notes/recommend.md`).
 */
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { getRecommender } from '../recommend/recommender.js';
import { answerRequest, MAX_REQUESTS, validateRequest } from '../recommend/request.js';
import { seedDemoFromCatalogue } from '../recommend/demo-hook.js';
import { authorizeOrUnauthorized, requireRight } from './auth.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';

export function register(app: Hono, ctx: ServiceContext): void {
  const recommender = getRecommender(ctx);
  seedDemoFromCatalogue(ctx);

  // Document 2 (Recommend): 401 for missing or wrong credentials; a valid key without the search right, or
  // restricted to other indices, stays 403.
  const authorize = (c: Context) => authorizeOrUnauthorized(ctx, c, 'search', undefined, 401);

  app.post('/1/indexes/:all{\\*}/recommendations', async (c) => {
    // Credentials and the search right before the body is read: a caller without a valid key learns
    // nothing about its parameters; then each request's index.
    const key = authorize(c);
    const body = asObject(await ctx.readJson(c));
    if (body.requests === undefined) throw new HttpError(400, '`requests` is required: a list of Recommend requests');
    if (!Array.isArray(body.requests)) throw new HttpError(400, '`requests` must be an array');
    if (body.requests.length === 0) throw new HttpError(400, '`requests` must hold at least one request');
    if (body.requests.length > MAX_REQUESTS)
      throw new HttpError(400, `\`requests\` holds ${body.requests.length} requests; the limit is ${MAX_REQUESTS}`);
    for (const name of Object.keys(body)) {
      if (name !== 'requests') throw new HttpError(400, `\`${name}\` is not a parameter of the Recommend endpoint`);
    }
    const prepared = body.requests.map((input, i) => {
      // The index before the parameters: a key restricted to other indices learns nothing about them.
      const indexName = (input as { indexName?: unknown } | null)?.indexName;
      if (typeof indexName === 'string') requireRight(key, 'search', indexName);
      const request = validateRequest(input, i);
      ctx.indices.require(request.indexName);
      return { key, request };
    });
    const results = prepared.map(({ key, request }) => answerRequest(ctx, recommender, key, request));
    return c.json({ results });
  });
}
