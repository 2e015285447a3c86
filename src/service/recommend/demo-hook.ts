/**
 * Hooks the demo history seeding to the service: `createService({ demo: true })` emits `'demo'` after it
 * installed (or found) the demo catalogue, and the order history is written as events once per database.
 */
import type { ServiceContext } from '../context.js';
import { loadSuperstore } from '../datasets/superstore.js';
import { isSeeded, seedDemoHistory } from './demo-seed.js';

/**
 * Listens for the service's `'demo'` signal and seeds the superstore order history into its index.
 * @example seedDemoFromCatalogue(ctx) // in the Recommend router's register()
 */
export function seedDemoFromCatalogue(ctx: ServiceContext): void {
  ctx.on('demo', (payload) => {
    const indexName = (payload as { indexName?: unknown } | undefined)?.indexName;
    if (typeof indexName !== 'string' || isSeeded(ctx, indexName)) return;
    seedDemoHistory(ctx, indexName, loadSuperstore().orderLines);
  });
}
