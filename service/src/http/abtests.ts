/**
 * The A/B test API (document 2, "Endpoints > A/B test"; paths start `/2/abtests`):
 *
 * - `POST /2/abtests` — create (right `setSettings` or `editSettings` on both indices) → `{abTestID, taskID, index}`
 * - `GET /2/abtests` — list (`offset`, `limit` default 10) → `{abtests, count, total}`, right `analytics`
 * - `GET /2/abtests/{id}` — the A/B test object with its metrics, right `analytics`
 * - `POST /2/abtests/{id}/stop` — stop (`setSettings` or `editSettings`) → `{abTestID, taskID, index}`
 * - `DELETE /2/abtests/{id}` — delete with its metrics (`setSettings` or `editSettings`) → `{abTestID, taskID, index}`
 *
 * Credentials by headers or URL parameters of the same names (any case, as on every API). Missing
 * credentials 401, wrong ones or a missing right 403. Failures are `{status, message}` (document 2, Errors 1).
 * The document names the write right both `setSettings` and `editSettings`: a key holding either may create,
 * stop and delete tests. The logic is in `service/src/abtests/`.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { validateCreate } from '../abtests/validate.js';
import type { KeyInfo, Requirement } from '../keys/types.js';
import type { Services } from '../services.js';
import type { StoredAbTest } from '../storage/types.js';
import { indexAllowed } from '../keys/authorizer.js';
import { authorizeOrUnauthorized } from './request.js';
import { queryOf } from './validate.js';
import { readJson } from './body.js';
import { ServiceError } from '../errors.js';

/** Largest create body (two variants with their search parameters fit in far less). */
const MAX_BODY_BYTES = 1024 * 1024;
/** Largest `limit` of the list. */
const MAX_LIMIT = 1000;

/** A query-string integer from `min` to `max` (400 naming it with what was sent), `fallback` when absent or empty. */
function integerParameter(name: string, fallback: number, min: number, max: number) {
  const error = (issue: { input?: unknown }) =>
    `${name}: must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}, got ${JSON.stringify(issue.input)}`;
  return z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text === '') return fallback;
      const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
      if (value >= min && value <= max) return value;
      context.addIssue({ code: 'custom', message: error({ input: text }) });
      return z.NEVER;
    });
}

const LIST_QUERY = z.object({
  offset: integerParameter('offset', 0, 0, Number.MAX_SAFE_INTEGER),
  limit: integerParameter('limit', 10, 1, MAX_LIMIT),
});

type Handler = (c: Context) => unknown;

export function abTestRoutes(services: Services): Hono {
  const app = new Hono();
  const { abTests } = services;

  /** The handler's answer as JSON; refusals are `{status, message}` (http/failure.ts). */
  const route = (handler: Handler) => async (c: Context) => c.json(await handler(c));

  // Document 2: "401 application ID or key missing", "403 invalid credentials".
  const authorize = (c: Context, right: Requirement): KeyInfo =>
    authorizeOrUnauthorized(services, c, right, undefined, 403);
  /**
   * Create, stop and delete: the endpoints name the right `setSettings`, the overview `editSettings` (document
   * 2, "both names appear"): a key holding either may.
   */
  const authorizeWrite = (c: Context): KeyInfo => {
    const key = authorize(c, 'any');
    if (!key.isAdmin && !key.acl.includes('setSettings') && !key.acl.includes('editSettings')) {
      throw new ServiceError(
        403,
        'Method not allowed with this API key (the right setSettings or editSettings is needed)',
      );
    }
    return key;
  };

  /** 403 unless the key may use every index named. */
  const requireIndices = (key: KeyInfo, names: string[]) => {
    for (const name of names) {
      if (!indexAllowed(key, name)) throw new ServiceError(403, `Index ${name} is not allowed with this API key`);
    }
  };

  /** The test of the path's id: 422 for an id that is not an integer, 404 when there is none. */
  const testOf = (c: Context): StoredAbTest => {
    const text = c.req.param('id') ?? '';
    const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(id))
      throw new ServiceError(422, `abTestID: must be an integer, got ${JSON.stringify(text)}`);
    const test = abTests.get(id);
    if (!test) throw new ServiceError(404, `A/B test ${id} does not exist`);
    return test;
  };

  const answer = (test: StoredAbTest, taskID: number) => ({
    abTestID: test.abTestID,
    taskID,
    index: test.variants[0].index,
  });

  app.post(
    '/2/abtests',
    route(async (c) => {
      const key = authorizeWrite(c);
      const input = validateCreate(await readJson(c, MAX_BODY_BYTES), services.now());
      const names = [...new Set(input.variants.map((variant) => variant.index))];
      requireIndices(key, names);
      for (const name of names) {
        if (!services.catalog.get(name)) throw new ServiceError(404, `Index ${name} does not exist`);
      }
      for (const name of names) {
        const running = abTests.activeUsing(name);
        if (running)
          throw new ServiceError(
            422,
            `An A/B test is already running on index ${name} (abTestID ${running.abTestID}); stop it first`,
          );
      }
      const { test, taskID } = await abTests.create(input);
      return answer(test, taskID);
    }),
  );

  app.get(
    '/2/abtests',
    route(async (c) => {
      const key = authorize(c, 'analytics');
      const { offset, limit } = queryOf(c, LIST_QUERY);
      const visible = abTests.list().filter((test) => indexAllowed(key, test.variants[0].index));
      const page = await Promise.all(visible.slice(offset, offset + limit).map((test) => abTests.describe(test)));
      return { abtests: page, count: page.length, total: visible.length };
    }),
  );

  app.get(
    '/2/abtests/:id',
    route((c) => {
      const key = authorize(c, 'analytics');
      const test = testOf(c);
      requireIndices(key, [test.variants[0].index]);
      return abTests.describe(test);
    }),
  );

  app.post(
    '/2/abtests/:id/stop',
    route(async (c) => {
      const key = authorizeWrite(c);
      const test = testOf(c);
      requireIndices(
        key,
        test.variants.map((variant) => variant.index),
      );
      return answer(test, await abTests.stop(test));
    }),
  );

  app.delete(
    '/2/abtests/:id',
    route(async (c) => {
      const key = authorizeWrite(c);
      const test = testOf(c);
      requireIndices(
        key,
        test.variants.map((variant) => variant.index),
      );
      return answer(test, await abTests.remove(test));
    }),
  );
  return app;
}
