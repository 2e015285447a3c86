/**
 * Validation with zod schemas whose messages are the ones the API documents (and the tests) expect. A message
 * may name where it failed: `{at}` is replaced by the path of the failing value (`requests[0].indexName`,
 * prefixed by `where`), `{parent}` by the path of the object holding it; `{at[]}` and `{parent[]}` write the
 * list positions of the path as `[]` (`promote[]`). Used by the HTTP layer at the edge
 * and by the domain modules that own a request's schema.
 */
import { z } from 'zod';
import { ServiceError } from './errors.js';

export interface ValidationOptions {
  /** The status of a refusal (400 unless the API document says otherwise, e.g. 422). */
  status?: number;
  /** Prefixed to every path (`requests[0]` when a request of a body is validated on its own). */
  where?: string;
  /** The message of an unexpected field (a strict object's unknown key). */
  unexpected?: (key: string, at: string) => string;
}

/**
 * `requests[0].body.word` for the path `['requests', 0, 'body', 'word']`.
 *
 * @example
 * pathText(['requests', 0, 'indexName']) // 'requests[0].indexName'
 */
export function pathText(path: readonly PropertyKey[], where = '', indices = true): string {
  let text = where;
  for (const part of path) {
    if (typeof part === 'number') text += indices ? `[${part}]` : '[]';
    else text += `${text ? '.' : ''}${String(part)}`;
  }
  return text;
}

/**
 * The value parsed by `schema`, or a `ServiceError` with the first issue's message.
 *
 * @example
 * parse(z.object({ query: z.string({ error: '`query` must be a string' }) }), { query: 1 }) // 400 `query` must be a string
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, options: ValidationOptions = {}): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const at = pathText(issue.path, options.where);
  if (issue.code === 'unrecognized_keys' && options.unexpected) {
    throw new ServiceError(options.status ?? 400, options.unexpected(issue.keys[0]!, at));
  }
  const parent = issue.path.slice(0, -1);
  const message = issue.message
    .replaceAll('{at}', at)
    .replaceAll('{parent}', pathText(parent, options.where))
    .replaceAll('{at[]}', pathText(issue.path, options.where, false))
    .replaceAll('{parent[]}', pathText(parent, options.where, false));
  throw new ServiceError(options.status ?? 400, message);
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A JSON object, kept as it is (its own properties, `__proto__` included, are not copied).
 *
 * @example
 * jsonObject('The record must be a JSON object')
 */
export function jsonObject(message: string) {
  return z.custom<Record<string, unknown>>(isObject, { error: message });
}

/**
 * A message for a field that says "required" when it is absent and `invalid` otherwise; `{at}` is the field.
 *
 * @example
 * z.string({ error: requiredOr('{at}: required', '{at}: must be a string') })
 */
export function requiredOr(required: string, invalid: string | ((input: unknown) => string)) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? required : typeof invalid === 'string' ? invalid : invalid(issue.input);
}

/**
 * The object may hold only `allowed` keys: a check to put before the object's own schema (with `pipe`), so an
 * unexpected field is reported first, with `message(key)` (`{at}` is the object's path).
 *
 * @example
 * jsonObject('body: must be an object').pipe(onlyKeys(['name'], (key) => `{at}.${key}: unexpected field`))
 */
export function onlyKeys(allowed: readonly string[], message: (key: string) => string) {
  return z.custom<Record<string, unknown>>().superRefine((value, context) => {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        context.addIssue({ code: 'custom', message: message(key) });
        return;
      }
    }
  });
}

/**
 * The object without the named fields, every other own property copied as data (`__proto__` included, so a
 * parameter check still sees it).
 *
 * @example
 * withoutFields({ indexName: 'a', query: 'q' }, ['indexName']) // { query: 'q' }
 */
export function withoutFields(object: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(object)) {
    if (names.includes(name)) continue;
    Object.defineProperty(out, name, { value: object[name], enumerable: true, writable: true, configurable: true });
  }
  return out;
}
