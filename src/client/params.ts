/**
 * Wire encoding of search parameters: the API documents send them as one URL-encoded string (`params`),
 * strings as they are, arrays and objects as URL-encoded JSON (rule 4 of "Hosts and wire conventions").
 */
import type { SearchParams } from './types.js';

/**
 * Serialises search parameters into the `params` string of a search body. Keys keep their order, so the
 * same parameters always give the same string (the response cache relies on it); `undefined` is skipped.
 *
 * @example
 * serializeParams({ query: 'tv', facetFilters: [['brand:LG']] })
 * // 'query=tv&facetFilters=%5B%5B%22brand%3ALG%22%5D%5D'
 */
export function serializeParams(params: SearchParams | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join('&');
}

/**
 * Query-string form of a flat record (GET and DELETE parameters); arrays are comma-joined.
 *
 * @example
 * toQueryString({ index: 'products', limit: 10 }) // 'index=products&limit=10'
 */
export function toQueryString(record: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join('&');
}
