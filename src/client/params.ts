/**
 * Wire encoding of search parameters: the API documents send them as one URL-encoded string (`params`),
 * strings as they are, arrays and objects as URL-encoded JSON (rule 4 of "Hosts and wire conventions").
 */
import type { SearchParams } from './types.js';

/**
 * URL-encoded `key=value` pairs of `record`, in key order, `undefined` skipped; objects as JSON, or arrays
 * comma-joined with `commas` (GET/DELETE parameters).
 *
 * @example
 * toQueryString({ index: 'products', limit: 10 }) // 'index=products&limit=10'
 */
export const toQueryString = (record: object | undefined, commas?: boolean): string =>
  Object.entries(record ?? {})
    .filter((entry) => entry[1] !== undefined)
    .map(
      ([key, value]) =>
        encodeURIComponent(key) +
        '=' +
        encodeURIComponent(
          commas && Array.isArray(value)
            ? value.join()
            : value && typeof value === 'object'
              ? JSON.stringify(value)
              : value,
        ),
    )
    .join('&');

/**
 * Serialises search parameters into the `params` string of a search body. Keys keep their order, so the
 * same parameters always give the same string (the response cache relies on it); `undefined` is skipped.
 *
 * @example
 * serializeParams({ query: 'tv', facetFilters: [['brand:LG']] })
 * // 'query=tv&facetFilters=%5B%5B%22brand%3ALG%22%5D%5D'
 */
export const serializeParams = (params: SearchParams | undefined): string => toQueryString(params);
