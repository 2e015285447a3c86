/**
 * Validation of `POST /1/events` bodies. The rules of the API document (Insights event table, Events,
 * Limits) are those of `svc-search/protocol`, the one definition the browser applies too; this module turns
 * the first broken rule into a 422 naming the event (`events[i]`) and the field, and keeps only the
 * documented fields of a valid event.
 */
import { ServiceError } from '../errors.js';
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

/** userToken format of the event table (for path parameters such as `DELETE /1/usertokens/{userToken}`). */
export { USER_TOKEN_PATTERN as USER_TOKEN } from 'svc-search/protocol';

/**
 * InstantSearch's own usage event (`eventType: "instantsearch"`, `eventName: "__start__"`), sent through
 * search-insights once per page load: telemetry about the page's widgets for the hosted vendor, not an
 * event about records (no index, no objectIDs, nothing a figure of this service could count). It is
 * acknowledged and dropped, so an InstantSearch page shows no error for it; see docs/notes/insights.md.
 */
export const USAGE_EVENT_TYPE = 'instantsearch';

/**
 * Whether an event of a request is InstantSearch's usage event (accepted, never stored).
 *
 * @example
 * isUsageEvent({ eventType: 'instantsearch', eventName: '__start__' }) // true
 */
export function isUsageEvent(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { eventType?: unknown }).eventType === USAGE_EVENT_TYPE;
}

/**
 * A filter as search-insights sends it, URL-encoded (`brand%3AGlobal`, `filters.map(encodeURIComponent)`),
 * decoded; one that is not valid percent-encoding (`discount:50%`) is taken as it is.
 *
 * @example
 * decodedFilter('brand%3AGlobal') // 'brand:Global'
 */
export function decodedFilter(filter: string): string {
  if (!filter.includes('%')) return filter;
  try {
    return decodeURIComponent(filter);
  } catch {
    return filter;
  }
}

/** The event with its filters decoded (search-insights URL-encodes them), before the rules are checked. */
function withDecodedFilters(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const filters = (raw as { filters?: unknown }).filters;
  if (!Array.isArray(filters) || !filters.every((f) => typeof f === 'string')) return raw;
  return { ...raw, filters: filters.map(decodedFilter) };
}

/** An event that breaks a rule of the event table: 422 naming `events[i].field` (document 2, Insights). */
export class EventValidationError extends ServiceError {
  constructor(
    message: string,
    readonly eventIndex?: number,
    readonly field?: string,
  ) {
    super(422, message);
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
export function validateEvent(input: unknown, i: number, options: ValidateOptions = {}): ValidEvent {
  // Decoded before the check, and stored decoded: search-insights URL-encodes every filter.
  const raw = withDecodedFilters(input);
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
 * Checks a whole `{events: [...]}` body and returns its events, without InstantSearch's usage events
 * (acknowledged, not stored: {@link USAGE_EVENT_TYPE}); positions in messages are those of the request.
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
  const valid: ValidEvent[] = [];
  events.forEach((event, i) => {
    if (!isUsageEvent(event)) valid.push(validateEvent(event, i, options));
  });
  return valid;
}
