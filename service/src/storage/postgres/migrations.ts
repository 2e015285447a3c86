/**
 * The schema of the PostgreSQL database, as one ordered list of migrations: the same mechanism as SQLite's
 * (`../sqlite/migrations.ts`), with the version kept in a one-row table (`service_schema`) instead of
 * `PRAGMA user_version`. `migrate(pool)` runs at every start; each step runs in its own transaction that also
 * sets the version, under an advisory lock so replicas starting together migrate once. A database whose
 * version is above the last step (written by a newer service) is refused.
 *
 * Adding to the schema: append a step with the next number; never edit a step once released.
 *
 * Types: times are Unix milliseconds (`BIGINT`); JSON is kept as `TEXT`, exactly as written (`JSONB` would
 * reorder a record's attributes, and the API answers them in the order they were sent).
 */
import type { Pool, PoolClient } from 'pg';

export interface PgMigration {
  /** 1, 2, 3, …: the version the database has once the step is applied. */
  version: number;
  name: string;
  up(client: PoolClient): Promise<void>;
}

/** The advisory lock key of migrations (any constant the service uses for nothing else). */
const MIGRATION_LOCK = 7_240_001;

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'the tables of every area, the ordered task log and the replicas following it',
    async up(client) {
      await client.query(`
        CREATE TABLE service_indices (
          name TEXT PRIMARY KEY,
          settings TEXT NOT NULL DEFAULT '{}',
          primary_index TEXT,
          replicas TEXT NOT NULL DEFAULT '[]',
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE service_records (
          seq BIGSERIAL PRIMARY KEY,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        CREATE TABLE service_rules (
          seq BIGSERIAL PRIMARY KEY,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        CREATE TABLE service_synonyms (
          seq BIGSERIAL PRIMARY KEY,
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (index_name, object_id)
        );
        -- The ordered task log: one entry per committed write, its changes as JSON, in commit order (writes
        -- commit one at a time under an advisory lock, so seq order is commit order).
        CREATE TABLE service_log (
          seq BIGSERIAL PRIMARY KEY,
          replica TEXT NOT NULL,
          changes TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE service_tasks (
          task_id BIGSERIAL PRIMARY KEY,
          index_name TEXT NOT NULL,
          kind TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          log_seq BIGINT NOT NULL
        );
        -- Every replica: the last log entry it applied to its memory and when it last said it was alive.
        CREATE TABLE service_replicas (
          id TEXT PRIMARY KEY,
          url TEXT,
          ready BOOLEAN NOT NULL DEFAULT FALSE,
          applied_seq BIGINT NOT NULL,
          started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE service_search_log (
          query_id TEXT PRIMARY KEY,
          index_name TEXT NOT NULL,
          query TEXT NOT NULL,
          page INTEGER NOT NULL,
          hits_per_page INTEGER NOT NULL,
          object_ids TEXT NOT NULL,
          user_token TEXT,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE service_dictionary_entries (
          seq BIGSERIAL PRIMARY KEY,
          dictionary TEXT NOT NULL,
          object_id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (dictionary, object_id)
        );
        CREATE TABLE service_dictionary_disabled (
          dictionary TEXT NOT NULL,
          language TEXT NOT NULL,
          PRIMARY KEY (dictionary, language)
        );
        CREATE TABLE service_keys (
          value TEXT PRIMARY KEY,
          acl TEXT NOT NULL,
          description TEXT NOT NULL DEFAULT '',
          validity BIGINT NOT NULL DEFAULT 0,
          max_hits_per_query BIGINT NOT NULL DEFAULT 0,
          max_queries_per_ip_per_hour BIGINT NOT NULL DEFAULT 0,
          query_parameters TEXT NOT NULL DEFAULT '',
          referers TEXT NOT NULL DEFAULT '[]',
          indexes TEXT,
          index_name TEXT,
          created_at BIGINT NOT NULL,
          deleted_at BIGINT
        );
        CREATE TABLE insights_events (
          id BIGSERIAL PRIMARY KEY,
          event_type TEXT NOT NULL,
          event_name TEXT NOT NULL,
          index_name TEXT NOT NULL,
          user_token TEXT NOT NULL,
          timestamp BIGINT NOT NULL,
          received_at BIGINT NOT NULL,
          query_id TEXT,
          object_ids TEXT,
          filters TEXT,
          positions TEXT,
          search_index TEXT,
          search_query TEXT,
          search_at BIGINT,
          search_positions TEXT,
          fingerprint TEXT UNIQUE
        );
        CREATE INDEX insights_events_index_time ON insights_events (index_name, timestamp);
        CREATE INDEX insights_events_user_time ON insights_events (user_token, timestamp);
        CREATE INDEX insights_events_query ON insights_events (query_id);
        CREATE TABLE analytics_searches (
          id BIGSERIAL PRIMARY KEY,
          index_name TEXT NOT NULL,
          ts BIGINT NOT NULL,
          query TEXT NOT NULL,
          nb_hits BIGINT NOT NULL,
          user_key TEXT NOT NULL,
          anonymous INTEGER NOT NULL,
          query_id TEXT,
          page INTEGER NOT NULL,
          hits_per_page INTEGER NOT NULL,
          object_ids TEXT NOT NULL,
          filters TEXT NOT NULL,
          tags TEXT NOT NULL,
          superseded INTEGER NOT NULL DEFAULT 0,
          ab_test_id BIGINT,
          ab_test_variant INTEGER,
          country TEXT
        );
        CREATE INDEX analytics_searches_index_ts ON analytics_searches (index_name, ts);
        CREATE INDEX analytics_searches_user ON analytics_searches (index_name, user_key, id);
        CREATE INDEX analytics_searches_ab_test ON analytics_searches (ab_test_id, ab_test_variant);
        CREATE TABLE personalization_strategy (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          body TEXT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE personalization_deletions (
          user_token TEXT PRIMARY KEY,
          deleted_until BIGINT NOT NULL
        );
        CREATE TABLE query_suggestions_configs (
          index_name TEXT PRIMARY KEY,
          config TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          last_built_at BIGINT,
          last_success_at BIGINT,
          last_success_ms DOUBLE PRECISION,
          log TEXT
        );
        -- BIGSERIAL never gives an id twice: nothing recorded under a deleted test is mistaken for a later one's.
        CREATE TABLE abtests_tests (
          id BIGSERIAL PRIMARY KEY,
          name TEXT NOT NULL,
          status TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          end_at BIGINT NOT NULL,
          stopped_at BIGINT,
          variants TEXT NOT NULL
        );
        CREATE TABLE usage_calls (
          ts BIGINT NOT NULL,
          idx TEXT,
          op TEXT NOT NULL,
          app INTEGER NOT NULL,
          n INTEGER NOT NULL,
          ms DOUBLE PRECISION NOT NULL,
          status INTEGER NOT NULL,
          qs INTEGER NOT NULL
        );
        CREATE INDEX usage_calls_ts ON usage_calls (ts);
        CREATE INDEX usage_calls_idx_ts ON usage_calls (idx, ts);
        CREATE TABLE crawler_crawlers (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          config TEXT NOT NULL,
          running BOOLEAN NOT NULL DEFAULT FALSE,
          reindexing BOOLEAN NOT NULL DEFAULT FALSE,
          blocked BOOLEAN NOT NULL DEFAULT FALSE,
          blocking_task_id TEXT,
          last_reindex_started_at BIGINT,
          last_reindex_ended_at BIGINT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          seq BIGSERIAL
        );
        CREATE TABLE crawler_tasks (
          id TEXT PRIMARY KEY,
          crawler_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          pending BOOLEAN NOT NULL,
          outcome TEXT,
          message TEXT,
          created_at BIGINT NOT NULL,
          ended_at BIGINT
        );
        CREATE INDEX crawler_tasks_by_crawler ON crawler_tasks (crawler_id, kind, created_at);
        CREATE TABLE crawler_urls (
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
        CREATE TABLE crawler_domains (
          domain TEXT PRIMARY KEY,
          verified BOOLEAN NOT NULL,
          seq BIGSERIAL
        );
        CREATE TABLE clusters_mapping (
          user_id TEXT PRIMARY KEY,
          cluster_name TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE clusters_record_owners (
          index_name TEXT NOT NULL,
          object_id TEXT NOT NULL,
          user_id TEXT NOT NULL,
          PRIMARY KEY (index_name, object_id)
        );
        CREATE INDEX clusters_record_owners_user ON clusters_record_owners (user_id);
        CREATE TABLE recommend_demo_seed (
          index_name TEXT PRIMARY KEY,
          seeded_at BIGINT NOT NULL,
          events BIGINT NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    name: 'the highest task log entry pruned, so a replica that stalled past the pruning can tell',
    async up(client) {
      // One row at most (id 1), raised by each pruning (`pruneLog`); none until entries are first pruned.
      await client.query(`
        CREATE TABLE service_log_pruned (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          seq BIGINT NOT NULL
        );
      `);
    },
  },
];

/** The version a database has once every step ran. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.at(-1)!.version;

/**
 * Brings the database to {@link PG_SCHEMA_VERSION}; returns the versions before and after.
 *
 * @example
 * await migratePostgres(pool) // { from: 0, to: 1 } on a new database, { from: 1, to: 1 } afterwards
 */
export async function migratePostgres(
  pool: Pool,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<{ from: number; to: number }> {
  const client = await pool.connect();
  try {
    // Replicas starting together: one migrates, the others wait and then find nothing to do.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS service_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)',
    );
    const row = (await client.query('SELECT version FROM service_schema WHERE id = 1')).rows[0] as
      | { version: number }
      | undefined;
    const from = row?.version ?? 0;
    const last = migrations.at(-1)?.version ?? 0;
    if (from > last) {
      throw new Error(
        `The database is at schema version ${from}, newer than this service's ${last}: run a newer service, or start from an empty database`,
      );
    }
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query('BEGIN');
      try {
        await migration.up(client);
        await client.query(
          `INSERT INTO service_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
          [migration.version],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return { from, to: Math.max(from, last) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
