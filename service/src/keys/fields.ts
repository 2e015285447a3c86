/**
 * The body of a key create or update (document 1, "API keys"), validated field by field (400 naming the
 * field), and a key as the lists and reads show it.
 */
import { parseFilters, parseSearchParams } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { KeyFields, StoredKey } from './keys.js';
import { ALL_RIGHTS, type Right } from './types.js';

const iso = (ms: number) => new Date(ms).toISOString();

function integerField(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new ServiceError(400, `\`${name}\` must be a non-negative integer`);
  return value;
}

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new ServiceError(400, `\`${name}\` must be an array of strings`);
  return value as string[];
}

/**
 * The parameters a key forces must be search parameters of the right types with well-formed filters:
 * a misspelt name would otherwise be stored and make every search of the key a 400.
 */
function checkForcedParameters(queryParameters: string): void {
  try {
    const parsed = parseSearchParams(queryParameters);
    if (typeof parsed.filters === 'string' && parsed.filters.trim()) parseFilters(parsed.filters);
  } catch (error) {
    throw new ServiceError(400, `\`queryParameters\`: ${(error as Error).message}`);
  }
}

/**
 * Validates the body of a key create/update (every field optional).
 *
 * @example
 * keyFields({ acl: ['search'], validity: 3600 }) // { acl: ['search'], validity: 3600 }
 */
export function keyFields(body: unknown): KeyFields {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ServiceError(400, 'The key must be a JSON object');
  const input = body as Record<string, unknown>;
  const fields: KeyFields = {};
  for (const [name, value] of Object.entries(input)) {
    switch (name) {
      case 'acl': {
        const acl = stringList(value, 'acl');
        const unknown = acl.filter((right) => !ALL_RIGHTS.includes(right as Right));
        if (unknown.length > 0) throw new ServiceError(400, `Unknown acl value(s): ${unknown.join(', ')}`);
        fields.acl = acl as Right[];
        break;
      }
      case 'description':
        if (typeof value !== 'string') throw new ServiceError(400, '`description` must be a string');
        fields.description = value;
        break;
      case 'validity':
        fields.validity = integerField(value, name);
        break;
      case 'maxHitsPerQuery':
        fields.maxHitsPerQuery = integerField(value, name);
        break;
      case 'maxQueriesPerIPPerHour':
        fields.maxQueriesPerIPPerHour = integerField(value, name);
        break;
      case 'queryParameters':
        if (typeof value !== 'string') throw new ServiceError(400, '`queryParameters` must be a URL-encoded string');
        checkForcedParameters(value);
        fields.queryParameters = value;
        break;
      case 'referers':
        fields.referers = stringList(value, 'referers');
        break;
      case 'indexes':
        fields.indexes = stringList(value, 'indexes');
        break;
      case 'value':
      case 'createdAt':
        break; // read-only fields echoed back by clients
      default:
        throw new ServiceError(400, `Unknown key field \`${name}\``);
    }
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
