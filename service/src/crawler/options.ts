/**
 * The crawler credentials and registered domains of one service (`createService({ crawlerUserId,
 * crawlerApiKey, crawlerDomains })`), and the one `CrawlerService` of that service.
 */
import type { ServiceContext } from '../context.js';
import { CrawlerService, type CrawlerOptions } from './service.js';

const options = new WeakMap<ServiceContext, CrawlerOptions>();
const services = new WeakMap<ServiceContext, CrawlerService>();

/** Called once by `createService`, before the routers are registered. */
export function setCrawlerOptions(ctx: ServiceContext, value: CrawlerOptions): void {
  options.set(ctx, { ...value, domains: [...value.domains] });
}

/**
 * The crawlers of the service (created on first use; recovers what a restart interrupted).
 *
 * @example
 * getCrawlers(ctx).require(id).running
 */
export function getCrawlers(ctx: ServiceContext): CrawlerService {
  let service = services.get(ctx);
  if (!service) {
    const value = options.get(ctx);
    if (!value) throw new Error('createService did not set the crawler options');
    service = new CrawlerService(ctx, value);
    services.set(ctx, service);
  }
  return service;
}
