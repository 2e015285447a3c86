/**
 * Request validation at the edge: every body and query string is parsed with a zod schema before a domain
 * function sees it. The schemas carry the messages the API documents and the tests rely on; a message may
 * name where it failed with `{at}` (the path of the issue, `requests[0].indexName`), which is filled in here.
 *
 * Why not `@hono/zod-validator`: it reads the body with `c.req.json()`, which would skip the body rules of
 * `body.ts` (the size limit enforced while a chunked body is read, `Content-Encoding`, UTF-8, an empty body
 * read as `{}`) and would read the body before the credentials are checked; the routers call
 * {@link jsonBody} after `authorize`.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { readJson } from './body.js';
import { isTransportParameter } from './request.js';

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
export function pathText(path: readonly PropertyKey[], where = ''): string {
  let text = where;
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
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
  throw new ServiceError(options.status ?? 400, issue.message.replaceAll('{at}', at));
}

/**
 * Reads the JSON body (`body.ts`: limits, encoding, UTF-8) and parses it with `schema`.
 *
 * @example
 * const { requests } = await jsonBody(c, BATCH_BODY);
 */
export async function jsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: ValidationOptions & { maxBytes?: number } = {},
): Promise<z.output<S>> {
  return parse(schema, await readJson(c, options.maxBytes), options);
}

/**
 * The query string's parameters (the credentials and the client's agent left out) parsed with `schema`;
 * a parameter given twice keeps its first value.
 *
 * @example
 * const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
 */
export function queryOf<S extends z.ZodType>(c: Context, schema: S, options: ValidationOptions = {}): z.output<S> {
  // No prototype: a parameter named `__proto__` is a parameter like any other.
  const values: Record<string, string> = Object.create(null);
  for (const [name, value] of new URL(c.req.url).searchParams) {
    if (!isTransportParameter(name) && !Object.hasOwn(values, name)) values[name] = value;
  }
  return parse(schema, values, options);
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
 * A `true` / `false` query parameter (absent: false).
 *
 * @example
 * queryOf(c, z.object({ forwardToReplicas: trueOrFalse('forwardToReplicas') }))
 */
export function trueOrFalse(name: string) {
  return z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .optional()
    .transform((value) => value === 'true');
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
