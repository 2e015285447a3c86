/**
 * The SQLite storage of a service: one database file per data directory (`open.ts`), its schema brought up to
 * date at open (`migrations.ts`), one store per area, and the task store that commits a write's changes in one
 * transaction. Given a worker name, the process is one of several workers sharing the file
 * (`replication.ts`): writes go through the ordered log, and jobs that must run once take a lease.
 */
import type Database from 'better-sqlite3';
import type { Storage } from '../storage.js';
import { SqliteAbTests } from './abtests.js';
import { SqliteAnalytics } from './analytics/store.js';
import { SqliteCatalog } from './catalog.js';
import { SqliteClusters } from './clusters.js';
import { SqliteCrawler } from './crawler.js';
import { SqliteDictionaries } from './dictionaries.js';
import { SqliteEvents } from './events.js';
import { SqliteKeys } from './keys.js';
import { openDatabase } from './open.js';
import { SqlitePersonalization } from './personalization.js';
import { SqliteReplication, type SqliteReplicationOptions } from './replication.js';
import { SqliteQuerySuggestions } from './query-suggestions.js';
import { SqliteSearchLog } from './search-log.js';
import { SqliteTasks } from './tasks.js';
import { SqliteUsage } from './usage.js';

/**
 * @example
 * const storage = new SqliteStorage(':memory:');
 * await storage.catalog.indices(); // []
 * await storage.close();
 */
export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  /** better-sqlite3, WAL, synchronous FULL (for tests and tools that look at the file). */
  readonly db: Database.Database;
  readonly catalog: SqliteCatalog;
  readonly tasks: SqliteTasks;
  readonly dictionaries: SqliteDictionaries;
  readonly keys: SqliteKeys;
  readonly abTests: SqliteAbTests;
  readonly personalization: SqlitePersonalization;
  readonly clusters: SqliteClusters;
  readonly crawler: SqliteCrawler;
  readonly searchLog: SqliteSearchLog;
  readonly events: SqliteEvents;
  readonly analytics: SqliteAnalytics;
  readonly usage: SqliteUsage;
  readonly querySuggestions: SqliteQuerySuggestions;
  /** Workers only: this process's place in the ordered log. */
  readonly replication?: SqliteReplication;

  constructor(dataDir: string, options: { worker?: SqliteReplicationOptions } = {}) {
    const db = openDatabase(dataDir);
    this.db = db;
    if (options.worker) {
      if (db.memory) throw new Error('Workers share a database file: they need a data directory, not :memory:');
      this.replication = new SqliteReplication(db, options.worker);
      this.replication.register();
      this.runOnce = (name, job) => this.replication!.runOnce(name, job);
    }
    this.catalog = new SqliteCatalog(db);
    this.dictionaries = new SqliteDictionaries(db);
    this.keys = new SqliteKeys(db);
    this.abTests = new SqliteAbTests(db);
    this.personalization = new SqlitePersonalization(db);
    this.clusters = new SqliteClusters(db);
    this.crawler = new SqliteCrawler(db);
    this.tasks = new SqliteTasks(
      db,
      {
        catalog: this.catalog,
        dictionaries: this.dictionaries,
        keys: this.keys,
        abTests: this.abTests,
        personalization: this.personalization,
        clusters: this.clusters,
        crawler: this.crawler,
      },
      this.replication,
    );
    this.searchLog = new SqliteSearchLog(db, { shared: options.worker !== undefined });
    this.events = new SqliteEvents(db);
    this.analytics = new SqliteAnalytics(db);
    this.usage = new SqliteUsage(db);
    this.querySuggestions = new SqliteQuerySuggestions(
      db,
      options.worker?.writeLockWaitMs === undefined ? {} : { writeLockWaitMs: options.worker.writeLockWaitMs },
    );
  }

  /** Whether it is a database file (not `:memory:`), and where. */
  file(): string | undefined {
    return this.db.memory ? undefined : this.db.name;
  }

  async ping(): Promise<boolean> {
    return this.db.open && this.db.prepare('SELECT 1 AS one').get() !== undefined;
  }

  /** Workers: runs a job in one worker at a time (see `SqliteReplication.runOnce`). Absent: one process. */
  readonly runOnce?: (name: string, job: () => Promise<void>) => Promise<boolean>;

  async close(): Promise<void> {
    // The search log's rows still waiting for the write lock are written first (waiting for it on a timer).
    await this.searchLog.close();
    await this.replication?.close();
    if (this.db.open) this.db.close();
  }
}
