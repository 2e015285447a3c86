/**
 * The create body of `POST /2/abtests` (document 2, "Endpoints > A/B test"): `name` (required),
 * `variants` (exactly 2: `index`, `trafficPercentage`, optional `description` and
 * `customSearchParameters`), `endAt` (optional, default today 23:59:59 UTC). Anything invalid is a 422
 * ("invalid payload") naming the first bad field. Index existence (404) and tests already running on an
 * index (422) are checked by the caller, which knows the indices.
 */
import { z } from 'zod';
import { buildFilterTree, EngineError, parseSearchParams } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { AbTestVariantConfig } from '../storage/types.js';
import { jsonObject, onlyKeys, parse } from '../validation.js';

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

function invalid(message: string): ServiceError {
  return new ServiceError(422, message);
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

const got = (input: unknown) => `, got ${JSON.stringify(input)}`;

/** One variant (document 2: index, trafficPercentage, description, customSearchParameters). */
const VARIANT = jsonObject('{at}: must be an object with index and trafficPercentage')
  .pipe(
    onlyKeys(
      [...VARIANT_FIELDS],
      (key) =>
        `{at}.${key}: unexpected field (a variant has index, trafficPercentage, description, customSearchParameters)`,
    ),
  )
  .pipe(
    z.object({
      index: z
        .string({ error: '{at}: required, a non-empty index name' })
        .min(1, { error: '{at}: required, a non-empty index name' }),
      trafficPercentage: (() => {
        const error = (issue: { input?: unknown }) => `{at}: required, an integer from 1 to 99${got(issue.input)}`;
        return z.number({ error }).int({ error }).min(1, { error }).max(99, { error });
      })(),
      description: z
        .string({ error: `{at}: must be a string of at most ${MAX_TEXT} characters` })
        .max(MAX_TEXT, { error: `{at}: must be a string of at most ${MAX_TEXT} characters` })
        .nullish(),
      customSearchParameters: jsonObject('{at}: must be an object of search parameters')
        .superRefine((parameters, context) => {
          try {
            // The same checks a search makes (types, then the filter syntax), so a bad value is refused now
            // rather than failing every search of the variant later.
            buildFilterTree(parseSearchParams(parameters) as Record<string, unknown>);
          } catch (error) {
            if (!(error instanceof EngineError)) throw error;
            context.addIssue({ code: 'custom', message: `{at}: ${error.message}` });
          }
        })
        .nullish(),
    }),
  );

/** The create body: `name`, exactly two variants, `endAt` (checked against the clock by {@link validateCreate}). */
const CREATE_BODY = jsonObject('body: must be an object with name and variants')
  .pipe(onlyKeys([...BODY_FIELDS], (key) => `${key}: unexpected field (an A/B test has name, variants, endAt)`))
  .pipe(
    z.object({
      name: z
        .string({ error: `name: required, a non-empty string of at most ${MAX_TEXT} characters` })
        .max(MAX_TEXT, { error: `name: required, a non-empty string of at most ${MAX_TEXT} characters` })
        .refine((name) => name.trim() !== '', {
          error: `name: required, a non-empty string of at most ${MAX_TEXT} characters`,
        }),
      variants: z
        .array(z.unknown(), { error: 'variants: required, a list of exactly 2 variants' })
        .length(2, { error: 'variants: required, a list of exactly 2 variants' })
        .pipe(z.tuple([VARIANT, VARIANT])),
      endAt: z.unknown().optional(),
    }),
  );

function variantOf(parsed: z.output<typeof VARIANT>): AbTestVariantConfig {
  const variant: AbTestVariantConfig = { index: parsed.index, trafficPercentage: parsed.trafficPercentage };
  if (parsed.description !== undefined && parsed.description !== null) variant.description = parsed.description;
  const parameters = parsed.customSearchParameters;
  if (parameters && Object.keys(parameters).length > 0) variant.customSearchParameters = structuredClone(parameters);
  return variant;
}

/**
 * @param now the service clock (the default `endAt`, and `endAt` must be later)
 * @example
 * validateCreate({ name: 'ranking', variants: [{ index: 'a', trafficPercentage: 60 }, { index: 'b', trafficPercentage: 40 }] }, Date.now())
 */
export function validateCreate(body: unknown, now: number): AbTestCreate {
  const parsed = parse(CREATE_BODY, body, { status: 422 });
  const pair = [variantOf(parsed.variants[0]), variantOf(parsed.variants[1])] as [
    AbTestVariantConfig,
    AbTestVariantConfig,
  ];
  const total = pair[0].trafficPercentage + pair[1].trafficPercentage;
  if (total !== 100) throw invalid(`variants: the trafficPercentage values must add up to 100, got ${total}`);
  if (pair[0].index === pair[1].index && !pair[0].customSearchParameters && !pair[1].customSearchParameters) {
    throw invalid(
      `variants: both variants use the index ${JSON.stringify(pair[0].index)}; two variants may share an index only when one has customSearchParameters`,
    );
  }
  const { endAt } = parsed;
  const end = endAt === undefined || endAt === null ? defaultEndAt(now) : parseEndAt(endAt);
  if (end <= now) throw invalid(`endAt: must be in the future, got ${new Date(end).toISOString()}`);
  return { name: parsed.name, variants: pair, endAt: end };
}
