/**
 * Hooks the demo history seeding to the service: `createService({ demo: true })` emits `'demo'` after it
 * installed (or found) the demo catalogue, and the order history is written as events once per database —
 * and kept recent: at start, and on a Recommend request once the clock passed the next day, a history whose
 * latest order is older than yesterday is moved forward (`refreshDemoHistory`) and the models are rebuilt.
 */
import type { ServiceContext } from '../context.js';
import { loadSuperstore } from '../datasets/superstore.js';
import { isSeeded, latestDemoEvent, refreshDemoHistory, seedDemoHistory } from './demo-seed.js';
import { getRecommender } from './recommender.js';

const DAY = 24 * 3600 * 1000;

/**
 * Listens for the service's `'demo'` signal, seeds the superstore order history into its index (once per
 * database) and keeps it recent while the service runs.
 * @example seedDemoFromCatalogue(ctx) // in the Recommend router's register()
 */
export function seedDemoFromCatalogue(ctx: ServiceContext): void {
  ctx.on('demo', (payload) => {
    const indexName = (payload as { indexName?: unknown } | undefined)?.indexName;
    if (typeof indexName !== 'string') return;
    const recommender = getRecommender(ctx);
    if (!isSeeded(ctx, indexName)) seedDemoHistory(ctx, indexName, loadSuperstore().orderLines, recommender.now());
    // The day of the latest demo event, known without a query on each request.
    let latestDay = -Infinity;
    const refresh = (now: number) => {
      if (refreshDemoHistory(ctx, indexName, now)) recommender.reset();
      const latest = latestDemoEvent(ctx, indexName);
      latestDay = latest === undefined ? Infinity : Math.floor(latest / DAY);
    };
    refresh(recommender.now());
    recommender.beforeUse((now) => {
      if (Math.floor(now / DAY) - 1 > latestDay) refresh(now);
    });
  });
}
