/**
 * Validation of the personalization strategy (document 2, "Personalization": eventsScoring, facetsScoring,
 * personalizationImpact; all three required). Every problem is a 422 naming the field, the first one
 * found: `eventsScoring[1].eventType: must be one of click, conversion, view`.
 *
 * Choices where the document is silent (documented in `docs/notes/personalization.md`):
 * eventType is one of the Insights event types (click, conversion, view); scores are integers from 1 to
 * 100 (the hosted dashboard's range); eventName follows the Insights rule (1 to 64 printable ASCII
 * characters); both lists hold 1 to 100 entries without duplicates (same eventName + eventType, same
 * facetName); unknown fields are refused.
 */
import { EVENT_NAME_PATTERN, INSIGHTS_EVENT_TYPES } from 'svc-search/protocol';
import { HttpError } from '../http/errors.js';
import type {
  EventScoring,
  FacetScoring,
  PersonalizationEventType,
  PersonalizationStrategy,
} from '../storage/personalization.js';

/** The Insights event types, in alphabetical order (as messages list them). */
export const PERSONALIZATION_EVENT_TYPES: readonly PersonalizationEventType[] = [...INSIGHTS_EVENT_TYPES].sort();
/** Largest number of entries of eventsScoring and of facetsScoring (a local limit; the document gives none). */
export const MAX_SCORING_ENTRIES = 100;
/** Range of the scores of eventsScoring and facetsScoring. */
export const SCORE_RANGE = [1, 100] as const;

function invalid(field: string, reason: string): never {
  throw new HttpError(422, `${field}: ${reason}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyFields(value: Record<string, unknown>, allowed: readonly string[], field: string): void {
  for (const name of Object.keys(value)) {
    if (!allowed.includes(name)) invalid(`${field}.${name}`, `unexpected field (expected ${allowed.join(', ')})`);
  }
}

function score(value: unknown, field: string): number {
  if (value === undefined) invalid(field, 'required');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < SCORE_RANGE[0] || value > SCORE_RANGE[1]) {
    invalid(field, `must be an integer from ${SCORE_RANGE[0]} to ${SCORE_RANGE[1]}`);
  }
  return value;
}

function list(value: unknown, field: string): unknown[] {
  if (value === undefined) invalid(field, 'required');
  if (!Array.isArray(value)) invalid(field, 'must be an array');
  if (value.length === 0) invalid(field, 'must hold at least one entry');
  if (value.length > MAX_SCORING_ENTRIES)
    invalid(field, `holds ${value.length} entries; the limit is ${MAX_SCORING_ENTRIES}`);
  return value;
}

function eventScoring(value: unknown, field: string): EventScoring {
  if (!isObject(value)) invalid(field, 'must be an object {eventName, eventType, score}');
  onlyFields(value, ['eventName', 'eventType', 'score'], field);
  const { eventName, eventType } = value;
  if (eventName === undefined) invalid(`${field}.eventName`, 'required');
  if (typeof eventName !== 'string' || !EVENT_NAME_PATTERN.test(eventName))
    invalid(`${field}.eventName`, 'must be a string of 1 to 64 printable ASCII characters');
  if (eventType === undefined) invalid(`${field}.eventType`, 'required');
  if (typeof eventType !== 'string' || !(PERSONALIZATION_EVENT_TYPES as readonly string[]).includes(eventType)) {
    invalid(`${field}.eventType`, `must be one of ${PERSONALIZATION_EVENT_TYPES.join(', ')}`);
  }
  return { eventName, eventType: eventType as PersonalizationEventType, score: score(value.score, `${field}.score`) };
}

function facetScoring(value: unknown, field: string): FacetScoring {
  if (!isObject(value)) invalid(field, 'must be an object {facetName, score}');
  onlyFields(value, ['facetName', 'score'], field);
  const { facetName } = value;
  if (facetName === undefined) invalid(`${field}.facetName`, 'required');
  if (typeof facetName !== 'string' || facetName.trim() === '')
    invalid(`${field}.facetName`, 'must be a non-empty string');
  return { facetName, score: score(value.score, `${field}.score`) };
}

/**
 * The strategy of a `POST /1/strategies/personalization` body, or `HttpError(422)` naming the field.
 *
 * @example
 * validateStrategy({
 *   eventsScoring: [{ eventName: 'Product Clicked', eventType: 'click', score: 10 }],
 *   facetsScoring: [{ facetName: 'brand', score: 50 }],
 *   personalizationImpact: 75,
 * });
 */
export function validateStrategy(body: unknown): PersonalizationStrategy {
  if (!isObject(body)) invalid('body', 'must be a JSON object {eventsScoring, facetsScoring, personalizationImpact}');
  onlyFields(body, ['eventsScoring', 'facetsScoring', 'personalizationImpact'], 'body');

  const eventsScoring = list(body.eventsScoring, 'eventsScoring').map((entry, i) =>
    eventScoring(entry, `eventsScoring[${i}]`),
  );
  const seenEvents = new Set<string>();
  eventsScoring.forEach((entry, i) => {
    const key = `${entry.eventType}\u0000${entry.eventName}`;
    if (seenEvents.has(key))
      invalid(
        `eventsScoring[${i}]`,
        `duplicate of an earlier entry (eventName "${entry.eventName}", eventType ${entry.eventType})`,
      );
    seenEvents.add(key);
  });

  const facetsScoring = list(body.facetsScoring, 'facetsScoring').map((entry, i) =>
    facetScoring(entry, `facetsScoring[${i}]`),
  );
  const seenFacets = new Set<string>();
  facetsScoring.forEach((entry, i) => {
    if (seenFacets.has(entry.facetName))
      invalid(`facetsScoring[${i}].facetName`, `duplicate of an earlier entry ("${entry.facetName}")`);
    seenFacets.add(entry.facetName);
  });

  const impact = body.personalizationImpact;
  if (impact === undefined) invalid('personalizationImpact', 'required');
  if (typeof impact !== 'number' || !Number.isInteger(impact) || impact < 0 || impact > 100) {
    invalid('personalizationImpact', 'must be an integer from 0 to 100');
  }
  return { eventsScoring, facetsScoring, personalizationImpact: impact };
}
