/**
 * The catalog in PostgreSQL: the same tables as SQLite's (`service_indices`, and `service_records`,
 * `service_rules`, `service_synonyms` with `seq` for the order first saved), the same statements in
 * PostgreSQL's dialect.
 */
import type { Pool, PoolClient } from 'pg';
import { ITEM_TABLES, type IndexRow, indexMetaOf } from '../rows.js';
import type { CatalogChange, CatalogStore, IndexMeta, ItemKind, ItemOf } from '../types.js';

/**
 * @example
 * const catalog = new PgCatalog(pool);
 * for (const meta of await catalog.indices()) await catalog.items('records', meta.name);
 */
export class PgCatalog implements CatalogStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async indices(): Promise<IndexMeta[]> {
    const { rows } = await this.#pool.query<IndexRow>('SELECT * FROM service_indices ORDER BY name');
    return rows.map(indexMetaOf);
  }

  async index(name: string): Promise<IndexMeta | undefined> {
    const { rows } = await this.#pool.query<IndexRow>('SELECT * FROM service_indices WHERE name = $1', [name]);
    return rows[0] && indexMetaOf(rows[0]);
  }

  async items<K extends ItemKind>(kind: K, indexName: string): Promise<Array<ItemOf[K]>> {
    const { rows } = await this.#pool.query<{ body: string }>(
      `SELECT body FROM ${ITEM_TABLES[kind]} WHERE index_name = $1 ORDER BY seq`,
      [indexName],
    );
    return rows.map((row) => JSON.parse(row.body) as ItemOf[K]);
  }

  /** The records of some objectIDs of an index (those stored), for a replica applying a write. */
  async records(indexName: string, objectIDs: readonly string[]): Promise<Array<ItemOf['records']>> {
    const { rows } = await this.#pool.query<{ body: string }>(
      'SELECT body FROM service_records WHERE index_name = $1 AND object_id = ANY($2) ORDER BY seq',
      [indexName, objectIDs],
    );
    return rows.map((row) => JSON.parse(row.body) as ItemOf['records']);
  }

  async dataSizes(): Promise<Map<string, number>> {
    const { rows } = await this.#pool.query<{ index_name: string; size: number }>(
      'SELECT index_name, SUM(LENGTH(body)) AS size FROM service_records GROUP BY index_name',
    );
    return new Map(rows.map((row) => [row.index_name, row.size]));
  }

  async sizes(
    indexName?: string,
  ): Promise<{ records: number; recordBytes: number; settingsBytes: number } | undefined> {
    if (indexName !== undefined && !(await this.index(indexName))) return undefined;
    const where = indexName === undefined ? '' : ' WHERE index_name = $1';
    const args = indexName === undefined ? [] : [indexName];
    const records = await this.#pool.query<{ n: number; size: number }>(
      `SELECT COUNT(*) AS n, COALESCE(SUM(OCTET_LENGTH(body)), 0) AS size FROM service_records${where}`,
      args,
    );
    const indexWhere = indexName === undefined ? '' : ' WHERE name = $1';
    const settings = await this.#pool.query<{ size: number }>(
      `SELECT COALESCE(SUM(OCTET_LENGTH(settings)), 0) AS size FROM service_indices${indexWhere}`,
      args,
    );
    return {
      records: records.rows[0]!.n,
      recordBytes: records.rows[0]!.size,
      settingsBytes: settings.rows[0]!.size,
    };
  }

  /** Applies one change inside the write's transaction. */
  async apply(client: PoolClient, change: CatalogChange): Promise<void> {
    switch (change.type) {
      case 'putIndex': {
        const { meta } = change;
        await client.query(
          `INSERT INTO service_indices (name, settings, primary_index, replicas, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (name) DO UPDATE SET settings = excluded.settings, primary_index = excluded.primary_index,
             replicas = excluded.replicas, updated_at = excluded.updated_at`,
          [
            meta.name,
            JSON.stringify(meta.settings),
            meta.primary ?? null,
            JSON.stringify(meta.replicas),
            meta.createdAt,
            meta.updatedAt,
          ],
        );
        break;
      }
      case 'dropIndex':
        for (const table of Object.values(ITEM_TABLES))
          await client.query(`DELETE FROM ${table} WHERE index_name = $1`, [change.name]);
        await client.query('DELETE FROM service_indices WHERE name = $1', [change.name]);
        break;
      case 'putItems': {
        if (change.items.length === 0) break;
        // One statement per write: the objectIDs and bodies as two arrays, in order. ON CONFLICT may not
        // touch a row twice, so duplicates are folded first: the first place, the last body (as SQLite's
        // statement-per-item upserts leave them).
        const last = new Map<string, string>();
        change.items.forEach((item, i) => {
          last.set(item.objectID, change.texts?.[i] ?? JSON.stringify(item));
        });
        await client.query(
          `INSERT INTO ${ITEM_TABLES[change.kind]} (index_name, object_id, body)
           SELECT $1, item.object_id, item.body FROM UNNEST($2::text[], $3::text[]) WITH ORDINALITY AS item(object_id, body, n)
           ORDER BY item.n
           ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
          [change.indexName, [...last.keys()], [...last.values()]],
        );
        break;
      }
      case 'deleteItems':
        await client.query(`DELETE FROM ${ITEM_TABLES[change.kind]} WHERE index_name = $1 AND object_id = ANY($2)`, [
          change.indexName,
          change.objectIDs,
        ]);
        break;
      case 'clearItems':
        await client.query(`DELETE FROM ${ITEM_TABLES[change.kind]} WHERE index_name = $1`, [change.indexName]);
        break;
    }
  }
}
