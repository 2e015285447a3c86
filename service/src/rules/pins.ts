/**
 * Pinned records (`promote` consequences of rules): the organic results fill the positions the pins leave
 * free. The code is the engine's (`src/engine/rules.ts`), shared with the browser worker of `svc-search/local`.
 */
export { type PinnedSearchResponse, searchWithPins } from '../engine/index.js';
