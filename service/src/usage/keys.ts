/**
 * Who may read Usage and Monitoring (document 3, "Authentication"): the application's dedicated usage
 * key or monitoring key, and the admin API key (which holds every right). Locally the dedicated keys are
 * `createService({ usageKey, monitoringKey })` (none by default); they open nothing else. Every other key
 * of the application (search key, keys made through `/1/keys`, secured keys) is refused with 403.
 */
import type { Context } from 'hono';
import type { ServiceContext } from '../context.js';
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
export function authorizeOperational(ctx: ServiceContext, c: Context, service: 'usage' | 'monitoring'): void {
  const dedicated = keys.get(ctx)?.[service === 'usage' ? 'usageKey' : 'monitoringKey'];
  const appId = c.req.header('x-service-application-id');
  const apiKey = c.req.header('x-service-api-key');
  if (dedicated && appId === ctx.appId && apiKey === dedicated) return;
  const key = ctx.authorize(c, 'any'); // 403 for wrong or missing credentials
  if (!key.isAdmin) throw new HttpError(403, `This API needs the ${service} key or the admin API key`);
}
