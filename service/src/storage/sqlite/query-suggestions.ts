/**
 * Durability of the Query Suggestions configurations (document 2) and of what their last build left:
 * one row per configuration in `query_suggestions_configs` — the configuration (JSON, defaults filled),
 * when it was created and updated, when its suggestions index was last built (and last built without
 * error, and how long that took) and the log of the last build (JSON Lines, as `GET /1/logs/{indexName}`
 * answers it).
 *
 * Each write takes the file's write lock without SQLite's busy wait (with workers another process may hold it:
 * the busy wait would block this worker's searches): a configuration's change waits on a timer and is refused
 * with a 503 after the client's bound (`writeWhenUnlocked`); a build's outcome, written by no request, waits up
 * to a minute (`commitWhenUnlocked`).
 */
import type Database from 'better-sqlite3';
import { buildOutcomeOf, type SuggestionsConfigRow, suggestionsConfigOf } from '../rows.js';
import type { BuildOutcome, QuerySuggestionsStore, StoredSuggestionsConfig } from '../types.js';
import { commitWhenUnlocked, WRITE_LOCK_WAIT_MS, writeWhenUnlocked } from './open.js';

/**
 * @example
 * const store = new SqliteQuerySuggestions(db);
 * await store.save(config, Date.now());
 * (await store.get('products_query_suggestions'))?.config.indexName // 'products_query_suggestions'
 */
export class SqliteQuerySuggestions implements QuerySuggestionsStore {
  readonly #db: Database.Database;
  /** How long a configuration's change waits for the file's write lock before its 503 (a client's write). */
  readonly #writeLockWaitMs: number;
  readonly #stmt;

  constructor(db: Database.Database, { writeLockWaitMs = WRITE_LOCK_WAIT_MS }: { writeLockWaitMs?: number } = {}) {
    this.#db = db;
    this.#writeLockWaitMs = writeLockWaitMs;
    this.#stmt = {
      all: db.prepare('SELECT * FROM query_suggestions_configs ORDER BY created_at, index_name'),
      one: db.prepare('SELECT * FROM query_suggestions_configs WHERE index_name = ?'),
      count: db.prepare('SELECT COUNT(*) AS n FROM query_suggestions_configs'),
      upsert: db.prepare(
        `INSERT INTO query_suggestions_configs (index_name, config, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (index_name) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare('DELETE FROM query_suggestions_configs WHERE index_name = ?'),
      built: db.prepare(
        `UPDATE query_suggestions_configs SET last_built_at = @builtAt, log = @log,
           last_success_at = CASE WHEN @success THEN @builtAt ELSE last_success_at END,
           last_success_ms = CASE WHEN @success THEN @durationMs ELSE last_success_ms END
         WHERE index_name = @indexName`,
      ),
    };
  }

  async list(): Promise<StoredSuggestionsConfig[]> {
    return (this.#stmt.all.all() as SuggestionsConfigRow[]).map(suggestionsConfigOf);
  }

  async get(indexName: string): Promise<StoredSuggestionsConfig | undefined> {
    const row = this.#stmt.one.get(indexName) as SuggestionsConfigRow | undefined;
    return row ? suggestionsConfigOf(row) : undefined;
  }

  async count(): Promise<number> {
    return (this.#stmt.count.get() as { n: number }).n;
  }

  /** Creates or replaces a configuration (its build outcome is kept). */
  async save(config: StoredSuggestionsConfig['config'], now: number): Promise<void> {
    await writeWhenUnlocked(
      this.#db,
      () => this.#stmt.upsert.run(config.indexName, JSON.stringify(config), now, now),
      this.#writeLockWaitMs,
    );
  }

  /** Removes a configuration and its build outcome; false when there was none. */
  async remove(indexName: string): Promise<boolean> {
    return (
      (await writeWhenUnlocked(this.#db, () => this.#stmt.remove.run(indexName), this.#writeLockWaitMs)).changes > 0
    );
  }

  async outcome(indexName: string): Promise<BuildOutcome | undefined> {
    const row = this.#stmt.one.get(indexName) as SuggestionsConfigRow | undefined;
    if (!row) return undefined;
    return buildOutcomeOf(row);
  }

  /** Records the end of a build (does nothing when the configuration was deleted meanwhile). */
  async saveBuild(
    indexName: string,
    build: { builtAt: number; success: boolean; durationMs: number; log: string },
  ): Promise<void> {
    const row = {
      indexName,
      builtAt: build.builtAt,
      success: build.success ? 1 : 0,
      durationMs: build.durationMs,
      log: build.log,
    };
    await commitWhenUnlocked(this.#db, () => this.#stmt.built.run(row));
  }
}
