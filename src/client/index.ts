/**
 * The search client (browser and Node). Secured API keys are made on a server with the parent key:
 * `generateSecuredApiKey` is in the service package (`@svc-search/service/secured-key`), not here.
 */
export {
  createClient,
  computeHosts,
  DEFAULT_DOMAIN,
  DEFAULT_FALLBACK_DOMAIN,
  DEFAULT_TIMEOUTS,
  DEFAULT_HOST_DOWN_MS,
} from './client.js';
export { ApiError, RetryError, type HostAttempt } from './api-errors.js';
export { LruCache, DEFAULT_CACHE_MAX_ENTRIES, DEFAULT_CACHE_TTL_MS } from './cache.js';
export { serializeParams } from './params.js';
export type * from './types.js';
