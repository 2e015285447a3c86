/**
 * Insights routes: `POST /1/events` (document 2, Insights) and the service's own admin listing
 * `GET /1/_local/events` (not part of the hosted API; for tests and the catalogue).
 */
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { getEventStore } from '../insights/event-store.js';
import {
  EVENT_LIMITS,
  EVENT_TYPES,
  EventValidationError,
  USER_TOKEN,
  validateEventsBody,
  type EventType,
} from '../insights/validate.js';
import { authorizeOrUnauthorized, requireRight, unauthorized as unauthorizedAs } from './auth.js';
import { HttpError } from './errors.js';

/** Insights failure bodies carry `status` besides `message` (Errors, rule 1). */
function failure(c: Context, status: number, message: string): Response {
  return c.json({ status, message }, status as 400);
}

function asFailure(c: Context, error: unknown): Response {
  if (error instanceof EventValidationError) return failure(c, 422, error.message);
  if (error instanceof HttpError) return failure(c, error.status, error.message);
  throw error;
}

/**
 * Insights accepts a key with the search right, by header or by URL parameters (`credentialsOf`); the
 * document answers 401 when credentials are missing or incorrect (or cannot send events), where the search
 * API says 403.
 */
function unauthorized<T>(check: () => T, indexName?: string): T {
  try {
    return check();
  } catch (error) {
    const refused = unauthorizedAs(error, 401);
    if (refused instanceof HttpError && (refused.status === 401 || refused.status === 403)) {
      throw new HttpError(401, indexName === undefined ? refused.message : `${refused.message} (index ${indexName})`);
    }
    throw refused;
  }
}

function optionalInt(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new HttpError(400, `${name}: must be a non-negative integer`);
  return value;
}

export function register(app: Hono, ctx: ServiceContext): void {
  const events = getEventStore(ctx);

  app.post('/1/events', async (c) => {
    try {
      // Credentials before the body is read.
      const key = unauthorized(() => ctx.authorize(c, 'search'));
      // Insights body: under 2 MB (413 above).
      const body = await ctx.readJson(c, EVENT_LIMITS.bodyBytes - 1);
      const valid = validateEventsBody(body, { now: Date.now() });
      // A restricted key may only send events of the indices it can search.
      for (const index of new Set(valid.map((e) => e.index)))
        unauthorized(() => requireRight(key, 'search', index), index);
      // A request of InstantSearch's usage event only (validateEventsBody leaves it out) stores nothing.
      if (valid.length > 0) events.append(valid, { validate: false });
      return c.json({ status: 200, message: 'OK' }, 200);
    } catch (error) {
      return asFailure(c, error);
    }
  });

  // The privacy request (the hosted Insights API's "delete user token"; right deleteObject, its clients'
  // deleteUserToken): every stored event of the token goes, and what was built on them forgets them
  // (EventStore.deleteUserToken). 204 without a body, as the hosted API answers.
  app.delete('/1/usertokens/:userToken', (c) => {
    try {
      // Missing or wrong credentials 401 (Insights); a valid key without deleteObject 403.
      authorizeOrUnauthorized(ctx, c, 'deleteObject', undefined, 401);
      const userToken = c.req.param('userToken');
      if (!USER_TOKEN.test(userToken)) {
        throw new HttpError(400, 'userToken: must match [a-zA-Z0-9_-=/+]{1,128}');
      }
      events.deleteUserToken(userToken);
      return c.body(null, 204);
    } catch (error) {
      return asFailure(c, error);
    }
  });

  app.get('/1/_local/events', (c) => {
    try {
      ctx.authorize(c, 'admin');
      const eventType = c.req.query('eventType');
      if (eventType !== undefined && eventType !== '' && !(EVENT_TYPES as readonly string[]).includes(eventType)) {
        throw new HttpError(400, `eventType: must be one of ${EVENT_TYPES.join(', ')}`);
      }
      const filter = {
        index: c.req.query('index') || undefined,
        eventType: (eventType || undefined) as EventType | undefined,
        eventName: c.req.query('eventName') || undefined,
        userToken: c.req.query('userToken') || undefined,
        queryID: c.req.query('queryID') || undefined,
        since: optionalInt(c, 'since'),
        until: optionalInt(c, 'until'),
      };
      const limit = Math.min(optionalInt(c, 'limit') ?? 1000, 100_000);
      return c.json({ events: events.query({ ...filter, limit }), nbEvents: events.count(filter) }, 200);
    } catch (error) {
      if (error instanceof HttpError) return c.json({ message: error.message }, error.status as 400);
      throw error;
    }
  });
}
