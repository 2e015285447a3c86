/**
 * `svc-search/local`: search with no server. The engine runs in a Web Worker over indices exported by
 * `svc-search-service export` (`.svcidx`), behind the client interface the store and elements use.
 *
 * @example
 * import { createLocalClient } from 'svc-search/local';
 * const client = createLocalClient({ indices: ['/indexes/products.svcidx'] });
 */
export {
  createLocalClient,
  sharedLocalClient,
  type LocalClient,
  type LocalClientOptions,
  type LocalLoad,
} from './client.js';
export {
  decodeBundle,
  encodeBundle,
  readBundle,
  SVCIDX_MAGIC,
  type BundleDictionaries,
  type BundleIndex,
  type BundleRecommendations,
  type BundleRecord,
  type IndexBundle,
  type ReadBundle,
  type ScoredItem,
} from '../engine/bundle.js';
export { LocalEngine, LocalError, type LocalQuery, type LocalRecommendRequest } from './engine-host.js';
export { MAX_STORED_EVENTS } from './event-store.js';
