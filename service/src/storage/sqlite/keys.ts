/** API keys in SQLite (`service_keys`): live and deleted ones (`deleted_at`), expired ones purged. */
import type Database from 'better-sqlite3';
import { type KeyRow, keyOf } from '../rows.js';
import type { KeyChange, KeyStore, StoredKey } from '../types.js';

export class SqliteKeys implements KeyStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#stmt = {
      all: db.prepare('SELECT * FROM service_keys ORDER BY created_at, value'),
      put: db.prepare(
        `INSERT INTO service_keys (value, acl, description, validity, max_hits_per_query, max_queries_per_ip_per_hour,
           query_parameters, referers, indexes, index_name, created_at, deleted_at)
         VALUES (@value, @acl, @description, @validity, @maxHitsPerQuery, @maxQueriesPerIPPerHour, @queryParameters,
           @referers, @indexes, @index, @createdAt, @deletedAt)
         ON CONFLICT (value) DO UPDATE SET acl = excluded.acl, description = excluded.description,
           validity = excluded.validity, max_hits_per_query = excluded.max_hits_per_query,
           max_queries_per_ip_per_hour = excluded.max_queries_per_ip_per_hour,
           query_parameters = excluded.query_parameters, referers = excluded.referers, indexes = excluded.indexes,
           created_at = excluded.created_at, deleted_at = excluded.deleted_at`,
      ),
      purge: db.prepare('DELETE FROM service_keys WHERE value = ?'),
    };
  }

  async all(): Promise<StoredKey[]> {
    return (this.#stmt.all.all() as KeyRow[]).map(keyOf);
  }

  apply(change: KeyChange): void {
    if (change.type === 'purge') {
      for (const value of change.values) this.#stmt.purge.run(value);
      return;
    }
    const { key } = change;
    this.#stmt.put.run({
      value: key.value,
      acl: JSON.stringify(key.acl),
      description: key.description,
      validity: key.validity,
      maxHitsPerQuery: key.maxHitsPerQuery,
      maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour,
      queryParameters: key.queryParameters,
      referers: JSON.stringify(key.referers),
      indexes: key.indexes ? JSON.stringify(key.indexes) : null,
      index: key.index ?? null,
      createdAt: key.createdAt,
      deletedAt: key.deletedAt ?? null,
    });
  }
}
