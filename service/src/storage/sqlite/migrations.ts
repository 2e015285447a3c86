/**
 * The schema of the SQLite database, as one ordered list of migrations. `migrate(db)` runs at every start
 * (`openDatabase`): it reads `PRAGMA user_version`, applies each later step in order, each in its own
 * transaction that also sets `user_version` to the step's number, so a crash between steps resumes at the
 * next one. A database never goes back: one whose version is above the last step (written by a newer
 * service) is refused.
 *
 * `openDatabaseWhenUnlocked` (`open.ts`) runs the same steps without SQLite's busy wait: each one takes the
 * write lock on a timer, for a start that meets another process holding it.
 *
 * Adding to the schema: append a step with the next number; never edit a step once released. Steps 1–3
 * adopt the databases written before this list existed (`user_version` 0, tables created by each area
 * `IF NOT EXISTS`, columns added by hand): those hold any state between "nothing" and "everything up to
 * step 3", so every statement of steps 1–3 is idempotent (`IF NOT EXISTS`, a column added only when
 * missing). From step 4 on, a step runs exactly once and needs no such care.
 *
 * The PostgreSQL backend keeps its own list of the same shape (one list per database kind).
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3, …: the `user_version` the database has once the step is applied. */
  version: number;
  /** What the step does, for the log and the reader. */
  name: string;
  up(db: Database.Database): void;
}

/** Adds a column when the table lacks it (steps that adopt pre-migration databases only). */
function addColumnIfMissing(db: Database.Database, table: string, column: string, type: string): void {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  if (!columns.some((existing) => existing.name === column))
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the tables of every area: catalog, tasks, keys, dictionaries, search log, Insights events, Analytics, Personalization, Query Suggestions, A/B tests, Usage, Crawler, multi-cluster, Recommend demo seed',
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS service_indices (
          name TEXT PRIMARY KEY,
          settings TEXT NOT NULL DEFAULT '{}',
          primary_index TEXT,
          replicas TEXT NOT NULL DEFAULT '[]',
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS service_records (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        CREATE TABLE IF NOT EXISTS service_tasks (
          task_id INTEGER PRIMARY KEY AUTOINCREMENT,
          index_name TEXT NOT NULL,
          kind TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          published_at INTEGER
        );
        CREATE TABLE IF NOT EXISTS service_search_log (
          query_id TEXT PRIMARY KEY,
          index_name TEXT NOT NULL,
          query TEXT NOT NULL,
          page INTEGER NOT NULL,
          hits_per_page INTEGER NOT NULL,
          object_ids TEXT NOT NULL,
          user_token TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS service_rules (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        CREATE TABLE IF NOT EXISTS service_synonyms (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        CREATE TABLE IF NOT EXISTS service_dictionary_entries (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          dictionary TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (dictionary, object_id)
        );
        CREATE TABLE IF NOT EXISTS service_dictionary_disabled (
          dictionary TEXT NOT NULL,
          language TEXT NOT NULL,
          PRIMARY KEY (dictionary, language)
        );
        CREATE TABLE IF NOT EXISTS service_keys (
          value TEXT PRIMARY KEY,
          acl TEXT NOT NULL,
          description TEXT NOT NULL DEFAULT '',
          validity INTEGER NOT NULL DEFAULT 0,
          max_hits_per_query INTEGER NOT NULL DEFAULT 0,
          max_queries_per_ip_per_hour INTEGER NOT NULL DEFAULT 0,
          query_parameters TEXT NOT NULL DEFAULT '',
          referers TEXT NOT NULL DEFAULT '[]',
          indexes TEXT,
          index_name TEXT,
          created_at INTEGER NOT NULL,
          deleted_at INTEGER
        );
        CREATE TABLE IF NOT EXISTS insights_events (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          event_type TEXT NOT NULL,
          event_name TEXT NOT NULL,
          index_name TEXT NOT NULL,
          user_token TEXT NOT NULL,
          timestamp INTEGER NOT NULL,
          received_at INTEGER NOT NULL,
          query_id TEXT,
          object_ids TEXT,
          filters TEXT,
          positions TEXT,
          search_index TEXT,
          search_query TEXT,
          search_at INTEGER,
          search_positions TEXT,
          fingerprint TEXT UNIQUE
        );
        CREATE INDEX IF NOT EXISTS insights_events_index_time ON insights_events (index_name, timestamp);
        CREATE INDEX IF NOT EXISTS insights_events_user_time ON insights_events (user_token, timestamp);
        CREATE INDEX IF NOT EXISTS insights_events_query ON insights_events (query_id);
        CREATE TABLE IF NOT EXISTS analytics_searches (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          index_name TEXT NOT NULL,
          ts INTEGER NOT NULL,
          query TEXT NOT NULL,
          nb_hits INTEGER NOT NULL,
          user_key TEXT NOT NULL,
          anonymous INTEGER NOT NULL,
          query_id TEXT,
          page INTEGER NOT NULL,
          hits_per_page INTEGER NOT NULL,
          object_ids TEXT NOT NULL,
          filters TEXT NOT NULL,
          tags TEXT NOT NULL,
          superseded INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS analytics_searches_index_ts ON analytics_searches (index_name, ts);
        CREATE INDEX IF NOT EXISTS analytics_searches_user ON analytics_searches (index_name, user_key, id);
        CREATE TABLE IF NOT EXISTS personalization_strategy (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          body TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS personalization_deletions (
          user_token TEXT PRIMARY KEY,
          deleted_until INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS query_suggestions_configs (
          index_name TEXT PRIMARY KEY,
          config TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          last_built_at INTEGER,
          last_success_at INTEGER,
          last_success_ms INTEGER,
          log TEXT
        );
        -- AUTOINCREMENT: the id of a deleted A/B test is never given again, so nothing recorded under it can
        -- be mistaken for a later test's.
        CREATE TABLE IF NOT EXISTS abtests_tests (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          status TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          end_at INTEGER NOT NULL,
          stopped_at INTEGER,
          variants TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS usage_calls (
          ts INTEGER NOT NULL,
          idx TEXT,
          op TEXT NOT NULL,
          app INTEGER NOT NULL,
          n INTEGER NOT NULL,
          ms REAL NOT NULL,
          status INTEGER NOT NULL,
          qs INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS usage_calls_ts ON usage_calls (ts);
        CREATE INDEX IF NOT EXISTS usage_calls_idx_ts ON usage_calls (idx, ts);
        CREATE TABLE IF NOT EXISTS crawler_crawlers (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          config TEXT NOT NULL,
          running INTEGER NOT NULL DEFAULT 0,
          reindexing INTEGER NOT NULL DEFAULT 0,
          blocked INTEGER NOT NULL DEFAULT 0,
          blocking_task_id TEXT,
          last_reindex_started_at INTEGER,
          last_reindex_ended_at INTEGER,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          seq INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS crawler_tasks (
          id TEXT PRIMARY KEY,
          crawler_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          pending INTEGER NOT NULL,
          outcome TEXT,
          message TEXT,
          created_at INTEGER NOT NULL,
          ended_at INTEGER
        );
        CREATE INDEX IF NOT EXISTS crawler_tasks_by_crawler ON crawler_tasks (crawler_id, kind, created_at);
        CREATE TABLE IF NOT EXISTS crawler_urls (
          crawler_id TEXT NOT NULL,
          generation TEXT NOT NULL,
          url TEXT NOT NULL,
          status TEXT NOT NULL,
          reason TEXT NOT NULL,
          category TEXT NOT NULL,
          readable TEXT NOT NULL,
          records TEXT NOT NULL DEFAULT '{}',
          PRIMARY KEY (crawler_id, generation, url)
        );
        CREATE TABLE IF NOT EXISTS crawler_domains (
          domain TEXT PRIMARY KEY,
          verified INTEGER NOT NULL,
          seq INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS clusters_mapping (
          user_id TEXT PRIMARY KEY,
          cluster_name TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS clusters_record_owners (
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          user_id TEXT NOT NULL,
          PRIMARY KEY (index_name, object_id)
        );
        CREATE INDEX IF NOT EXISTS clusters_record_owners_user ON clusters_record_owners (user_id);
        CREATE TABLE IF NOT EXISTS recommend_demo_seed (
          index_name TEXT PRIMARY KEY,
          seeded_at INTEGER NOT NULL,
          events INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    name: 'analytics_searches: the A/B test and variant a search was assigned (NULL: not in a test)',
    up(db) {
      addColumnIfMissing(db, 'analytics_searches', 'ab_test_id', 'INTEGER');
      addColumnIfMissing(db, 'analytics_searches', 'ab_test_variant', 'INTEGER');
      db.exec(
        'CREATE INDEX IF NOT EXISTS analytics_searches_ab_test ON analytics_searches (ab_test_id, ab_test_variant)',
      );
    },
  },
  {
    version: 3,
    name: "analytics_searches: the request's country, from a proxy's header (NULL: unknown)",
    up(db) {
      addColumnIfMissing(db, 'analytics_searches', 'country', 'TEXT');
    },
  },
  {
    version: 4,
    name: 'workers: the ordered task log, the workers following it, the tasks pointing at their entry, job leases',
    up(db) {
      db.exec(`
        CREATE TABLE service_log (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          replica TEXT NOT NULL,
          changes TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE service_replicas (
          id TEXT PRIMARY KEY,
          ready INTEGER NOT NULL DEFAULT 0,
          applied_seq INTEGER NOT NULL,
          started_at INTEGER NOT NULL,
          heartbeat_at INTEGER NOT NULL
        );
        CREATE TABLE service_jobs (
          name TEXT PRIMARY KEY,
          holder TEXT NOT NULL,
          since INTEGER NOT NULL
        );
        ALTER TABLE service_tasks ADD COLUMN log_seq INTEGER;
      `);
    },
  },
  {
    version: 5,
    name: 'workers: the highest task log entry pruned, so a worker that stalled past the pruning can tell',
    up(db) {
      // One row at most (id 1), raised by each pruning (`pruneLog`); none until entries are first pruned.
      db.exec(`
        CREATE TABLE service_log_pruned (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          seq INTEGER NOT NULL
        );
      `);
    },
  },
];

/** The version a database has once every step ran. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/**
 * Brings the database to {@link SCHEMA_VERSION}; returns the versions before and after.
 *
 * @example
 * migrate(db) // { from: 0, to: 3 } on a new database, { from: 3, to: 3 } afterwards
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): { from: number; to: number } {
  const from = schemaVersionOf(db, migrations);
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    db.transaction(() => applyStep(db, migration))();
  }
  return { from, to: Math.max(from, migrations.at(-1)?.version ?? 0) };
}

/**
 * The database's schema version (`PRAGMA user_version`); a database newer than the last of `migrations` is
 * refused.
 *
 * @example
 * schemaVersionOf(db) // 0 for a new file
 */
export function schemaVersionOf(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const last = migrations.at(-1)?.version ?? 0;
  if (version > last) {
    throw new Error(
      `The database is at schema version ${version}, newer than this service's ${last}: run a newer service, or start from an empty data directory`,
    );
  }
  return version;
}

/**
 * Applies one step and records its version, inside the caller's transaction. The version is read again
 * there: a step the database already has (another process ran it between the caller's read and its lock) is
 * skipped, so each step runs once, in order.
 *
 * @example
 * db.transaction(() => applyStep(db, MIGRATIONS[0]!)).immediate();
 */
export function applyStep(db: Database.Database, migration: Migration): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= migration.version) return;
  migration.up(db);
  db.pragma(`user_version = ${migration.version}`);
}
