/**
 * The services object: every part of the service, built once by {@link createServices} and passed down to
 * the HTTP routers (and to tests). This file is the wiring of the service: what each part is given, and
 * which part listens to which event (`events.ts`). No part finds another through a global or a lookup.
 */
import { AbTests } from './abtests/service.js';
import { AnalyticsLog } from './analytics/log.js';
import { Clusters } from './clusters/service.js';
import type { ServiceConfig } from './config.js';
import { CrawlerService } from './crawler/service.js';
import { Dictionaries } from './dictionaries/dictionaries.js';
import { EventBus, type ServiceEvents } from './events.js';
import { Catalog } from './indices/catalog.js';
import { InsightsEvents } from './insights/events.js';
import { type Authorize, createAuthorizer } from './keys/authorizer.js';
import { RateLimiter } from './keys/rate-limit.js';
import { Keys } from './keys/keys.js';
import { Personalizer } from './personalization/personalizer.js';
import { QuerySuggestions } from './query-suggestions/service.js';
import { Recommender } from './recommend/recommender.js';
import { Search } from './search/search.js';
import type { Storage } from './storage/storage.js';
import type { AnalyticsReports, SearchLogStore } from './storage/types.js';
import { TaskQueue } from './tasks/queue.js';
import { rebuildMemory, replayChanges } from './tasks/replay.js';
import { UsageLog } from './usage/log.js';

export interface Services {
  readonly config: ServiceConfig;
  /** The service clock (Unix ms): Analytics times, default periods, rate-limit windows, A/B test ends. */
  readonly now: () => number;
  /** Events between parts; listeners are attached below, in {@link createServices}. */
  readonly events: EventBus<ServiceEvents>;
  readonly storage: Storage;
  /** The one path of every state write. */
  readonly tasks: TaskQueue;
  /** The indices (engine registry), their settings, replicas, rules and synonyms. */
  readonly catalog: Catalog;
  /** Custom dictionary entries and dictionary settings, shared by every index. */
  readonly dictionaries: Dictionaries;
  /** API keys created through `/1/keys`. */
  readonly keys: Keys;
  /** The key of a call, or a refusal. */
  readonly authorize: Authorize;
  /** The search pipeline: A/B routing, rules, the key's parameters, personalization, pins, logs. */
  readonly search: Search;
  /** Searches answered with `clickAnalytics`, for Insights events to refer to. */
  readonly searchLog: SearchLogStore;
  /** Stored Insights events. */
  readonly insights: InsightsEvents;
  /** The searches Analytics counts (written in batches). */
  readonly analyticsLog: AnalyticsLog;
  /** The Analytics figures. */
  readonly analytics: AnalyticsReports;
  /** Every API call, for Usage and Monitoring (written in batches). */
  readonly usage: UsageLog;
  readonly recommender: Recommender;
  readonly personalizer: Personalizer;
  readonly abTests: AbTests;
  readonly querySuggestions: QuerySuggestions;
  readonly clusters: Clusters;
  readonly crawler: CrawlerService;
}

/**
 * Builds every part over an opened storage (its state loaded into memory).
 *
 * @example
 * const services = await createServices(resolveConfig({}), new SqliteStorage(':memory:'), Date.now);
 * services.catalog.names(); // []
 * await closeServices(services);
 */
export async function createServices(config: ServiceConfig, storage: Storage, now: () => number): Promise<Services> {
  const events = new EventBus<ServiceEvents>();
  const tasks = new TaskQueue(storage.tasks);
  // Dictionaries first: the indices are built with their compound words.
  const dictionaries = await Dictionaries.load(storage.dictionaries, tasks, config.maxCustomDictionaryEntries);
  const catalog = await Catalog.load(storage.catalog, dictionaries.engine);
  const keys = await Keys.load(storage.keys, tasks, now);
  const { searchLog } = storage;
  const insights = new InsightsEvents(storage.events, searchLog, events);
  const analyticsLog = new AnalyticsLog(storage.analytics);
  const analytics = storage.analytics.reports;
  const recommender = new Recommender({ catalog, insights, now });
  const personalizer = await Personalizer.load({ store: storage.personalization, tasks, catalog, insights, now });
  const abTests = await AbTests.load({ store: storage.abTests, tasks, analytics, analyticsLog, now });
  // Replicas: the other replicas' writes reach this memory from here on (before this process's first write).
  // A replica that stalled past the log's pruning rebuilds this memory from the tables instead.
  const followed = { storage, catalog, dictionaries, keys, abTests, personalizer };
  storage.replication?.follow(
    (changes) => replayChanges(followed, changes),
    () => rebuildMemory({ ...followed, recommender }),
  );
  const querySuggestions = new QuerySuggestions({
    store: storage.querySuggestions,
    tasks,
    catalog,
    dictionaries: dictionaries.engine,
    analytics,
    analyticsLog,
    now,
    runOnce: storage.runOnce?.bind(storage),
  });
  const services: Services = {
    config,
    now,
    events,
    storage,
    tasks,
    catalog,
    dictionaries,
    keys,
    authorize: createAuthorizer({ ...config, keys, rateLimiter: new RateLimiter(now) }),
    search: new Search({ catalog, abTests, personalizer, searchLog, analyticsLog, now }),
    searchLog,
    insights,
    analyticsLog,
    analytics,
    usage: new UsageLog(storage.usage, async () => new Set((await querySuggestions.list()).map((c) => c.indexName))),
    recommender,
    personalizer,
    abTests,
    querySuggestions,
    clusters: new Clusters(storage.clusters, tasks, catalog),
    crawler: await CrawlerService.load(
      { store: storage.crawler, tasks, catalog, keys, config, now },
      // Crawls interrupted by a restart are ended only by a replica starting alone: with others live, a
      // pending task may be another replica's crawl in progress.
      { ...config.crawler, recover: !(await storage.replication?.othersLive()) },
    ),
  };

  // Replicas: caught up with the log, this process now counts for publishing tasks.
  await storage.replication?.join();

  // Who listens to what.
  events.on('insights:events', (stored) => {
    recommender.addStoredEvents(stored);
    personalizer.addStoredEvents(stored);
  });
  events.on('insights:usertoken-deleted', async ({ userToken }) => {
    // The models are rebuilt from the events left; the profile, built on this user's events only, goes;
    // the user's searches stay (they were searches) without the token.
    recommender.reset();
    personalizer.forget(userToken);
    await analyticsLog.forgetUser(userToken);
  });
  return services;
}

/**
 * Stops what runs in the background and writes what is queued, then closes the storage.
 *
 * @example
 * await closeServices(services);
 */
export async function closeServices(services: Services): Promise<void> {
  services.crawler.close();
  // Builds in progress end (or stop at their next pause) before the storage they write to closes.
  await services.querySuggestions.close();
  await services.analyticsLog.close();
  await services.usage.close();
  await services.storage.close();
}
