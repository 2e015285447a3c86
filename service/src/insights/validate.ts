/**
 * Validation of `POST /1/events` bodies. The rules of the API document (Insights event table, Events,
 * Limits) are those of `svc-search/protocol`, the one definition the browser applies too; this module turns
 * the first broken rule into a 422 naming the event (`events[i]`) and the field, and keeps only the
 * documented fields of a valid event.
 */
import {
  INSIGHTS_LIMITS,
  type InsightsEvent,
  type InsightsEventType,
  validateInsightsEvent,
} from 'svc-search/protocol';

/** Limits of the API document (Limits table, Events), as the protocol defines them. */
export { INSIGHTS_LIMITS as EVENT_LIMITS, INSIGHTS_EVENT_TYPES as EVENT_TYPES } from 'svc-search/protocol';
export type EventType = InsightsEventType;

/** An event that passed validation: the wire type, documented fields only; anything else is not kept. */
export type ValidEvent = InsightsEvent;

export class EventValidationError extends Error {
  readonly status = 422;
  constructor(
    message: string,
    readonly eventIndex?: number,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'EventValidationError';
  }
}

export interface ValidateOptions {
  /** Reference time for the timestamp rules (default now). */
  now?: number;
  /** Apply the four-day age and future-skew rules (the HTTP endpoint does; seeding demo history does not). */
  checkAge?: boolean;
}

/**
 * Checks one event and returns its documented fields.
 * @throws EventValidationError naming `events[i].field`.
 * @example validateEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'u1', objectIDs: ['1'] }, 0)
 */
export function validateEvent(raw: unknown, i: number, options: ValidateOptions = {}): ValidEvent {
  const problem = validateInsightsEvent(raw, options);
  if (problem) {
    const where = problem.field ? `events[${i}].${problem.field}` : `events[${i}]`;
    throw new EventValidationError(`${where}: ${problem.reason}`, i, problem.field || undefined);
  }
  const e = raw as InsightsEvent;
  const event: ValidEvent = { eventType: e.eventType, eventName: e.eventName, index: e.index, userToken: e.userToken };
  if (e.timestamp !== undefined) event.timestamp = e.timestamp;
  if (e.queryID !== undefined) event.queryID = e.queryID;
  if (e.objectIDs !== undefined) event.objectIDs = e.objectIDs;
  if (e.filters !== undefined) event.filters = e.filters;
  if (e.positions !== undefined) event.positions = e.positions;
  return event;
}

/**
 * Checks a whole `{events: [...]}` body.
 * @throws EventValidationError for the first invalid event, or a missing/oversized `events` array.
 */
export function validateEventsBody(body: unknown, options: ValidateOptions = {}): ValidEvent[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new EventValidationError('body: must be an object {events: [...]}');
  const events = (body as { events?: unknown }).events;
  if (events === undefined) throw new EventValidationError('events: required');
  if (!Array.isArray(events)) throw new EventValidationError('events: must be an array');
  if (events.length === 0) throw new EventValidationError('events: must contain at least one event');
  if (events.length > INSIGHTS_LIMITS.eventsPerRequest) {
    throw new EventValidationError(
      `events: at most ${INSIGHTS_LIMITS.eventsPerRequest} events per request (got ${events.length})`,
    );
  }
  return events.map((event, i) => validateEvent(event, i, options));
}
