/**
 * The Insights event rules of the API document (Insights event table, Limits), as the browser applies them
 * before anything is queued: an event the service would refuse is never sent.
 */
import type { InsightsEvent } from '../client/types.js';

/** Insights events per request, and body bytes (under 2 MB). */
export const EVENTS_PER_REQUEST = 1000;
export const BODY_BYTES = 2 * 1024 * 1024;
/** objectIDs per `Hits Viewed` or conversion event (the browser's own batching rule, as InstantSearch does). */
export const OBJECT_IDS_PER_EVENT = 20;
/** A click or conversion must fall within one hour of its search event (conversion window). */
export const CONVERSION_WINDOW_MS = 3_600_000;
const MAX_AGE_MS = 4 * 86_400_000;

/** Limits of the API document (Limits table) and of the browser module. */
export const INSIGHTS_LIMITS = {
  eventsPerRequest: EVENTS_PER_REQUEST,
  bodyBytes: BODY_BYTES,
  filtersPerEvent: 10,
  objectIDsPerEvent: OBJECT_IDS_PER_EVENT,
  /** Only events up to four days old are accepted (Events). */
  maxAgeMs: MAX_AGE_MS,
  conversionWindowMs: CONVERSION_WINDOW_MS,
} as const;

/** userToken format of the event table: `[a-zA-Z0-9_-=/+]{1,128}`. */
export const USER_TOKEN_PATTERN = /^[\w\-=/+]{1,128}$/;

const matches = (pattern: RegExp, value: unknown) => typeof value === 'string' && pattern.test(value);
const nonEmptyList = (value: unknown, each: (item: any) => boolean) =>
  Array.isArray(value) && value.length > 0 && value.every(each);

/**
 * Whether `token` is a valid userToken.
 * @example isValidUserToken('anonymous-1b2c') // true
 */
export const isValidUserToken = (token: unknown): token is string => matches(USER_TOKEN_PATTERN, token);

/**
 * The first rule `event` breaks, as `field: reason`, or `null` when the service would accept it.
 * @example validateEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'u1', objectIDs: ['1'] }) // null
 */
export function validateEvent(event: InsightsEvent, now = Date.now()): string | null {
  const { eventType, timestamp, queryID, objectIDs, filters, positions } = event;
  const hasObjects = objectIDs !== undefined;
  // In the order the service checks them: the first broken rule is reported.
  const rules: Array<[broken: unknown, problem: string]> = [
    [!matches(/^(click|view|conversion)$/, eventType), 'eventType: click, view or conversion'],
    [!matches(/^[ -~]{1,64}$/, event.eventName), 'eventName: 1 to 64 printable ASCII characters'],
    [!matches(/[^]/, event.index), 'index: required'],
    [!isValidUserToken(event.userToken), 'userToken: [a-zA-Z0-9_-=/+]{1,128}'],
    [
      timestamp !== undefined && !(Number.isInteger(timestamp) && timestamp >= now - MAX_AGE_MS),
      'timestamp: integer ms, at most four days old',
    ],
    [queryID !== undefined && !matches(/[^]/, queryID), 'queryID: non-empty string'],
    [hasObjects === (filters !== undefined), 'objectIDs: objectIDs or filters, not both'],
    [hasObjects && !nonEmptyList(objectIDs, (id) => matches(/[^]/, id)), 'objectIDs: non-empty strings'],
    [
      filters && !(nonEmptyList(filters, (f) => matches(/^[^:]+:[^]/, f)) && filters.length <= 10),
      'filters: 1 to 10 attribute:value',
    ],
    [
      positions !== undefined
        ? !(
            eventType === 'click' &&
            hasObjects &&
            nonEmptyList(positions, (p) => Number.isInteger(p) && p > 0) &&
            positions.length === objectIDs!.length
          )
        : eventType === 'click' && queryID !== undefined && hasObjects,
      'positions: one integer ≥ 1 per objectID, clicks only (required with queryID)',
    ],
  ];
  return rules.find((rule) => rule[0])?.[1] ?? null;
}
