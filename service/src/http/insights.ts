/**
 * Insights routes: `POST /1/events` (document 2, Insights) and the service's own admin listing
 * `GET /1/_local/events` (not part of the hosted API; for tests and the catalogue).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Services } from '../services.js';
import { EVENT_LIMITS, EVENT_TYPES, USER_TOKEN, validateEventsBody, type EventType } from '../insights/validate.js';
import { asUnauthorized } from '../errors.js';
import { requireRight } from '../keys/authorizer.js';
import { readJson } from './body.js';
import { authorize, authorizeOrUnauthorized } from './request.js';
import { queryOf } from './validate.js';
import { ServiceError } from '../errors.js';

/**
 * Insights accepts a key with the search right, by header or by URL parameters (`credentialsOf`); the
 * document answers 401 when credentials are missing or incorrect (or cannot send events), where the search
 * API says 403.
 */
function unauthorized<T>(check: () => T, indexName?: string): T {
  try {
    return check();
  } catch (error) {
    const refused = asUnauthorized(error, 401);
    if (refused instanceof ServiceError && (refused.status === 401 || refused.status === 403)) {
      throw new ServiceError(
        401,
        indexName === undefined ? refused.message : `${refused.message} (index ${indexName})`,
      );
    }
    throw refused;
  }
}

/** An optional non-negative integer of the query string (empty = absent). */
function optionalInt(name: string) {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text === '') return undefined;
      const value = Number(text);
      if (Number.isSafeInteger(value) && value >= 0) return value;
      context.addIssue({ code: 'custom', message: `${name}: must be a non-negative integer` });
      return z.NEVER;
    });
}

const text = z
  .string()
  .optional()
  .transform((value) => value || undefined);

/** `GET /1/_local/events`: the filters of the listing (empty parameters are absent). */
const LOCAL_EVENTS_QUERY = z.object({
  eventType: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || (EVENT_TYPES as readonly string[]).includes(value), {
      error: `eventType: must be one of ${EVENT_TYPES.join(', ')}`,
    })
    .transform((value) => (value || undefined) as EventType | undefined),
  index: text,
  eventName: text,
  userToken: text,
  queryID: text,
  since: optionalInt('since'),
  until: optionalInt('until'),
  limit: optionalInt('limit'),
});

export function insightsRoutes(services: Services): Hono {
  const app = new Hono();
  const events = services.insights;

  // Failures are `{status, message}` (document 2, Errors rule 1): http/failure.ts.
  app.post('/1/events', async (c) => {
    // Credentials before the body is read.
    const key = unauthorized(() => authorize(services, c, 'search'));
    // Insights body: under 2 MB (413 above).
    const body = await readJson(c, EVENT_LIMITS.bodyBytes - 1);
    const valid = validateEventsBody(body, { now: Date.now() });
    // A restricted key may only send events of the indices it can search.
    for (const index of new Set(valid.map((e) => e.index)))
      unauthorized(() => requireRight(key, 'search', index), index);
    // A request of InstantSearch's usage event only (validateEventsBody leaves it out) stores nothing.
    if (valid.length > 0) await events.append(valid, { validate: false });
    return c.json({ status: 200, message: 'OK' }, 200);
  });

  // The privacy request (the hosted Insights API's "delete user token"; right deleteObject, its clients'
  // deleteUserToken): every stored event of the token goes, and what was built on them forgets them
  // (EventStore.deleteUserToken). 204 without a body, as the hosted API answers.
  app.delete('/1/usertokens/:userToken', async (c) => {
    // Missing or wrong credentials 401 (Insights); a valid key without deleteObject 403.
    authorizeOrUnauthorized(services, c, 'deleteObject', undefined, 401);
    const userToken = c.req.param('userToken');
    if (!USER_TOKEN.test(userToken)) {
      throw new ServiceError(400, 'userToken: must match [a-zA-Z0-9_-=/+]{1,128}');
    }
    await events.deleteUserToken(userToken);
    return c.body(null, 204);
  });

  app.get('/1/_local/events', async (c) => {
    authorize(services, c, 'admin');
    const { limit: asked, ...filter } = queryOf(c, LOCAL_EVENTS_QUERY);
    const limit = Math.min(asked ?? 1000, 100_000);
    return c.json({ events: await events.query({ ...filter, limit }), nbEvents: await events.count(filter) }, 200);
  });
  return app;
}
