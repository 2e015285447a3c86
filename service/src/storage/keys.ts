/**
 * API keys created through `/1/keys` and `/1/indexes/{indexName}/keys` (the admin and search keys of
 * the service options are not stored here). A key whose `validity` has elapsed is removed
 * automatically; a deleted key can be restored.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Right } from '../context.js';

export interface StoredKey {
  value: string;
  acl: Right[];
  description: string;
  /** Seconds; 0 = no limit. */
  validity: number;
  maxHitsPerQuery: number;
  maxQueriesPerIPPerHour: number;
  queryParameters: string;
  referers: string[];
  /** Index name patterns (`prefix*`, `*suffix`); undefined = every index. */
  indexes?: string[];
  /** Set on index-specific keys (`/1/indexes/{indexName}/keys`). */
  index?: string;
  /** Unix ms. */
  createdAt: number;
}

interface KeyRow {
  value: string;
  acl: string;
  description: string;
  validity: number;
  max_hits_per_query: number;
  max_queries_per_ip_per_hour: number;
  query_parameters: string;
  referers: string;
  indexes: string | null;
  index_name: string | null;
  created_at: number;
  deleted_at: number | null;
}

export type KeyFields = Partial<Omit<StoredKey, 'value' | 'createdAt' | 'index'>>;

function fromRow(row: KeyRow): StoredKey {
  const key: StoredKey = {
    value: row.value,
    acl: JSON.parse(row.acl) as Right[],
    description: row.description,
    validity: row.validity,
    maxHitsPerQuery: row.max_hits_per_query,
    maxQueriesPerIPPerHour: row.max_queries_per_ip_per_hour,
    queryParameters: row.query_parameters,
    referers: JSON.parse(row.referers) as string[],
    createdAt: row.created_at,
  };
  if (row.indexes !== null) key.indexes = JSON.parse(row.indexes) as string[];
  if (row.index_name !== null) key.index = row.index_name;
  return key;
}

export class KeyStore {
  readonly #db: Database.Database;
  readonly #live;
  readonly #liveValues;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#live = db.prepare('SELECT * FROM service_keys WHERE value = ? AND deleted_at IS NULL');
    this.#liveValues = db.prepare(
      'SELECT value FROM service_keys WHERE deleted_at IS NULL AND (validity = 0 OR created_at + validity * 1000 > ?)',
    );
  }

  #expired(row: KeyRow, now = Date.now()): boolean {
    return row.validity > 0 && now >= row.created_at + row.validity * 1000;
  }

  /** Removes keys whose validity has elapsed (they are gone, not restorable). */
  #purge(): void {
    this.#db
      .prepare('DELETE FROM service_keys WHERE validity > 0 AND created_at + validity * 1000 <= ?')
      .run(Date.now());
  }

  get(value: string): StoredKey | undefined {
    const row = this.#live.get(value) as KeyRow | undefined;
    if (!row || this.#expired(row)) return undefined;
    return fromRow(row);
  }

  list(index?: string): StoredKey[] {
    this.#purge();
    const rows = (
      index === undefined
        ? this.#db.prepare('SELECT * FROM service_keys WHERE deleted_at IS NULL ORDER BY created_at, value').all()
        : this.#db
            .prepare(
              'SELECT * FROM service_keys WHERE deleted_at IS NULL AND index_name = ? ORDER BY created_at, value',
            )
            .all(index)
    ) as KeyRow[];
    return rows.map(fromRow);
  }

  create(fields: KeyFields, index?: string): StoredKey {
    const key: StoredKey = {
      value: randomBytes(16).toString('hex'),
      acl: fields.acl ?? [],
      description: fields.description ?? '',
      validity: fields.validity ?? 0,
      maxHitsPerQuery: fields.maxHitsPerQuery ?? 0,
      maxQueriesPerIPPerHour: fields.maxQueriesPerIPPerHour ?? 0,
      queryParameters: fields.queryParameters ?? '',
      referers: fields.referers ?? [],
      createdAt: Date.now(),
    };
    if (fields.indexes) key.indexes = fields.indexes;
    if (index !== undefined) key.index = index;
    this.#db
      .prepare(
        `INSERT INTO service_keys (value, acl, description, validity, max_hits_per_query, max_queries_per_ip_per_hour,
           query_parameters, referers, indexes, index_name, created_at, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(
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
      );
    return key;
  }

  /** Replaces the given fields; `undefined` when the key does not exist. */
  update(value: string, fields: KeyFields): StoredKey | undefined {
    const key = this.get(value);
    if (!key) return undefined;
    const next: StoredKey = { ...key, ...fields };
    if (fields.validity !== undefined) next.createdAt = Date.now(); // validity counts from the update
    this.#db
      .prepare(
        `UPDATE service_keys SET acl = ?, description = ?, validity = ?, max_hits_per_query = ?,
           max_queries_per_ip_per_hour = ?, query_parameters = ?, referers = ?, indexes = ?, created_at = ?
         WHERE value = ?`,
      )
      .run(
        JSON.stringify(next.acl),
        next.description,
        next.validity,
        next.maxHitsPerQuery,
        next.maxQueriesPerIPPerHour,
        next.queryParameters,
        JSON.stringify(next.referers),
        next.indexes ? JSON.stringify(next.indexes) : null,
        next.createdAt,
        value,
      );
    return next;
  }

  /** Moves the key to the deleted list; false when it did not exist. */
  delete(value: string): boolean {
    const key = this.get(value);
    if (!key) return false;
    this.#db.prepare('UPDATE service_keys SET deleted_at = ? WHERE value = ?').run(Date.now(), value);
    return true;
  }

  /** Brings a deleted key back; undefined when it is not in the deleted list. */
  restore(value: string): StoredKey | undefined {
    const row = this.#db.prepare('SELECT * FROM service_keys WHERE value = ? AND deleted_at IS NOT NULL').get(value) as
      | KeyRow
      | undefined;
    if (!row) return undefined;
    this.#db.prepare('UPDATE service_keys SET deleted_at = NULL WHERE value = ?').run(value);
    return this.get(value);
  }

  /** Every live non-admin key value: candidate parents of a secured API key. */
  values(): string[] {
    return (this.#liveValues.all(Date.now()) as Array<{ value: string }>).map((row) => row.value);
  }
}
