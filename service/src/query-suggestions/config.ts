/**
 * The Query Suggestions configuration of document 2 ("Query Suggestions configuration"): what a create
 * or update body may hold, checked field by field (422 naming the field), with the defaults of the
 * document filled in, and the shape read answers show (`minHit`, `replicas`).
 */
import { z } from 'zod';
import { LANGUAGES } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import { isObject, jsonObject, onlyKeys, parse } from '../validation.js';

/** "Query Suggestions configurations: 100 per application". */
export const MAX_CONFIGS = 100;
/** `facets[].amount` is the number of facet values kept; the engine counts at most 1,000 per facet. */
export const MAX_FACET_AMOUNT = 1000;

export interface SuggestionFacet {
  attribute: string;
  amount: number;
}

/** One `sourceIndex`, every field present (defaults filled). */
export interface SourceIndexConfig {
  indexName: string;
  /** Also read the popular searches of the source index's replicas. */
  replicas: boolean;
  analyticsTags: string[];
  facets: SuggestionFacet[];
  /** 0 = no minimum (the document's default). */
  minHits: number;
  /** 0 = no minimum (the document's default). */
  minLetters: number;
  generate: string[][];
  external: string[];
}

/** A configuration as stored, every field present. */
export interface QuerySuggestionsConfig {
  indexName: string;
  sourceIndices: SourceIndexConfig[];
  languages: string[];
  exclude: string[];
}

/** Attributes of every suggestion record: a source index of one of these names would overwrite them. */
export const RESERVED_ATTRIBUTES: readonly string[] = ['objectID', 'query', 'popularity', 'nb_words'];

const TOP_FIELDS = ['indexName', 'sourceIndices', 'languages', 'exclude', 'appID'];
const SOURCE_FIELDS = [
  'indexName',
  'replicas',
  'analyticsTags',
  'facets',
  'minHits',
  'minHit',
  'minLetters',
  'generate',
  'external',
];
const LANGUAGE_SET = new Set(LANGUAGES);

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The fields a message lists for an unexpected one (the read-only `appID` and the read name `minHit` left out). */
function unexpected(allowed: readonly string[], what: string) {
  return onlyKeys(
    allowed,
    (key) =>
      `{at}${what ? '.' : ''}${key}: is not a field of ${what ? '{at}' : 'a Query Suggestions configuration'} (${allowed.filter((name) => name !== 'appID' && name !== 'minHit').join(', ')})`,
  );
}

const anObject = z.custom<Record<string, unknown>>(isObject, {
  error: (issue) => `{at}: must be an object, got ${shown(issue.input)}`,
});

const nonEmptyString = z
  .string({ error: (issue) => `{at}: must be a non-empty string, got ${shown(issue.input)}` })
  .refine((text) => text.trim() !== '', {
    error: (issue) => `{at}: must be a non-empty string, got ${shown(issue.input)}`,
  });

const indexName = z
  .unknown()
  .optional()
  .transform((value, context) => {
    if (value === undefined) {
      context.addIssue({ code: 'custom', message: '{at}: is required' });
      return z.NEVER;
    }
    const checked = nonEmptyString.safeParse(value);
    if (!checked.success) {
      context.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
      return z.NEVER;
    }
    try {
      validateIndexName(checked.data);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `{at}: ${(error as Error).message}` });
      return z.NEVER;
    }
    return checked.data;
  });

/** A list field: absent or `null` = the default `[]`. */
function list<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => value ?? [],
    z.array(z.unknown(), { error: (issue) => `{at}: must be a list, got ${shown(issue.input)}` }).pipe(z.array(item)),
  );
}

function count(min = 0, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
  const error = (issue: { input?: unknown }) => `{at}: must be ${range}, got ${shown(issue.input)}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A count field: absent or `null` = 0 (the document's default: no minimum). */
const optionalCount = z.preprocess((value) => value ?? 0, count());

const FACET = anObject.pipe(unexpected(['attribute', 'amount'], 'facet')).pipe(
  z.object({
    attribute: z
      .unknown()
      .optional()
      .transform((value, context) => {
        if (value === undefined) context.addIssue({ code: 'custom', message: '{at}: is required' });
        return value;
      })
      .pipe(nonEmptyString),
    amount: z
      .unknown()
      .optional()
      .transform((value, context) => {
        if (value === undefined)
          context.addIssue({
            code: 'custom',
            message: '{at}: is required (the number of facet values kept for each suggestion)',
          });
        return value;
      })
      .pipe(count(1, MAX_FACET_AMOUNT)),
  }),
);

/** One source index; read answers call `minHits` `minHit`: both are accepted, so a read answer can be sent back. */
const SOURCE = anObject
  .pipe(unexpected(SOURCE_FIELDS, 'source'))
  .superRefine((source, context) => {
    if (source.minHits !== undefined && source.minHit !== undefined && source.minHits !== source.minHit) {
      context.addIssue({
        code: 'custom',
        path: ['minHits'],
        message: `{at}: differs from {parent}.minHit (${shown(source.minHit)}); send one of them`,
      });
    }
  })
  .pipe(
    z.object({
      indexName,
      replicas: z
        .boolean({ error: (issue) => `{at}: must be true or false, got ${shown(issue.input)}` })
        .optional()
        .transform((value) => value ?? false),
      facets: list(FACET).superRefine((facets, context) => {
        const attributes = new Set<string>();
        facets.forEach((facet, i) => {
          if (attributes.has(facet.attribute))
            context.addIssue({
              code: 'custom',
              path: [i, 'attribute'],
              message: `{at}: ${shown(facet.attribute)} is listed twice`,
            });
          attributes.add(facet.attribute);
        });
      }),
      generate: list(
        z
          .array(z.unknown(), {
            error: (issue) => `{at}: must be a non-empty list of facet attributes, got ${shown(issue.input)}`,
          })
          .min(1, { error: (issue) => `{at}: must be a non-empty list of facet attributes, got ${shown(issue.input)}` })
          .pipe(z.array(nonEmptyString)),
      ),
      analyticsTags: list(nonEmptyString),
      minHits: count().nullish(),
      minHit: count().nullish(),
      minLetters: optionalCount,
      external: list(indexName),
    }),
  )
  .transform(
    ({ minHit, minHits, ...source }): SourceIndexConfig => ({
      indexName: source.indexName,
      replicas: source.replicas,
      analyticsTags: source.analyticsTags,
      facets: source.facets,
      minHits: minHits ?? minHit ?? 0,
      minLetters: source.minLetters,
      generate: source.generate,
      external: source.external,
    }),
  );

/** A create or update body; `pathIndexName`: the index of an update's path. */
function configSchema(pathIndexName: string | undefined) {
  return jsonObject('The body must be a JSON object: a Query Suggestions configuration')
    .pipe(unexpected(TOP_FIELDS, ''))
    .pipe(
      z.object({
        indexName:
          pathIndexName === undefined
            ? indexName
            : z
                .unknown()
                .optional()
                .transform((value, context) => {
                  if (value !== undefined && value !== pathIndexName)
                    context.addIssue({
                      code: 'custom',
                      message: `{at}: ${shown(value)} differs from the index of the path (${shown(pathIndexName)})`,
                    });
                  return pathIndexName;
                }),
        sourceIndices: z
          .array(z.unknown(), {
            error: (issue) =>
              issue.input === undefined
                ? '{at}: is required'
                : `{at}: must be a non-empty list of source indices, got ${shown(issue.input)}`,
          })
          .min(1, { error: (issue) => `{at}: must be a non-empty list of source indices, got ${shown(issue.input)}` })
          .pipe(z.array(SOURCE)),
        languages: list(
          nonEmptyString.refine((code) => LANGUAGE_SET.has(code), {
            error: (issue) => `{at}: ${shown(issue.input)} is not a supported language code (ISO 639-1, e.g. "en")`,
          }),
        ),
        exclude: list(nonEmptyString),
      }),
    )
    .superRefine((config, context) => {
      // Cross-field rules, once every field is valid (zod runs refinements after other issues too).
      if (!config.sourceIndices.every((source) => source?.external)) return;
      const seen = new Set<string>();
      config.sourceIndices.forEach((source, i) => {
        const at = ['sourceIndices', i, 'indexName'];
        const fail = (message: string, path = at) => context.addIssue({ code: 'custom', path, message });
        if (seen.has(source.indexName)) fail(`{at}: ${shown(source.indexName)} is listed twice`);
        else if (RESERVED_ATTRIBUTES.includes(source.indexName))
          fail(
            `{at}: ${shown(source.indexName)} is an attribute of every suggestion record (${RESERVED_ATTRIBUTES.join(', ')}); the records name each source index`,
          );
        // The suggestions index is rewritten at each build: reading from it would feed suggestions on themselves.
        else if (source.indexName === config.indexName)
          fail(`{at}: the suggestions index ${shown(config.indexName)} cannot be one of its own source indices`);
        seen.add(source.indexName);
        source.external.forEach((name, j) => {
          if (name === config.indexName)
            fail(`{at}: the suggestions index ${shown(config.indexName)} cannot be one of its own external indices`, [
              'sourceIndices',
              i,
              'external',
              j,
            ]);
        });
      });
    });
}

/**
 * Checks a create (`POST /1/configs`) or update (`PUT /1/configs/{indexName}`) body and fills the
 * defaults. 400 when the body is not a JSON object; 422 naming the first invalid field. For an update,
 * `pathIndexName` is the index of the path: the body's `indexName` may be left out, and must match it
 * when given.
 *
 * @example
 * parseConfig({ indexName: 'products_qs', sourceIndices: [{ indexName: 'products', minHits: 1 }] })
 * // { indexName: 'products_qs', sourceIndices: [{ indexName: 'products', replicas: false, analyticsTags: [],
 * //   facets: [], minHits: 1, minLetters: 0, generate: [], external: [] }], languages: [], exclude: [] }
 */
export function parseConfig(body: unknown, pathIndexName?: string): QuerySuggestionsConfig {
  if (!isObject(body)) throw new ServiceError(400, 'The body must be a JSON object: a Query Suggestions configuration');
  const config = parse(configSchema(pathIndexName), body, { status: 422 });
  return { ...config, languages: [...new Set(config.languages)] };
}

/**
 * A configuration as the read endpoints answer it: `appID`, and each source index with `minHit` (the
 * document's read name) and `replicas`, every default shown.
 *
 * @example
 * configAnswer(config, 'SVCLOCAL') // { appID: 'SVCLOCAL', indexName, sourceIndices: [{ …, minHit: 0, … }], … }
 */
export function configAnswer(config: QuerySuggestionsConfig, appID: string): Record<string, unknown> {
  return {
    appID,
    indexName: config.indexName,
    sourceIndices: config.sourceIndices.map((source) => ({
      indexName: source.indexName,
      replicas: source.replicas,
      analyticsTags: [...source.analyticsTags],
      facets: source.facets.map((facet) => ({ ...facet })),
      minHit: source.minHits,
      minLetters: source.minLetters,
      generate: source.generate.map((list) => [...list]),
      external: [...source.external],
    })),
    languages: [...config.languages],
    exclude: [...config.exclude],
  };
}
