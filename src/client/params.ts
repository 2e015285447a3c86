/**
 * Wire encoding of search parameters: the API documents send them as one URL-encoded string (`params`),
 * strings as they are, arrays and objects as URL-encoded JSON (rule 4 of "Hosts and wire conventions").
 */
import type { MultiSearchRequest, SearchParams } from './types.js';

/** How a multi-query stops (`strategy`). */
export type MultiSearchStrategy = 'none' | 'stopIfEnoughMatches';

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

/**
 * The credentials as URL parameters under the header names (CORS simple requests, Insights beacons): the services
 * accept them so.
 *
 * @example
 * urlCredentials('APP', 'key') // 'X-Service-Application-Id=APP&X-Service-API-Key=key'
 */
export const urlCredentials = (appId: string, apiKey: string): string =>
  `X-Service-Application-Id=${encodeURIComponent(appId)}&X-Service-API-Key=${encodeURIComponent(apiKey)}`;

/**
 * The body of a multi-query (`POST /1/indexes/*\/queries`): each query's parameters serialised, as the client
 * sends them. The first-paint script builds its request with it too, so both send the same bytes.
 *
 * @example
 * multiSearchBody([{ indexName: 'products', params: { query: 'tv' } }]) // { requests: [{ indexName: 'products', params: 'query=tv' }] }
 */
export const multiSearchBody = (
  requests: MultiSearchRequest[],
  strategy?: MultiSearchStrategy,
): { requests: Array<{ indexName: string; params: string }>; strategy?: MultiSearchStrategy } => ({
  requests: requests.map((request) => ({ indexName: request.indexName, params: serializeParams(request.params) })),
  strategy,
});
