/** The log of searches answered with `clickAnalytics`, in PostgreSQL (`service_search_log`). */
import type { Pool } from 'pg';
import { type SearchLogRow, searchLogEntryOf } from '../rows.js';
import type { SearchLogEntry, SearchLogStore } from '../types.js';

export class PgSearchLog implements SearchLogStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async record(entry: SearchLogEntry): Promise<void> {
    await this.#pool.query(
      `INSERT INTO service_search_log (query_id, index_name, query, page, hits_per_page, object_ids, user_token, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (query_id) DO UPDATE SET index_name = excluded.index_name, query = excluded.query,
         page = excluded.page, hits_per_page = excluded.hits_per_page, object_ids = excluded.object_ids,
         user_token = excluded.user_token, created_at = excluded.created_at`,
      [
        entry.queryID,
        entry.indexName,
        entry.query,
        entry.page,
        entry.hitsPerPage,
        JSON.stringify(entry.objectIDs),
        entry.userToken ?? null,
        entry.createdAt,
      ],
    );
  }

  async forgetUser(userToken: string): Promise<void> {
    await this.#pool.query('UPDATE service_search_log SET user_token = NULL WHERE user_token = $1', [userToken]);
  }

  async countOfUser(userToken: string): Promise<number> {
    const { rows } = await this.#pool.query<{ n: string }>(
      'SELECT COUNT(*) AS n FROM service_search_log WHERE user_token = $1',
      [userToken],
    );
    return Number(rows[0]!.n);
  }

  async get(queryID: string): Promise<SearchLogEntry | undefined> {
    const { rows } = await this.#pool.query<SearchLogRow>('SELECT * FROM service_search_log WHERE query_id = $1', [
      queryID,
    ]);
    const row = rows[0];
    if (!row) return undefined;
    return searchLogEntryOf(row);
  }
}
