/**
 * The one helper every browser layer throws bad input with, and the checks built on it. The client's typed
 * errors of the API are `api-errors.ts`: the first-paint script (src/prepaint, in the loader's file) uses these
 * helpers and none of those.
 */

/**
 * Throws `new type('svc-search: ' + message)` — the bad-input error of the client, store and insights.
 *
 * @example
 * if (!name) fail('search: indexName must be a non-empty string');
 */
export function fail(message: string, type: new (message: string) => Error = TypeError): never {
  throw new type(`svc-search: ${message}`);
}

/** `value` when it is a non-empty array, else a `TypeError` naming `what`. */
export const list = <T>(value: T[], what: string): T[] =>
  Array.isArray(value) && value.length ? value : fail(`${what} must be a non-empty array`);

/** `value` when it is a non-empty string, else a `TypeError` naming `what`. */
export const need = (value: unknown, what: string): string =>
  typeof value === 'string' && value ? value : fail(`${what} must be a non-empty string, got ${JSON.stringify(value)}`);
