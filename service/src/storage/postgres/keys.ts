/** API keys in PostgreSQL (`service_keys`): live and deleted ones (`deleted_at`), expired ones purged. */
import type { Pool, PoolClient } from 'pg';
import { type KeyRow, keyOf } from '../rows.js';
import type { KeyChange, KeyStore, StoredKey } from '../types.js';

export class PgKeys implements KeyStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async all(): Promise<StoredKey[]> {
    const { rows } = await this.#pool.query<KeyRow>('SELECT * FROM service_keys ORDER BY created_at, value');
    return rows.map(keyOf);
  }

  async apply(client: PoolClient, change: KeyChange): Promise<void> {
    if (change.type === 'purge') {
      await client.query('DELETE FROM service_keys WHERE value = ANY($1)', [change.values]);
      return;
    }
    const { key } = change;
    await client.query(
      `INSERT INTO service_keys (value, acl, description, validity, max_hits_per_query, max_queries_per_ip_per_hour,
         query_parameters, referers, indexes, index_name, created_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (value) DO UPDATE SET acl = excluded.acl, description = excluded.description,
         validity = excluded.validity, max_hits_per_query = excluded.max_hits_per_query,
         max_queries_per_ip_per_hour = excluded.max_queries_per_ip_per_hour,
         query_parameters = excluded.query_parameters, referers = excluded.referers, indexes = excluded.indexes,
         created_at = excluded.created_at, deleted_at = excluded.deleted_at`,
      [
        key.value,
        JSON.stringify(key.acl),
        key.description,
        key.validity,
        key.maxHitsPerQuery,
        key.maxQueriesPerIPPerHour,
        key.queryParameters,
        JSON.stringify(key.referers),
        key.indexes ? JSON.stringify(key.indexes) : null,
        key.index ?? null,
        key.createdAt,
        key.deletedAt ?? null,
      ],
    );
  }
}
