/**
 * Recommend (document 2): `POST /1/indexes/{*}/recommendations` on the read host, key with the search right.
 * Every request of `requests` is checked (credentials, index, parameters) before any is answered; the
 * models are those of `recommend/` (see `docs/notes/recommend.md`).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Services } from '../services.js';
import { answerRequest, MAX_REQUESTS, validateRequest } from '../recommend/request.js';
import { requireRight } from '../keys/authorizer.js';
import { authorizeOrUnauthorized } from './request.js';
import { jsonBody, jsonObject } from './validate.js';
import { requiredOr } from '../validation.js';

/** The Recommend body: `requests`, one to MAX_REQUESTS of them (each checked by `recommend/request.ts`). */
const RECOMMEND_BODY = jsonObject('The body must be a JSON object').pipe(
  z.strictObject({
    requests: z
      .array(z.unknown(), {
        error: requiredOr('`requests` is required: a list of Recommend requests', '`requests` must be an array'),
      })
      .min(1, { error: '`requests` must hold at least one request' })
      .max(MAX_REQUESTS, {
        error: (issue) =>
          `\`requests\` holds ${(issue.input as unknown[]).length} requests; the limit is ${MAX_REQUESTS}`,
      }),
  }),
);

export function recommendRoutes(services: Services): Hono {
  const app = new Hono();

  // Document 2 (Recommend): 401 for missing or wrong credentials; a valid key without the search right, or
  // restricted to other indices, stays 403.
  const authorize = (c: Context) => authorizeOrUnauthorized(services, c, 'search', undefined, 401);

  app.post('/1/indexes/:all{\\*}/recommendations', async (c) => {
    // Credentials and the search right before the body is read: a caller without a valid key learns
    // nothing about its parameters; then each request's index.
    const key = authorize(c);
    const body = await jsonBody(c, RECOMMEND_BODY, {
      unexpected: (name) => `\`${name}\` is not a parameter of the Recommend endpoint`,
    });
    const prepared = body.requests.map((input, i) => {
      // The index before the parameters: a key restricted to other indices learns nothing about them.
      const indexName = (input as { indexName?: unknown } | null)?.indexName;
      if (typeof indexName === 'string') requireRight(key, 'search', indexName);
      const request = validateRequest(input, i);
      services.catalog.require(request.indexName);
      return { key, request };
    });
    const results = [];
    for (const { key, request } of prepared) results.push(await answerRequest(services, key, request));
    return c.json({ results });
  });
  return app;
}
