/**
 * The create body of `POST /2/abtests` (document 2, "Endpoints > A/B test"): `name` (required),
 * `variants` (exactly 2: `index`, `trafficPercentage`, optional `description` and
 * `customSearchParameters`), `endAt` (optional, default today 23:59:59 UTC). Anything invalid is a 422
 * ("invalid payload") naming the first bad field. Index existence (404) and tests already running on an
 * index (422) are checked by the caller, which knows the indices.
 */
import { buildFilterTree, EngineError, parseSearchParams } from '../engine/index.js';
import { HttpError } from '../http/errors.js';
import type { AbTestVariantConfig } from '../storage/abtests.js';

const DAY_MS = 86_400_000;
const VARIANT_FIELDS = new Set(['index', 'trafficPercentage', 'description', 'customSearchParameters']);
const BODY_FIELDS = new Set(['name', 'variants', 'endAt']);
/** Longest name and description kept (far above what a dashboard shows). */
const MAX_TEXT = 1000;

export interface AbTestCreate {
  name: string;
  variants: [AbTestVariantConfig, AbTestVariantConfig];
  /** Unix ms. */
  endAt: number;
}

function invalid(message: string): HttpError {
  return new HttpError(422, message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `endAt`: an ISO 8601 date-time with `Z` or an offset (`2026-11-30T23:59:59Z`), or a date alone
 * (`2026-11-30`, read as 23:59:59 UTC of that day, like the default).
 *
 * @example
 * parseEndAt('2026-11-30') // Date.UTC(2026, 10, 30, 23, 59, 59)
 */
export function parseEndAt(value: unknown): number {
  if (typeof value !== 'string')
    throw invalid(
      `endAt: must be an ISO 8601 date-time in UTC (e.g. "2030-01-31T23:59:59Z"), got ${JSON.stringify(value)}`,
    );
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const full = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  const parts = date ?? full;
  if (parts) {
    const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    const valid = new Date(Date.UTC(year, month - 1, day));
    const sane =
      valid.getUTCFullYear() === year &&
      valid.getUTCMonth() === month - 1 &&
      valid.getUTCDate() === day &&
      year >= 1970;
    const hoursOk = !full || (Number(full[4]) < 24 && Number(full[5]) < 60 && Number(full[6] ?? 0) < 60);
    if (sane && hoursOk) {
      const ms = date ? Date.UTC(year, month - 1, day, 23, 59, 59) : Date.parse(value);
      if (Number.isFinite(ms)) return ms;
    }
  }
  throw invalid(
    `endAt: must be an ISO 8601 date-time in UTC (e.g. "2030-01-31T23:59:59Z"), got ${JSON.stringify(value)}`,
  );
}

/** Today 23:59:59 UTC (the document's default `endAt`). */
export function defaultEndAt(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS - 1000;
}

function variantOf(value: unknown, i: number): AbTestVariantConfig {
  const at = `variants[${i}]`;
  if (!isObject(value)) throw invalid(`${at}: must be an object with index and trafficPercentage`);
  for (const field of Object.keys(value)) {
    if (!VARIANT_FIELDS.has(field))
      throw invalid(
        `${at}.${field}: unexpected field (a variant has index, trafficPercentage, description, customSearchParameters)`,
      );
  }
  const { index, trafficPercentage, description, customSearchParameters } = value;
  if (typeof index !== 'string' || index === '') throw invalid(`${at}.index: required, a non-empty index name`);
  if (
    typeof trafficPercentage !== 'number' ||
    !Number.isInteger(trafficPercentage) ||
    trafficPercentage < 1 ||
    trafficPercentage > 99
  ) {
    throw invalid(
      `${at}.trafficPercentage: required, an integer from 1 to 99, got ${JSON.stringify(trafficPercentage)}`,
    );
  }
  const variant: AbTestVariantConfig = { index, trafficPercentage };
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string' || description.length > MAX_TEXT)
      throw invalid(`${at}.description: must be a string of at most ${MAX_TEXT} characters`);
    variant.description = description;
  }
  if (customSearchParameters !== undefined && customSearchParameters !== null) {
    if (!isObject(customSearchParameters))
      throw invalid(`${at}.customSearchParameters: must be an object of search parameters`);
    try {
      // The same checks a search makes (types, then the filter syntax), so a bad value is refused now
      // rather than failing every search of the variant later.
      const parsed = parseSearchParams(customSearchParameters) as Record<string, unknown>;
      buildFilterTree(parsed);
    } catch (error) {
      if (error instanceof EngineError) throw invalid(`${at}.customSearchParameters: ${error.message}`);
      throw error;
    }
    if (Object.keys(customSearchParameters).length > 0)
      variant.customSearchParameters = structuredClone(customSearchParameters);
  }
  return variant;
}

/**
 * @param now the service clock (the default `endAt`, and `endAt` must be later)
 * @example
 * validateCreate({ name: 'ranking', variants: [{ index: 'a', trafficPercentage: 60 }, { index: 'b', trafficPercentage: 40 }] }, Date.now())
 */
export function validateCreate(body: unknown, now: number): AbTestCreate {
  if (!isObject(body)) throw invalid('body: must be an object with name and variants');
  for (const field of Object.keys(body)) {
    if (!BODY_FIELDS.has(field)) throw invalid(`${field}: unexpected field (an A/B test has name, variants, endAt)`);
  }
  const { name, variants, endAt } = body;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_TEXT)
    throw invalid(`name: required, a non-empty string of at most ${MAX_TEXT} characters`);
  if (!Array.isArray(variants) || variants.length !== 2)
    throw invalid('variants: required, a list of exactly 2 variants');
  const pair = [variantOf(variants[0], 0), variantOf(variants[1], 1)] as [AbTestVariantConfig, AbTestVariantConfig];
  const total = pair[0].trafficPercentage + pair[1].trafficPercentage;
  if (total !== 100) throw invalid(`variants: the trafficPercentage values must add up to 100, got ${total}`);
  if (pair[0].index === pair[1].index && !pair[0].customSearchParameters && !pair[1].customSearchParameters) {
    throw invalid(
      'variants: both variants use the index ' +
        JSON.stringify(pair[0].index) +
        '; two variants may share an index only when one has customSearchParameters',
    );
  }
  const end = endAt === undefined || endAt === null ? defaultEndAt(now) : parseEndAt(endAt);
  if (end <= now) throw invalid(`endAt: must be in the future, got ${new Date(end).toISOString()}`);
  return { name, variants: pair, endAt: end };
}
