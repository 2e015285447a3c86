/**
 * The body of a key create or update (document 1, "API keys"), validated field by field (400 naming the
 * field), and a key as the lists and reads show it.
 */
import { z } from 'zod';
import { parseFilters, parseSearchParams } from '../engine/index.js';
import { jsonObject, onlyKeys, parse } from '../validation.js';
import type { KeyFields, StoredKey } from './keys.js';
import { ALL_RIGHTS, type Right } from './types.js';

const nonNegativeInteger = (name: string) => {
  const error = `\`${name}\` must be a non-negative integer`;
  return z.number({ error }).int({ error }).min(0, { error }).optional();
};
const stringList = (name: string) =>
  z.array(z.string(), { error: `\`${name}\` must be an array of strings` }).optional();

/** The body of a key create or update: every field optional, an unknown one refused. */
const KEY_FIELDS = jsonObject('The key must be a JSON object')
  .pipe(
    onlyKeys(
      [
        'acl',
        'description',
        'validity',
        'maxHitsPerQuery',
        'maxQueriesPerIPPerHour',
        'queryParameters',
        'referers',
        'indexes',
        // read-only fields echoed back by clients
        'value',
        'createdAt',
      ],
      (key) => `Unknown key field \`${key}\``,
    ),
  )
  .pipe(
    z.object({
      acl: stringList('acl').superRefine((acl, context) => {
        const unknown = (acl ?? []).filter((right) => !ALL_RIGHTS.includes(right as Right));
        if (unknown.length > 0)
          context.addIssue({ code: 'custom', message: `Unknown acl value(s): ${unknown.join(', ')}` });
      }),
      description: z.string({ error: '`description` must be a string' }).optional(),
      validity: nonNegativeInteger('validity'),
      maxHitsPerQuery: nonNegativeInteger('maxHitsPerQuery'),
      maxQueriesPerIPPerHour: nonNegativeInteger('maxQueriesPerIPPerHour'),
      // The parameters a key forces must be search parameters of the right types with well-formed filters: a
      // misspelt name would otherwise be stored and make every search of the key a 400.
      queryParameters: z
        .string({ error: '`queryParameters` must be a URL-encoded string' })
        .superRefine((queryParameters, context) => {
          try {
            const parsed = parseSearchParams(queryParameters);
            if (typeof parsed.filters === 'string' && parsed.filters.trim()) parseFilters(parsed.filters);
          } catch (error) {
            context.addIssue({ code: 'custom', message: `\`queryParameters\`: ${(error as Error).message}` });
          }
        })
        .optional(),
      referers: stringList('referers'),
      indexes: stringList('indexes'),
    }),
  );

/**
 * Validates the body of a key create/update (every field optional; 400 naming the field).
 *
 * @example
 * keyFields({ acl: ['search'], validity: 3600 }) // { acl: ['search'], validity: 3600 }
 */
export function keyFields(body: unknown): KeyFields {
  const parsed = parse(KEY_FIELDS, body);
  const fields: KeyFields = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value !== undefined) Object.assign(fields, { [name]: value });
  }
  return fields;
}

/**
 * The key as lists and reads show it (createdAt in Unix seconds).
 *
 * @example
 * keyView(stored) // { value, acl, description, validity, …, createdAt: 1763771000 }
 */
export function keyView(key: StoredKey, withIndex = false): Record<string, unknown> {
  const view: Record<string, unknown> = {
    value: key.value,
    acl: key.acl,
    description: key.description,
    validity:
      key.validity === 0 ? 0 : Math.max(0, Math.round((key.createdAt + key.validity * 1000 - Date.now()) / 1000)),
    maxHitsPerQuery: key.maxHitsPerQuery,
    maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour,
    queryParameters: key.queryParameters,
    referers: key.referers,
    createdAt: Math.floor(key.createdAt / 1000),
  };
  if (key.indexes) view.indexes = key.indexes;
  if (withIndex && key.index !== undefined) view.index = key.index;
  return view;
}
