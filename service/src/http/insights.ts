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
  validateEventsBody,
  type EventType,
} from '../insights/validate.js';
import { requireRight } from './auth.js';
import { HttpError, INVALID_CREDENTIALS } from './errors.js';

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
 * Insights accepts a key with the search right, by header or by the URL parameters `X-Service-Application-Id`
 * and `X-Service-API-Key` (exactly those names, document 2); the document answers 401 when credentials are
 * missing or incorrect (or cannot send events), where the search API says 403.
 */
function unauthorized<T>(check: () => T, indexName?: string): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
      throw new HttpError(
        401,
        indexName === undefined ? error.message || INVALID_CREDENTIALS : `${error.message} (index ${indexName})`,
      );
    }
    throw error;
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
      const key = unauthorized(() => ctx.authorize(c, 'search', undefined, { allowQueryCredentials: true }));
      // Insights body: under 2 MB (413 above).
      const body = await ctx.readJson(c, EVENT_LIMITS.bodyBytes - 1);
      const valid = validateEventsBody(body, { now: Date.now() });
      // A restricted key may only send events of the indices it can search.
      for (const index of new Set(valid.map((e) => e.index)))
        unauthorized(() => requireRight(key, 'search', index), index);
      events.append(valid, { validate: false });
      return c.json({ status: 200, message: 'OK' }, 200);
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
