/** The Query Suggestions configurations and their last build, in PostgreSQL (`query_suggestions_configs`). */
import type { Pool } from 'pg';
import { buildOutcomeOf, type SuggestionsConfigRow, suggestionsConfigOf } from '../rows.js';
import type { BuildOutcome, QuerySuggestionsStore, StoredSuggestionsConfig } from '../types.js';

export class PgQuerySuggestions implements QuerySuggestionsStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async list(): Promise<StoredSuggestionsConfig[]> {
    const { rows } = await this.#pool.query<SuggestionsConfigRow>(
      'SELECT * FROM query_suggestions_configs ORDER BY created_at, index_name',
    );
    return rows.map(suggestionsConfigOf);
  }

  async get(indexName: string): Promise<StoredSuggestionsConfig | undefined> {
    const row = await this.#row(indexName);
    return row ? suggestionsConfigOf(row) : undefined;
  }

  async count(): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM query_suggestions_configs');
    return rows[0]!.n;
  }

  async save(config: StoredSuggestionsConfig['config'], now: number): Promise<void> {
    await this.#pool.query(
      `INSERT INTO query_suggestions_configs (index_name, config, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (index_name) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`,
      [config.indexName, JSON.stringify(config), now],
    );
  }

  async remove(indexName: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query('DELETE FROM query_suggestions_configs WHERE index_name = $1', [
      indexName,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async outcome(indexName: string): Promise<BuildOutcome | undefined> {
    const row = await this.#row(indexName);
    if (!row) return undefined;
    return buildOutcomeOf(row);
  }

  async saveBuild(
    indexName: string,
    build: { builtAt: number; success: boolean; durationMs: number; log: string },
  ): Promise<void> {
    await this.#pool.query(
      `UPDATE query_suggestions_configs SET last_built_at = $2, log = $3,
         last_success_at = CASE WHEN $4 THEN $2 ELSE last_success_at END,
         last_success_ms = CASE WHEN $4 THEN $5 ELSE last_success_ms END
       WHERE index_name = $1`,
      [indexName, build.builtAt, build.log, build.success, build.durationMs],
    );
  }

  async #row(indexName: string): Promise<SuggestionsConfigRow | undefined> {
    const { rows } = await this.#pool.query<SuggestionsConfigRow>(
      'SELECT * FROM query_suggestions_configs WHERE index_name = $1',
      [indexName],
    );
    return rows[0];
  }
}
