/**
 * The Insights event rules of the API document (Insights event table, Limits), as the browser applies them
 * before anything is queued: an event the service would refuse is never sent.
 */
import type { InsightsEvent } from '../client/types.js';

/** Limits of the API document (Limits table) and of the browser module. */
export const INSIGHTS_LIMITS = {
  /** Insights events per request. */
  eventsPerRequest: 1000,
  /** Insights body: under 2 MB. */
  bodyBytes: 2 * 1024 * 1024,
  /** Insights filters per event. */
  filtersPerEvent: 10,
  /** objectIDs per `Hits Viewed` or conversion event (the browser's own batching rule, as InstantSearch does). */
  objectIDsPerEvent: 20,
  /** Only events up to four days old are accepted (Events). */
  maxAgeMs: 4 * 24 * 60 * 60 * 1000,
  /** A click or conversion must fall within one hour of its search event (conversion window). */
  conversionWindowMs: 60 * 60 * 1000,
} as const;

/** userToken format of the event table: `[a-zA-Z0-9_-=/+]{1,128}`. */
export const USER_TOKEN_PATTERN = /^[a-zA-Z0-9_\-=/+]{1,128}$/;
/** eventName: 1 to 64 ASCII characters, no control characters. */
export const EVENT_NAME_PATTERN = /^[\x20-\x7e]{1,64}$/;
/** A filter has the form `attribute:value`. */
export const FILTER_PATTERN = /^[^:]+:[\s\S]+$/;

/**
 * Whether `token` is a valid userToken.
 * @example isValidUserToken('anonymous-1b2c') // true
 */
export function isValidUserToken(token: unknown): token is string {
  return typeof token === 'string' && USER_TOKEN_PATTERN.test(token);
}

/**
 * The first rule `event` breaks, as `field: reason`, or `null` when the service would accept it.
 * @example validateEvent({ eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken: 'u1', objectIDs: ['1'] }) // null
 */
export function validateEvent(event: InsightsEvent, now = Date.now()): string | null {
  if (event.eventType !== 'click' && event.eventType !== 'view' && event.eventType !== 'conversion') {
    return `eventType: must be one of click, view, conversion`;
  }
  if (typeof event.eventName !== 'string' || !EVENT_NAME_PATTERN.test(event.eventName)) {
    return 'eventName: must be 1 to 64 ASCII characters without control characters';
  }
  if (typeof event.index !== 'string' || event.index.length === 0) return 'index: required';
  if (!isValidUserToken(event.userToken)) return 'userToken: must match [a-zA-Z0-9_-=/+]{1,128}';
  if (event.timestamp !== undefined) {
    if (!Number.isInteger(event.timestamp)) return 'timestamp: must be an integer (ms since the epoch)';
    if (event.timestamp < now - INSIGHTS_LIMITS.maxAgeMs) return 'timestamp: more than four days old';
  }
  if (event.queryID !== undefined && (typeof event.queryID !== 'string' || event.queryID.length === 0)) {
    return 'queryID: must be a non-empty string';
  }
  const hasObjects = event.objectIDs !== undefined;
  const hasFilters = event.filters !== undefined;
  if (hasObjects && hasFilters) return 'objectIDs: cannot be combined with filters';
  if (!hasObjects && !hasFilters) return 'objectIDs: an event needs objectIDs or filters';
  if (hasObjects) {
    if (!Array.isArray(event.objectIDs) || event.objectIDs.length === 0) return 'objectIDs: must be a non-empty array';
    if (event.objectIDs.some((id) => typeof id !== 'string' || id.length === 0)) return 'objectIDs: must be non-empty strings';
  }
  if (hasFilters) {
    if (!Array.isArray(event.filters) || event.filters.length === 0) return 'filters: must be a non-empty array';
    if (event.filters.length > INSIGHTS_LIMITS.filtersPerEvent) return `filters: at most ${INSIGHTS_LIMITS.filtersPerEvent}`;
    if (event.filters.some((f) => typeof f !== 'string' || !FILTER_PATTERN.test(f))) return 'filters: must have the form attribute:value';
  }
  if (event.positions !== undefined) {
    if (event.eventType !== 'click') return 'positions: only for click events';
    if (!hasObjects) return 'positions: only with objectIDs';
    if (!Array.isArray(event.positions) || event.positions.length !== event.objectIDs!.length) {
      return 'positions: one per objectID';
    }
    if (event.positions.some((p) => !Number.isInteger(p) || p < 1)) return 'positions: must be integers ≥ 1';
  } else if (event.eventType === 'click' && event.queryID !== undefined && hasObjects) {
    return 'positions: required for click events tied to a search';
  }
  return null;
}
