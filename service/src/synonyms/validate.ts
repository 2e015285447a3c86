/**
 * A synonym body (document 1, Synonyms): five types, validated with one zod strict schema each (400 naming the
 * field): `synonym` (synonyms), `onewaysynonym` (input, synonyms), `altcorrection1` / `altcorrection2` (word,
 * corrections), `placeholder` (placeholder `<name>`, replacements).
 */
import { z } from 'zod';
import { SYNONYM_TYPES, type Synonym } from '../engine/index.js';
import { ServiceError } from '../errors.js';

export const got = (input: unknown) => `, got ${JSON.stringify(input) ?? 'undefined'}`;
const must = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${what}${got(issue.input)}`;
const text = z.string({ error: must('a non-empty string') }).min(1, { error: must('a non-empty string') });
const texts = z
  .array(text, { error: must('a non-empty array of strings') })
  .min(1, { error: must('a non-empty array of strings') });
const objectID = text;

/** One strict schema per type (unexpected keys are refused). */
const SCHEMAS = {
  synonym: z.strictObject({ objectID, type: z.literal('synonym'), synonyms: texts }),
  onewaysynonym: z.strictObject({ objectID, type: z.literal('onewaysynonym'), input: text, synonyms: texts }),
  altcorrection1: z.strictObject({ objectID, type: z.literal('altcorrection1'), word: text, corrections: texts }),
  altcorrection2: z.strictObject({ objectID, type: z.literal('altcorrection2'), word: text, corrections: texts }),
  placeholder: z.strictObject({
    objectID,
    type: z.literal('placeholder'),
    placeholder: text.regex(/^<[^<>]+>$/, { error: must('a token written <name>') }),
    replacements: texts,
  }),
} as const;

function pathOf(path: PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/**
 * Validates a synonym object (400 naming the field).
 *
 * @example
 * validateSynonym({ objectID: 'tv', type: 'synonym', synonyms: ['tv', 'television'] })
 */
export function validateSynonym(input: unknown, where = 'The synonym', id?: string): Synonym {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ServiceError(400, `${where} must be a JSON object`);
  const body: Record<string, unknown> = { ...input };
  if (id !== undefined) {
    if (body.objectID !== undefined && body.objectID !== id)
      throw new ServiceError(
        400,
        `${where}.objectID must be the objectID of the path (${JSON.stringify(id)})${got(body.objectID)}`,
      );
    body.objectID = id;
  }
  if (!SYNONYM_TYPES.includes(body.type as never)) {
    throw new ServiceError(
      400,
      `${where}.type ${body.type === undefined ? 'is required' : `must be one of ${SYNONYM_TYPES.join(', ')}${got(body.type)}`}`,
    );
  }
  const result = SCHEMAS[body.type as keyof typeof SCHEMAS].safeParse(body);
  if (result.success) return result.data as Synonym;
  const issue = result.error.issues[0]!;
  const at = `${where}${pathOf(issue.path)}`;
  if (issue.code === 'unrecognized_keys')
    throw new ServiceError(400, `${where}.${issue.keys[0]!} is unexpected for type ${body.type as string}`);
  throw new ServiceError(400, `${at} ${issue.message}`);
}
