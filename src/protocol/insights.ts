/**
 * The Insights event rules of the API document (Insights event table, Events, Limits), defined once: the
 * browser checks an event with them before queueing it (an event the service would refuse is never sent),
 * and the service checks every event of a `POST /1/events` body with them (422 naming the first broken rule).
 */
import type { InsightsEvent } from './types.js';
import { INSIGHTS_LIMITS } from './insights-limits.js';
import { USER_TOKEN_PATTERN, isValidUserToken } from './user-token.js';

// The limits and the userToken rule are modules of their own: the browser needs them before the rest of
// Insights is loaded (the token of the first search, the conversion window of an early click).
export { INSIGHTS_LIMITS, USER_TOKEN_PATTERN, isValidUserToken };

export const INSIGHTS_EVENT_TYPES = ['click', 'view', 'conversion'] as const;
export type InsightsEventType = (typeof INSIGHTS_EVENT_TYPES)[number];

/** eventName: 1 to 64 ASCII characters, no control characters. */
export const EVENT_NAME_PATTERN = /^[ -~]{1,64}$/;
/** An event filter has the form `attribute:value`, both parts non-empty. */
export const EVENT_FILTER_PATTERN = /^[^:]+:[\s\S]+$/;

/** The first rule an event breaks: the field (`filters[2]`, or `''` for the event itself) and why. */
export interface InsightsEventProblem {
  field: string;
  reason: string;
}

export interface ValidateInsightsEventOptions {
  /** Reference time for the timestamp rules (default now). */
  now?: number;
  /** Apply the four-day age and future-skew rules (default true; the service's demo history turns them off). */
  checkAge?: boolean;
}

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const stringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
/** The reason, or `required` when the field is missing. */
const orRequired = (value: unknown, reason: string) => (value === undefined ? 'required' : reason);

/**
 * The first rule `event` breaks, in the order the service checks them, or `null` when the service accepts it.
 *
 * @example
 * validateInsightsEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'u1', objectIDs: ['1'] }) // null
 * validateInsightsEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'a b', objectIDs: ['1'] })
 * // { field: 'userToken', reason: 'must match [a-zA-Z0-9_-=/+]{1,128}' }
 */
export function validateInsightsEvent(
  event: unknown,
  options: ValidateInsightsEventOptions = {},
): InsightsEventProblem | null {
  const problem = (field: string, reason: string): InsightsEventProblem => ({ field, reason });
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return problem('', 'must be an object');
  const { eventType, eventName, index, userToken, timestamp, queryID, objectIDs, filters, positions } =
    event as Partial<Record<keyof InsightsEvent, unknown>>;

  if (!(INSIGHTS_EVENT_TYPES as readonly unknown[]).includes(eventType))
    return problem('eventType', orRequired(eventType, `must be one of ${INSIGHTS_EVENT_TYPES.join(', ')}`));
  if (typeof eventName !== 'string' || !EVENT_NAME_PATTERN.test(eventName))
    return problem('eventName', orRequired(eventName, 'must be 1 to 64 printable ASCII characters'));
  if (!nonEmptyString(index)) return problem('index', orRequired(index, 'must be a non-empty string'));
  if (!isValidUserToken(userToken))
    return problem('userToken', orRequired(userToken, 'must match [a-zA-Z0-9_-=/+]{1,128}'));

  if (timestamp !== undefined) {
    if (!Number.isSafeInteger(timestamp) || (timestamp as number) < 0)
      return problem('timestamp', 'must be an integer of milliseconds since 1970');
    const now = options.now ?? Date.now();
    if (options.checkAge !== false && (timestamp as number) < now - INSIGHTS_LIMITS.maxAgeMs)
      return problem('timestamp', 'must be at most four days old');
    if (options.checkAge !== false && (timestamp as number) > now + INSIGHTS_LIMITS.futureSkewMs)
      return problem('timestamp', 'must not be in the future');
  }
  if (queryID !== undefined && !nonEmptyString(queryID)) return problem('queryID', 'must be a non-empty string');

  // An event touches one resource type (objects or filters), possibly several items.
  const hasObjects = objectIDs !== undefined;
  if (hasObjects && filters !== undefined) return problem('objectIDs', 'cannot be combined with filters');
  if (!hasObjects && filters === undefined) return problem('objectIDs', 'an event needs objectIDs or filters');
  if (hasObjects && !(stringList(objectIDs) && objectIDs.length > 0 && objectIDs.every(nonEmptyString)))
    return problem('objectIDs', 'must be a non-empty array of non-empty strings');
  if (filters !== undefined) {
    if (!stringList(filters) || filters.length === 0) return problem('filters', 'must be a non-empty array of strings');
    if (filters.length > INSIGHTS_LIMITS.filtersPerEvent)
      return problem('filters', `at most ${INSIGHTS_LIMITS.filtersPerEvent} filters per event`);
    const bad = filters.findIndex((filter) => !EVENT_FILTER_PATTERN.test(filter));
    if (bad >= 0) return problem(`filters[${bad}]`, 'must have the form attribute:value');
  }

  // Positions: only for click events; one per objectID; required for click events tied to a search.
  if (positions !== undefined) {
    if (eventType !== 'click') return problem('positions', 'only for click events');
    if (!hasObjects) return problem('positions', 'only with objectIDs (one per objectID)');
    if (!Array.isArray(positions) || !positions.every((p) => Number.isInteger(p) && p >= 1))
      return problem('positions', 'must be an array of integers ≥ 1');
    if (positions.length !== (objectIDs as string[]).length)
      return problem('positions', 'must have one position per objectID');
  } else if (eventType === 'click' && queryID !== undefined && hasObjects) {
    return problem('positions', 'required for click events with a queryID');
  }
  return null;
}
