/**
 * What a storage backend provides: one store per area (`types.ts`) and the task store through which every
 * state write is committed. SQLite (`sqlite/storage.ts`, the default) and PostgreSQL (`postgres/storage.ts`); `createServices` takes either.
 */
import type {
  AbTestStore,
  Change,
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

export interface StorageReplication {
  /** This replica's name. */
  readonly id: string;
  /**
   * Sets what applies a log entry's changes (another process's write) to this process's memory, and what
   * rebuilds that memory from storage when the entries it needs next were pruned (a replica that stalled).
   */
  follow(follower: (changes: readonly Change[]) => Promise<void>, rebuild?: () => Promise<void>): void;
  /** Whether this process counts for publishing: false while it starts, or rebuilds its memory. */
  readonly ready: boolean;
  /** Catches up with the log and starts counting for publishing (after the memory is built). */
  join(): Promise<void>;
  /** Whether another process is live on the storage. */
  othersLive(): Promise<boolean>;
  /** Catches up with the log soon (a process's wake-up when another one committed; several make one). */
  wake(): void;
}

export interface Storage {
  /** `'sqlite'` (the default) or `'postgres'`. */
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
  /**
   * Present when several processes share the storage as replicas (PostgreSQL, or SQLite workers): how this process applies the
   * others' writes to its memory, and when it starts counting for publishing.
   */
  readonly replication?: StorageReplication;
  /**
   * Runs a job that must run in one process at a time among those sharing the storage; resolves false,
   * without running it, when another process runs it. Absent: this process is alone (run the job).
   */
  runOnce?(name: string, job: () => Promise<void>): Promise<boolean>;
  /** The database file, when there is one on this machine (Monitoring's disk figures). */
  file(): string | undefined;
  /** Whether the database answers (Monitoring's status). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
