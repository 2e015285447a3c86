/**
 * Durability of the Query Suggestions configurations (document 2) and of what their last build left:
 * one row per configuration in `query_suggestions_configs` — the configuration (JSON, defaults filled),
 * when it was created and updated, when its suggestions index was last built (and last built without
 * error, and how long that took) and the log of the last build (JSON Lines, as `GET /1/logs/{indexName}`
 * answers it).
 */
import type Database from 'better-sqlite3';
import type { QuerySuggestionsConfig } from '../query-suggestions/config.js';

export interface StoredConfig {
  config: QuerySuggestionsConfig;
  /** Unix ms. */
  createdAt: number;
  updatedAt: number;
}

/** What the last build of a configuration left. */
export interface BuildOutcome {
  /** End of the last build (Unix ms), `null` before the first. */
  lastBuiltAt: number | null;
  /** End of the last build without an ERROR line. */
  lastSuccessfulBuiltAt: number | null;
  /** Duration of that build, ms. */
  lastSuccessfulBuildMs: number | null;
  /** The last build's log, JSON Lines; `null` before the first build. */
  log: string | null;
}

interface Row {
  index_name: string;
  config: string;
  created_at: number;
  updated_at: number;
  last_built_at: number | null;
  last_success_at: number | null;
  last_success_ms: number | null;
  log: string | null;
}

/**
 * @example
 * const store = new QuerySuggestionsStore(db);
 * store.save(config, Date.now());
 * store.get('products_query_suggestions')?.config.sourceIndices[0].indexName // 'products'
 */
export class QuerySuggestionsStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS query_suggestions_configs (
        index_name TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_built_at INTEGER,
        last_success_at INTEGER,
        last_success_ms INTEGER,
        log TEXT
      )`);
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

  list(): StoredConfig[] {
    return (this.#stmt.all.all() as Row[]).map(toStored);
  }

  get(indexName: string): StoredConfig | undefined {
    const row = this.#stmt.one.get(indexName) as Row | undefined;
    return row ? toStored(row) : undefined;
  }

  count(): number {
    return (this.#stmt.count.get() as { n: number }).n;
  }

  /** Creates or replaces a configuration (its build outcome is kept). */
  save(config: QuerySuggestionsConfig, now: number): void {
    this.#stmt.upsert.run(config.indexName, JSON.stringify(config), now, now);
  }

  /** Removes a configuration and its build outcome; false when there was none. */
  remove(indexName: string): boolean {
    return this.#stmt.remove.run(indexName).changes > 0;
  }

  outcome(indexName: string): BuildOutcome | undefined {
    const row = this.#stmt.one.get(indexName) as Row | undefined;
    if (!row) return undefined;
    return {
      lastBuiltAt: row.last_built_at,
      lastSuccessfulBuiltAt: row.last_success_at,
      lastSuccessfulBuildMs: row.last_success_ms,
      log: row.log,
    };
  }

  /** Records the end of a build (does nothing when the configuration was deleted meanwhile). */
  saveBuild(indexName: string, build: { builtAt: number; success: boolean; durationMs: number; log: string }): void {
    this.#stmt.built.run({
      indexName,
      builtAt: build.builtAt,
      success: build.success ? 1 : 0,
      durationMs: build.durationMs,
      log: build.log,
    });
  }
}

function toStored(row: Row): StoredConfig {
  return {
    config: JSON.parse(row.config) as QuerySuggestionsConfig,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
