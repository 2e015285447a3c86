/**
 * Validation of `POST /1/events` bodies, rule by rule from the API document (Insights event table,
 * Events, Limits). All events of a request must be valid for the request to be accepted; only the first
 * error is described, naming the event (`events[i]`) and the field.
 */
import type { InsightsEvent } from '../../../src/client/types.js';

/** Limits of the API document (Limits table, Events). */
export const EVENT_LIMITS = {
  eventsPerRequest: 1000,
  /** Insights body: under 2 MB. */
  bodyBytes: 2 * 1024 * 1024,
  filtersPerEvent: 10,
  eventNameLength: 64,
  userTokenLength: 128,
  /** Only events up to four days old are accepted. */
  maxAgeMs: 4 * 24 * 60 * 60 * 1000,
  /** Clock skew tolerated for timestamps ahead of the service's clock (the document is silent). */
  futureSkewMs: 15 * 60 * 1000,
  /** A click or conversion must fall within one hour of its search event (conversion window). */
  conversionWindowMs: 60 * 60 * 1000,
} as const;

export const EVENT_TYPES = ['click', 'view', 'conversion'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** userToken format `[a-zA-Z0-9_-=/+]{1,128}`. */
const USER_TOKEN = /^[a-zA-Z0-9_\-=/+]{1,128}$/;
/** 1 to 64 ASCII characters, no control characters. */
const EVENT_NAME = /^[\x20-\x7e]{1,64}$/;
/** Form attribute:value (both parts non-empty). */
const FILTER = /^[^:]+:[\s\S]+$/;

/** An event that passed validation: the wire type (`src/client/types.ts`), documented fields only; anything else is not kept. */
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

function fail(i: number, field: string, reason: string): never {
  throw new EventValidationError(`events[${i}].${field}: ${reason}`, i, field);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * Checks one event and returns its documented fields.
 * @throws EventValidationError naming `events[i].field`.
 * @example validateEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'u1', objectIDs: ['1'] }, 0)
 */
export function validateEvent(raw: unknown, i: number, options: ValidateOptions = {}): ValidEvent {
  const now = options.now ?? Date.now();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new EventValidationError(`events[${i}]: must be an object`, i);
  }
  const e = raw as Record<string, unknown>;

  if (e.eventType === undefined) fail(i, 'eventType', 'required');
  if (typeof e.eventType !== 'string' || !(EVENT_TYPES as readonly string[]).includes(e.eventType)) {
    fail(i, 'eventType', 'must be one of click, view, conversion');
  }
  const eventType = e.eventType as EventType;

  if (e.eventName === undefined) fail(i, 'eventName', 'required');
  if (typeof e.eventName !== 'string') fail(i, 'eventName', 'must be a string');
  if (e.eventName.length < 1 || e.eventName.length > EVENT_LIMITS.eventNameLength) {
    fail(i, 'eventName', `must be 1 to ${EVENT_LIMITS.eventNameLength} characters`);
  }
  if (!EVENT_NAME.test(e.eventName)) fail(i, 'eventName', 'must be ASCII without control characters');

  if (e.index === undefined) fail(i, 'index', 'required');
  if (typeof e.index !== 'string' || e.index.length === 0) fail(i, 'index', 'must be a non-empty string');

  if (e.userToken === undefined) fail(i, 'userToken', 'required');
  if (typeof e.userToken !== 'string' || !USER_TOKEN.test(e.userToken)) {
    fail(i, 'userToken', 'must match [a-zA-Z0-9_-=/+]{1,128}');
  }

  const event: ValidEvent = { eventType, eventName: e.eventName, index: e.index, userToken: e.userToken };

  if (e.timestamp !== undefined) {
    if (typeof e.timestamp !== 'number' || !Number.isSafeInteger(e.timestamp) || e.timestamp < 0) {
      fail(i, 'timestamp', 'must be an integer number of milliseconds since the Unix epoch');
    }
    if (options.checkAge !== false) {
      if (e.timestamp < now - EVENT_LIMITS.maxAgeMs) fail(i, 'timestamp', 'must be at most four days old');
      if (e.timestamp > now + EVENT_LIMITS.futureSkewMs) fail(i, 'timestamp', 'must not be in the future');
    }
    event.timestamp = e.timestamp;
  }

  if (e.queryID !== undefined) {
    if (typeof e.queryID !== 'string' || e.queryID.length === 0) fail(i, 'queryID', 'must be a non-empty string');
    event.queryID = e.queryID;
  }

  // An event touches one resource type (objects or filters), possibly several items.
  const hasObjects = e.objectIDs !== undefined;
  const hasFilters = e.filters !== undefined;
  if (hasObjects && hasFilters) fail(i, 'objectIDs', 'cannot be combined with filters');
  if (!hasObjects && !hasFilters) fail(i, 'objectIDs', 'an event needs objectIDs or filters');
  if (hasObjects) {
    if (!isStringArray(e.objectIDs) || e.objectIDs.length === 0 || e.objectIDs.some((id) => id.length === 0)) {
      fail(i, 'objectIDs', 'must be a non-empty array of non-empty strings');
    }
    event.objectIDs = e.objectIDs;
  }
  if (hasFilters) {
    if (!isStringArray(e.filters) || e.filters.length === 0) fail(i, 'filters', 'must be a non-empty array of strings');
    if (e.filters.length > EVENT_LIMITS.filtersPerEvent)
      fail(i, 'filters', `at most ${EVENT_LIMITS.filtersPerEvent} filters per event`);
    const bad = e.filters.findIndex((f) => !FILTER.test(f));
    if (bad >= 0) fail(i, `filters[${bad}]`, 'must have the form attribute:value');
    event.filters = e.filters;
  }

  // Positions: only for click events; one per objectID; required for click events tied to a search.
  if (e.positions !== undefined) {
    if (eventType !== 'click') fail(i, 'positions', 'only for click events');
    if (!hasObjects) fail(i, 'positions', 'only with objectIDs (one per objectID)');
    if (
      !Array.isArray(e.positions) ||
      e.positions.some((p) => typeof p !== 'number' || !Number.isInteger(p) || p < 1)
    ) {
      fail(i, 'positions', 'must be an array of integers ≥ 1');
    }
    if (e.positions.length !== event.objectIDs!.length) fail(i, 'positions', 'must have one position per objectID');
    event.positions = e.positions as number[];
  } else if (eventType === 'click' && event.queryID !== undefined && hasObjects) {
    fail(i, 'positions', 'required for click events with a queryID');
  }
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
  if (events.length > EVENT_LIMITS.eventsPerRequest) {
    throw new EventValidationError(
      `events: at most ${EVENT_LIMITS.eventsPerRequest} events per request (got ${events.length})`,
    );
  }
  return events.map((event, i) => validateEvent(event, i, options));
}
