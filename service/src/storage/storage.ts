/**
 * What a storage backend provides: one store per area (`types.ts`) and the task store through which every
 * state write is committed. SQLite (`sqlite/storage.ts`) is the one backend today; `createServices` takes any.
 */
import type {
  AbTestStore,
  AnalyticsStore,
  CatalogStore,
  ClusterStore,
  CrawlerStore,
  DictionaryStore,
  EventStore,
  KeyStore,
  PersonalizationStore,
  QuerySuggestionsStore,
  SearchLogStore,
  TaskStore,
  UsageStore,
} from './types.js';

export interface Storage {
  /** `'sqlite'` (the default); a PostgreSQL backend would say `'postgres'`. */
  readonly kind: string;
  readonly catalog: CatalogStore;
  /** Commits a write's changes (of any area) with its task rows, in one transaction. */
  readonly tasks: TaskStore;
  readonly dictionaries: DictionaryStore;
  readonly keys: KeyStore;
  readonly abTests: AbTestStore;
  readonly personalization: PersonalizationStore;
  readonly clusters: ClusterStore;
  readonly crawler: CrawlerStore;
  readonly searchLog: SearchLogStore;
  readonly events: EventStore;
  readonly analytics: AnalyticsStore;
  readonly usage: UsageStore;
  readonly querySuggestions: QuerySuggestionsStore;
  /** The database file, when there is one on this machine (Monitoring's disk figures). */
  file(): string | undefined;
  /** Whether the database answers (Monitoring's status). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
