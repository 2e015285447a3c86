/**
 * A rule body (document 1, Rules), validated before it is stored: 400 naming the field. A rule applies when
 * one of its conditions matches (`apply.ts`); its consequence's search parameters are checked as a search's.
 */
import { z } from 'zod';
import { parseFilters, parseSearchParams } from '../engine/index.js';
import { validateSettingValue } from '../engine/settings.js';
import type { Rule } from '../storage/types.js';
import { jsonObject, parse } from '../validation.js';

export const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'] as const;

const object = (what: string) => jsonObject(`${what} must be a JSON object`);

const CONDITION = object('{at}')
  .pipe(
    z.object({
      pattern: z.string({ error: '{parent}: pattern must be a string' }).optional(),
      anchoring: z
        .enum(ANCHORINGS, { error: `{parent}: anchoring must be one of ${ANCHORINGS.join(', ')}` })
        .optional(),
      context: z
        .string({ error: '{parent}: context must be letters, digits, - or _' })
        .regex(/^[A-Za-z0-9_-]+$/, { error: '{parent}: context must be letters, digits, - or _' })
        .optional(),
      alternatives: z.boolean({ error: '{parent}: alternatives must be a boolean' }).optional(),
    }),
  )
  .superRefine((condition, context) => {
    if (condition.pattern !== undefined && condition.anchoring === undefined)
      context.addIssue({ code: 'custom', message: '{at}: a pattern needs an anchoring' });
    else if (condition.pattern === undefined && condition.context === undefined)
      context.addIssue({ code: 'custom', message: '{at}: a condition needs a pattern or a context' });
  });

const EDIT = object('{at[]}').pipe(
  z
    .object({
      type: z.enum(['remove', 'replace'], { error: '{parent[]}: type must be remove or replace' }),
      delete: z.string({ error: '{parent[]}: delete must be a string' }),
      insert: z.unknown().optional(),
    })
    .superRefine((edit, context) => {
      if (edit.type === 'replace' && typeof edit.insert !== 'string')
        context.addIssue({ code: 'custom', message: '{at[]}: replace needs an insert string' });
    }),
);

const QUERY_EDITS = object('{at}').pipe(
  z.object({
    edits: z.array(z.unknown(), { error: '{parent}: edits must be an array' }).pipe(z.array(EDIT)).optional(),
    remove: z.array(z.string(), { error: '{parent}: remove must be an array of words' }).optional(),
  }),
);

/** A consequence's `query`: a string that replaces the query, or `{edits, remove}` that change it. */
const QUERY = z.unknown().superRefine((query, context) => {
  if (typeof query === 'string') return;
  const result = QUERY_EDITS.safeParse(query);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    context.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
  }
});

/** The search parameters of a consequence: checked as a search's (the query apart), filters parsed. */
const PARAMS = object('{at}')
  .superRefine((input, context) => {
    const { query: _query, ...params } = input;
    try {
      const parsed = parseSearchParams(params);
      if (typeof params.filters === 'string' && params.filters.trim()) parseFilters(params.filters);
      if (parsed.renderingContent != null) validateSettingValue('renderingContent', parsed.renderingContent);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `{at}: ${(error as Error).message}` });
    }
  })
  .pipe(z.looseObject({ query: QUERY.optional() }));

const PROMOTE = object('{at[]}').pipe(
  z
    .object({
      position: z
        .number({ error: '{parent[]}: position must be a non-negative integer' })
        .int({ error: '{parent[]}: position must be a non-negative integer' })
        .min(0, { error: '{parent[]}: position must be a non-negative integer' }),
      objectID: z.unknown().optional(),
      objectIDs: z.unknown().optional(),
    })
    .superRefine((promote, context) => {
      const single = typeof promote.objectID === 'string' && promote.objectID !== '';
      const several =
        Array.isArray(promote.objectIDs) &&
        promote.objectIDs.length > 0 &&
        promote.objectIDs.every((id) => typeof id === 'string' && id !== '');
      if (single === several)
        context.addIssue({ code: 'custom', message: '{at[]}: give either objectID or a non-empty objectIDs array' });
    }),
);

const HIDE = object('{at[]}').pipe(
  z.object({
    objectID: z
      .string({ error: '{parent[]}: objectID must be a non-empty string' })
      .min(1, { error: '{parent[]}: objectID must be a non-empty string' }),
  }),
);

const CONSEQUENCE = object('{at}').pipe(
  z.object({
    params: PARAMS.optional(),
    promote: z.array(z.unknown(), { error: '{parent}: promote must be an array' }).pipe(z.array(PROMOTE)).optional(),
    hide: z.array(z.unknown(), { error: '{parent}: hide must be an array' }).pipe(z.array(HIDE)).optional(),
    filterPromotes: z.boolean({ error: '{parent}: filterPromotes must be a boolean' }).optional(),
  }),
);

const VALIDITY = object('{at[]}').pipe(
  z.object({
    from: z.number({ error: '{parent[]}: from and until must be Unix timestamps (seconds)' }),
    until: z.number({ error: '{parent[]}: from and until must be Unix timestamps (seconds)' }),
  }),
);

/** A rule (document 1, Rules); its other fields are kept as given. */
const RULE = z.looseObject({
  objectID: z
    .string({ error: '{parent}: objectID must be a non-empty string' })
    .min(1, { error: '{parent}: objectID must be a non-empty string' }),
  conditions: z
    .array(z.unknown(), { error: '{parent}: conditions must be an array' })
    .pipe(z.array(CONDITION))
    .optional(),
  consequence: CONSEQUENCE,
  enabled: z.boolean({ error: '{parent}: enabled must be a boolean' }).optional(),
  description: z.string({ error: '{parent}: description must be a string' }).optional(),
  validity: z
    .array(z.unknown(), { error: '{parent}: validity must be an array of {from, until}' })
    .pipe(z.array(VALIDITY))
    .optional(),
});

/**
 * Validates a rule body (400 naming the field); the rule is kept as given, with the path's objectID when
 * one is given.
 *
 * @example
 * validateRule({ objectID: 'r1', conditions: [{ pattern: 'cheap', anchoring: 'contains' }], consequence: { params: { filters: 'price < 20' } } })
 */
export function validateRule(input: unknown, where = 'The rule', objectID?: string): Rule {
  const rule = { ...parse(object('{at}'), input, { where }) };
  if (objectID !== undefined) rule.objectID = objectID;
  parse(RULE, rule, { where });
  return rule as Rule;
}
