/** The Insights limits of the API document (a part of `./insights.ts`; the userToken rule is `./user-token.ts`). */

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
