/**
 * `svc-search/protocol`: the wire of the search API, defined once for the browser library and the service —
 * the request and response types of the API documents, the table of search parameters with their types, and
 * the Insights event rules (limits, userToken pattern, `attribute:value` filters). Plain TypeScript: no DOM,
 * no Node APIs, no dependencies, so it runs in a browser, a worker or Node alike.
 *
 * @example
 * import { SEARCH_PARAMETERS, validateInsightsEvent, type SearchResponse } from 'svc-search/protocol';
 */
export type * from './types.js';
export * from './search-parameters.js';
export * from './insights.js';
