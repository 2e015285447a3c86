/**
 * Who may read Usage and Monitoring (document 3, "Authentication"): the application's dedicated usage
 * key or monitoring key, and the admin API key (which holds every right). Dedicated keys are the keys named
 * by `createService({ usageKey, monitoringKey })` (`--usage-key`, `--monitoring-key`; none by default) and
 * keys made through `/1/keys` with the `usage` or `monitoring` right; they open nothing else unless their acl
 * says so. Every other key (search key, other keys, secured keys) is refused with 403.
 */
import { asUnauthorized, ServiceError } from '../errors.js';
import { type Authorize, type Caller, indexAllowed } from '../keys/authorizer.js';
import type { KeyInfo } from '../keys/types.js';

export interface OperationalKeys {
  appId: string;
  usageKey?: string | undefined;
  monitoringKey?: string | undefined;
}

/**
 * Throws a `ServiceError` (401 without credentials, 403 otherwise) unless the call carries the application id
 * and the admin key or the dedicated key of `service`.
 *
 * @example
 * authorizeOperational(services.authorize, services.config, caller, 'usage');
 */
export function authorizeOperational(
  authorize: Authorize,
  keys: OperationalKeys,
  caller: Caller,
  service: 'usage' | 'monitoring',
  indexName?: string,
): void {
  const dedicated = keys[service === 'usage' ? 'usageKey' : 'monitoringKey'];
  if (dedicated && caller.appId === keys.appId && caller.apiKey === dedicated) return;
  let key: KeyInfo;
  try {
    key = authorize(caller, 'any');
  } catch (error) {
    throw asUnauthorized(error, 403); // missing credentials 401, wrong ones 403
  }
  if (key.isAdmin) return;
  // A key made through /1/keys with the `usage` or `monitoring` right is a dedicated key (not a secured key
  // derived from one: those restrict searches). Restricted to indices, it reads those indices only.
  if (!key.acl.includes(service) || key.parent !== undefined) {
    throw new ServiceError(
      403,
      `This API needs the ${service} key (a key with the ${service} right) or the admin API key`,
    );
  }
  if (key.indexes && (indexName === undefined || !indexAllowed(key, indexName))) {
    throw new ServiceError(
      403,
      indexName === undefined
        ? 'This key is restricted to indices: it reads the statistics of those indices only'
        : `Index ${indexName} is not allowed with this API key`,
    );
  }
}
