/**
 * The demo's order history for Recommend: `createService({ demo: true })` calls {@link seedRecommendDemo} after
 * it installed (or found) the demo catalogue. The order history is written as events once per database — and
 * kept recent: at start, and on a Recommend request once the clock passed the next day, a history whose latest
 * order is older than yesterday is moved forward (`refreshDemoHistory`) and the models are rebuilt.
 */
import { loadSuperstore } from '../datasets/superstore.js';
import {
  type DemoSeedDependencies,
  isSeeded,
  latestDemoEvent,
  refreshDemoHistory,
  seedDemoHistory,
} from './demo-seed.js';
import type { Recommender } from './recommender.js';

const DAY = 24 * 3600 * 1000;

/**
 * Seeds the superstore order history into `indexName` (once per database) and keeps it recent while the
 * service runs.
 *
 * @example
 * await seedRecommendDemo({ eventStore, catalog, recommender }, 'products');
 */
export async function seedRecommendDemo(
  deps: DemoSeedDependencies & { recommender: Recommender },
  indexName: string,
): Promise<void> {
  const { recommender } = deps;
  if (!(await isSeeded(deps, indexName)))
    await seedDemoHistory(deps, indexName, loadSuperstore().orderLines, recommender.now());
  // The day of the latest demo event, known without a query on each request.
  let latestDay = Number.NEGATIVE_INFINITY;
  const refresh = async (now: number) => {
    if (await refreshDemoHistory(deps, indexName, now)) recommender.reset();
    const latest = await latestDemoEvent(deps, indexName);
    latestDay = latest === undefined ? Number.POSITIVE_INFINITY : Math.floor(latest / DAY);
  };
  await refresh(recommender.now());
  recommender.beforeUse(async (now) => {
    if (Math.floor(now / DAY) - 1 > latestDay) await refresh(now);
  });
}
