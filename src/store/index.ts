/** The reactive search store (browser and Node). */
export { createSearchStore, DEFAULT_STALLED_DELAY_MS, requestsDigest } from './store.js';
export { emptyState, normalizeState } from './state.js';
export { stateToQueryString } from './query-string.js';
export { queryStringToState } from './parse-query-string.js';
export { buildQueries, mergeNeeds, mergeResults, facetFilter } from './requests.js';
export type * from './types.js';
