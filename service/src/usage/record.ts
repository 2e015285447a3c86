/**
 * The Usage call log of a service (one per context): created on first use, written when the service closes.
 */
import type { ServiceContext } from '../context.js';
import { UsageLog } from '../storage/usage-log.js';

const logs = new WeakMap<ServiceContext, UsageLog>();

/**
 * @example
 * getUsageLog(ctx).rows(start, end);
 */
export function getUsageLog(ctx: ServiceContext): UsageLog {
  let log = logs.get(ctx);
  if (!log) {
    const created = new UsageLog(ctx.db);
    ctx.on('close', () => created.close());
    logs.set(ctx, created);
    log = created;
  }
  return log;
}
