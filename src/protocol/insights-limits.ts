/** The Insights limits and the userToken rule of the API document (a part of `./insights.ts`). */

/** Limits of the API document (Limits table, Events). */
export const INSIGHTS_LIMITS = {
  /** Events per `POST /1/events` request. */
  eventsPerRequest: 1000,
  /** Insights body: under 2 MB. */
  bodyBytes: 2 * 1024 * 1024,
  filtersPerEvent: 10,
  eventNameLength: 64,
  userTokenLength: 128,
  /** Only events up to four days old are accepted. */
  maxAgeMs: 4 * 86_400_000,
  /** Clock skew tolerated for timestamps ahead of the service's clock (the document is silent). */
  futureSkewMs: 15 * 60_000,
  /** A click or conversion must fall within one hour of its search event (conversion window). */
  conversionWindowMs: 3_600_000,
} as const;

/** userToken format of the Insights event table: `[a-zA-Z0-9_-=/+]{1,128}`. */
export const USER_TOKEN_PATTERN = /^[\w\-=/+]{1,128}$/;

/**
 * Whether `token` is a valid userToken.
 * @example isValidUserToken('anonymous-1b2c') // true
 */
export const isValidUserToken = (token: unknown): token is string =>
  typeof token === 'string' && USER_TOKEN_PATTERN.test(token);
