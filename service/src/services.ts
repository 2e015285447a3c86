/**
 * The services object: every part of the service, built once by {@link createServices} and passed down to
 * the HTTP routers (and to tests). This file is the wiring of the service: what each part is given, and
 * which part listens to which event (`events.ts`). No part finds another through a global or a lookup.
 */
import { AbTests } from './abtests/service.js';
import { AnalyticsReports } from './analytics/reports.js';
import { type ServiceConfig } from './config.js';
import { Clusters } from './clusters/service.js';
import { CrawlerService } from './crawler/service.js';
import { EventBus, type ServiceEvents } from './events.js';
import { EventStore } from './insights/event-store.js';
import { type Authorize, createAuthorizer } from './keys/authorizer.js';
import { Personalizer } from './personalization/personalizer.js';
import { QuerySuggestions } from './query-suggestions/service.js';
import { Recommender } from './recommend/recommender.js';
import { AnalyticsLog } from './storage/analytics-log.js';
import { Catalog } from './storage/catalog.js';
import { DictionaryStore } from './storage/dictionaries.js';
import { KeyStore } from './storage/keys.js';
import { PersonalizationStore } from './storage/personalization.js';
import { AbTestStore } from './storage/abtests.js';
import { QuerySuggestionsStore } from './storage/query-suggestions.js';
import { CrawlerStore } from './storage/crawler.js';
import { createSearchLog } from './storage/search-log.js';
import { SqliteStorage } from './storage/sqlite/storage.js';
import type { SearchLog } from './storage/search-log.js';
import { UsageLog } from './storage/usage-log.js';

export interface Services {
  readonly config: ServiceConfig;
  /** The service clock (Unix ms): Analytics times, default periods, rate-limit windows, A/B test ends. */
  readonly now: () => number;
  /** Events between parts; listeners are attached below, in {@link createServices}. */
  readonly events: EventBus<ServiceEvents>;
  readonly storage: SqliteStorage;
  /** The indices (engine registry), their settings, replicas, rules, synonyms and tasks. */
  readonly catalog: Catalog;
  /** Custom dictionary entries and dictionary settings, shared by every index. */
  readonly dictionaries: DictionaryStore;
  /** API keys created through `/1/keys`. */
  readonly keys: KeyStore;
  /** The key of a call, or a refusal. */
  readonly authorize: Authorize;
  /** Searches answered with `clickAnalytics`, for Insights events to refer to. */
  readonly searchLog: SearchLog;
  /** Stored Insights events. */
  readonly insights: EventStore;
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
 * Opens the storage and builds every part.
 *
 * @example
 * const services = await createServices(resolveConfig({ dataDir: ':memory:' }), Date.now);
 * services.catalog.names(); // []
 * await closeServices(services);
 */
export async function createServices(config: ServiceConfig, now: () => number): Promise<Services> {
  const storage = new SqliteStorage(config.dataDir);
  const { db } = storage;
  const events = new EventBus<ServiceEvents>();
  // Dictionaries first: the indices are built with their compound words.
  const dictionaries = new DictionaryStore(db, undefined, config.maxCustomDictionaryEntries);
  dictionaries.load();
  const catalog = new Catalog(db, dictionaries.dictionaries);
  catalog.load();
  const keys = new KeyStore(db);
  const searchLog = createSearchLog(db);
  const insights = new EventStore(db, searchLog, events);
  const analyticsLog = new AnalyticsLog(db);
  const analytics = new AnalyticsReports(db);
  const recommender = new Recommender({ catalog, insights, now });
  const personalizer = new Personalizer({ store: new PersonalizationStore(db), catalog, insights, now });
  const services: Services = {
    config,
    now,
    events,
    storage,
    catalog,
    dictionaries,
    keys,
    authorize: createAuthorizer({ ...config, keys }),
    searchLog,
    insights,
    analyticsLog,
    analytics,
    usage: new UsageLog(db),
    recommender,
    personalizer,
    abTests: new AbTests({ store: new AbTestStore(db), analytics, analyticsLog, now }),
    querySuggestions: new QuerySuggestions({
      store: new QuerySuggestionsStore(db),
      catalog,
      dictionaries: dictionaries.dictionaries,
      analytics,
      analyticsLog,
      now,
    }),
    clusters: new Clusters(db, catalog),
    crawler: new CrawlerService({ store: new CrawlerStore(db), catalog, keys, config, now }, config.crawler),
  };

  // Who listens to what.
  events.on('insights:events', (stored) => {
    recommender.addStoredEvents(stored);
    personalizer.addStoredEvents(stored);
  });
  events.on('insights:usertoken-deleted', ({ userToken }) => {
    // The models are rebuilt from the events left; the profile, built on this user's events only, goes;
    // the user's searches stay (they were searches) without the token.
    recommender.reset();
    personalizer.forget(userToken);
    analyticsLog.forgetUser(userToken);
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
  services.querySuggestions.close();
  services.analyticsLog.close();
  services.usage.close();
  services.storage.close();
}
