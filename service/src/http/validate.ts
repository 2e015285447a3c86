/**
 * Request validation at the edge: every body and query string is parsed with a zod schema (the schemas and
 * `parse`: `../validation.ts`, or the domain module whose input it is) before a domain function sees it.
 *
 * Why not `@hono/zod-validator`: it reads the body with `c.req.json()`, which would skip the body rules of
 * `body.ts` (the size limit enforced while a chunked body is read, `Content-Encoding`, UTF-8, an empty body
 * read as `{}`) and would read the body before the credentials are checked; the routers call
 * {@link jsonBody} after `authorize`.
 */
import type { Context } from 'hono';
import { z } from 'zod';

export { jsonObject, parse, withoutFields, type ValidationOptions } from '../validation.js';
import { parse, type ValidationOptions } from '../validation.js';
import { readJson } from './body.js';
import { isTransportParameter } from './request.js';

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
