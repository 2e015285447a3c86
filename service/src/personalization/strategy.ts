/**
 * The personalization strategy (document 2, "Personalization": eventsScoring, facetsScoring,
 * personalizationImpact; all three required) as a zod schema: every problem is a 422 naming the field, the
 * first one found: `eventsScoring[1].eventType: must be one of click, conversion, view`.
 *
 * Choices where the document is silent (documented in `docs/notes/personalization.md`): eventType is one of
 * the Insights event types (click, conversion, view); scores are integers from 1 to 100 (the hosted
 * dashboard's range); eventName follows the Insights rule (1 to 64 printable ASCII characters); both lists
 * hold 1 to 100 entries without duplicates (same eventName + eventType, same facetName); unknown fields are
 * refused.
 */
import { EVENT_NAME_PATTERN, INSIGHTS_EVENT_TYPES } from 'svc-search/protocol';
import { z } from 'zod';
import type { PersonalizationEventType, PersonalizationStrategy } from '../storage/types.js';
import { jsonObject, onlyKeys, parse, requiredOr } from '../validation.js';

/** The Insights event types, in alphabetical order (as messages list them). */
export const PERSONALIZATION_EVENT_TYPES: readonly PersonalizationEventType[] = [...INSIGHTS_EVENT_TYPES].sort();
/** Largest number of entries of eventsScoring and of facetsScoring (a local limit; the document gives none). */
export const MAX_SCORING_ENTRIES = 100;
/** Range of the scores of eventsScoring and facetsScoring. */
export const SCORE_RANGE = [1, 100] as const;

const score = (() => {
  const error = requiredOr('{at}: required', `{at}: must be an integer from ${SCORE_RANGE[0]} to ${SCORE_RANGE[1]}`);
  return z.number({ error }).int({ error }).min(SCORE_RANGE[0], { error }).max(SCORE_RANGE[1], { error });
})();

/** A list of 1 to 100 entries, checked as a list before its entries are. */
function scoringList<T extends z.ZodType>(entry: T) {
  return z
    .array(z.unknown(), { error: requiredOr('{at}: required', '{at}: must be an array') })
    .min(1, { error: '{at}: must hold at least one entry' })
    .max(MAX_SCORING_ENTRIES, {
      error: (issue) => `{at}: holds ${(issue.input as unknown[]).length} entries; the limit is ${MAX_SCORING_ENTRIES}`,
    })
    .pipe(z.array(entry));
}

const EVENT_SCORING = jsonObject('{at}: must be an object {eventName, eventType, score}')
  .pipe(
    onlyKeys(
      ['eventName', 'eventType', 'score'],
      (key) => `{at}.${key}: unexpected field (expected eventName, eventType, score)`,
    ),
  )
  .pipe(
    z.object({
      eventName: z
        .string({ error: requiredOr('{at}: required', '{at}: must be a string of 1 to 64 printable ASCII characters') })
        .regex(EVENT_NAME_PATTERN, { error: '{at}: must be a string of 1 to 64 printable ASCII characters' }),
      eventType: z.enum(PERSONALIZATION_EVENT_TYPES as [PersonalizationEventType, ...PersonalizationEventType[]], {
        error: requiredOr('{at}: required', `{at}: must be one of ${PERSONALIZATION_EVENT_TYPES.join(', ')}`),
      }),
      score,
    }),
  );

const FACET_SCORING = jsonObject('{at}: must be an object {facetName, score}')
  .pipe(onlyKeys(['facetName', 'score'], (key) => `{at}.${key}: unexpected field (expected facetName, score)`))
  .pipe(
    z.object({
      facetName: z
        .string({ error: requiredOr('{at}: required', '{at}: must be a non-empty string') })
        .refine((name) => name.trim() !== '', { error: '{at}: must be a non-empty string' }),
      score,
    }),
  );

/** The body of `POST /1/strategies/personalization`. */
export const STRATEGY = jsonObject('body: must be a JSON object {eventsScoring, facetsScoring, personalizationImpact}')
  .pipe(
    onlyKeys(
      ['eventsScoring', 'facetsScoring', 'personalizationImpact'],
      (key) => `body.${key}: unexpected field (expected eventsScoring, facetsScoring, personalizationImpact)`,
    ),
  )
  .pipe(
    z.object({
      eventsScoring: scoringList(EVENT_SCORING).superRefine((entries, context) => {
        const seen = new Set<string>();
        entries.forEach((entry, i) => {
          const key = `${entry.eventType}\u0000${entry.eventName}`;
          if (seen.has(key)) {
            context.addIssue({
              code: 'custom',
              path: [i],
              message: `{at}: duplicate of an earlier entry (eventName "${entry.eventName}", eventType ${entry.eventType})`,
            });
          }
          seen.add(key);
        });
      }),
      facetsScoring: scoringList(FACET_SCORING).superRefine((entries, context) => {
        const seen = new Set<string>();
        entries.forEach((entry, i) => {
          if (seen.has(entry.facetName)) {
            context.addIssue({
              code: 'custom',
              path: [i, 'facetName'],
              message: `{at}: duplicate of an earlier entry ("${entry.facetName}")`,
            });
          }
          seen.add(entry.facetName);
        });
      }),
      personalizationImpact: (() => {
        const error = requiredOr('{at}: required', '{at}: must be an integer from 0 to 100');
        return z.number({ error }).int({ error }).min(0, { error }).max(100, { error });
      })(),
    }),
  );

/**
 * The strategy of a `POST /1/strategies/personalization` body, or `ServiceError(422)` naming the field.
 *
 * @example
 * validateStrategy({
 *   eventsScoring: [{ eventName: 'Product Clicked', eventType: 'click', score: 10 }],
 *   facetsScoring: [{ facetName: 'brand', score: 50 }],
 *   personalizationImpact: 75,
 * });
 */
export function validateStrategy(body: unknown): PersonalizationStrategy {
  return parse(STRATEGY, body, { status: 422 });
}
