/**
 * The PostgreSQL storage of a service (`--database postgres://…`): a connection pool, the schema brought up
 * to date at open (`migrations.ts`), one store per area, the task store that commits a write with its log
 * entry, and the replication (`replication.ts`) that lets several services share the database as replicas.
 */
import pg, { type Pool, type PoolClient } from 'pg';
import type { Storage } from '../storage.js';
import { PgAbTests } from './abtests.js';
import { PgAnalytics } from './analytics.js';
import { PgCatalog } from './catalog.js';
import { PgClusters } from './clusters.js';
import { PgCrawler } from './crawler.js';
import { PgDictionaries } from './dictionaries.js';
import { PgEvents } from './events.js';
import { PgKeys } from './keys.js';
import { migratePostgres } from './migrations.js';
import { PgPersonalization } from './personalization.js';
import { PgQuerySuggestions } from './query-suggestions.js';
import { PgReplication, type ReplicationOptions } from './replication.js';
import { PgSearchLog } from './search-log.js';
import { PgTasks } from './tasks.js';
import { PgUsage } from './usage.js';

// BIGINT (Unix ms, ids, counts) and NUMERIC (sums) as numbers: every value the service stores fits in 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * @example
 * const storage = await PostgresStorage.open('postgres://svc@127.0.0.1:5432/svc', { id: 'a' });
 * await storage.catalog.indices();
 * await storage.close();
 */
export class PostgresStorage implements Storage {
  readonly kind = 'postgres';
  readonly pool: Pool;
  readonly replication: PgReplication;
  readonly catalog: PgCatalog;
  readonly tasks: PgTasks;
  readonly dictionaries: PgDictionaries;
  readonly keys: PgKeys;
  readonly abTests: PgAbTests;
  readonly personalization: PgPersonalization;
  readonly clusters: PgClusters;
  readonly crawler: PgCrawler;
  readonly searchLog: PgSearchLog;
  readonly events: PgEvents;
  readonly analytics: PgAnalytics;
  readonly usage: PgUsage;
  readonly querySuggestions: PgQuerySuggestions;
  #closing: Promise<void> | undefined;

  private constructor(pool: Pool, connectionString: string, options: ReplicationOptions) {
    this.pool = pool;
    this.replication = new PgReplication(pool, connectionString, options);
    const transaction = <T>(fn: (client: PoolClient) => Promise<T>) => this.transaction(fn);
    this.catalog = new PgCatalog(pool);
    this.dictionaries = new PgDictionaries(pool);
    this.keys = new PgKeys(pool);
    this.abTests = new PgAbTests(pool);
    this.personalization = new PgPersonalization(pool);
    this.clusters = new PgClusters(pool);
    this.crawler = new PgCrawler(pool);
    this.tasks = new PgTasks(pool, this.replication, {
      catalog: this.catalog,
      dictionaries: this.dictionaries,
      keys: this.keys,
      abTests: this.abTests,
      personalization: this.personalization,
      clusters: this.clusters,
      crawler: this.crawler,
    });
    this.searchLog = new PgSearchLog(pool);
    this.events = new PgEvents(pool, transaction);
    this.analytics = new PgAnalytics(pool, transaction);
    this.usage = new PgUsage(pool);
    this.querySuggestions = new PgQuerySuggestions(pool);
  }

  /** Connects, migrates, and registers this service as a replica (not ready until `replication.join()`). */
  static async open(connectionString: string, options: ReplicationOptions = {}): Promise<PostgresStorage> {
    const pool = new pg.Pool({ connectionString, max: 10, types });
    // An idle client losing its connection (the server restarted) must not take the process down.
    pool.on('error', () => undefined);
    try {
      await migratePostgres(pool);
      const storage = new PostgresStorage(pool, connectionString, options);
      await storage.replication.register();
      return storage;
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /** Runs `fn` in one transaction. */
  async transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Runs a job that must run on one replica at a time (`pg_try_advisory_lock` on `name`): false, without
   * running it, when another replica holds it.
   */
  async runOnce(name: string, job: () => Promise<void>): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
        name,
      ]);
      if (!rows[0]!.locked) return false;
      try {
        await job();
        return true;
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    } finally {
      client.release();
    }
  }

  file(): string | undefined {
    return undefined;
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Leaves the replica table and closes the connections (once, however often it is called). */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.replication.close();
      await this.pool.end();
    })();
    return this.#closing;
  }
}
