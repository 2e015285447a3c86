/**
 * Who may read Usage and Monitoring (document 3, "Authentication"): the application's dedicated usage
 * key or monitoring key, and the admin API key (which holds every right). Dedicated keys are the keys named
 * by `createService({ usageKey, monitoringKey })` (`--usage-key`, `--monitoring-key`; none by default) and
 * keys made through `/1/keys` with the `usage` or `monitoring` right; they open nothing else unless their acl
 * says so. Every other key (search key, other keys, secured keys) is refused with 403.
 */
import type { Context } from 'hono';
import type { ServiceContext } from '../context.js';
import { authorizeOrUnauthorized, credentialsOf, indexAllowed } from '../http/auth.js';
import { HttpError } from '../http/errors.js';

export interface OperationalKeys {
  usageKey?: string | undefined;
  monitoringKey?: string | undefined;
}

const keys = new WeakMap<ServiceContext, OperationalKeys>();

/** Called once by `createService`. */
export function setOperationalKeys(ctx: ServiceContext, value: OperationalKeys): void {
  keys.set(ctx, { ...value });
}

/**
 * Throws `HttpError(403)` unless the request carries the application id and the admin key or the
 * dedicated key of `service`.
 *
 * @example
 * authorizeOperational(ctx, c, 'usage');
 */
export function authorizeOperational(
  ctx: ServiceContext,
  c: Context,
  service: 'usage' | 'monitoring',
  indexName?: string,
): void {
  const dedicated = keys.get(ctx)?.[service === 'usage' ? 'usageKey' : 'monitoringKey'];
  const { appId, apiKey } = credentialsOf(c);
  if (dedicated && appId === ctx.appId && apiKey === dedicated) return;
  const key = authorizeOrUnauthorized(ctx, c, 'any', undefined, 403); // missing credentials 401, wrong ones 403
  if (key.isAdmin) return;
  // A key made through /1/keys with the `usage` or `monitoring` right is a dedicated key (not a secured key
  // derived from one: those restrict searches). Restricted to indices, it reads those indices only.
  if (!key.acl.includes(service) || key.parent !== undefined) {
    throw new HttpError(
      403,
      `This API needs the ${service} key (a key with the ${service} right) or the admin API key`,
    );
  }
  if (key.indexes && (indexName === undefined || !indexAllowed(key, indexName))) {
    throw new HttpError(
      403,
      indexName === undefined
        ? 'This key is restricted to indices: it reads the statistics of those indices only'
        : `Index ${indexName} is not allowed with this API key`,
    );
  }
}
