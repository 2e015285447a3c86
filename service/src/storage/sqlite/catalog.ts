/**
 * The catalog in SQLite: `service_indices` (one row per index: settings as given, primary, replicas) and the
 * three object tables `service_records`, `service_rules`, `service_synonyms` — the same shape (`seq` for the
 * order first saved, `index_name`, `object_id`, `body` JSON), so one set of statements per table serves them.
 */
import type Database from 'better-sqlite3';
import { ITEM_TABLES, type IndexRow, indexMetaOf } from '../rows.js';
import type { CatalogChange, CatalogStore, IndexMeta, ItemKind, ItemOf } from '../types.js';

/** Rows per upsert statement in a large write (one statement per row costs more than the row). */
const UPSERT_ROWS = 100;

/** The statements of one object table. */
function itemStatements(db: Database.Database, table: string) {
  return {
    all: db.prepare(`SELECT body FROM ${table} WHERE index_name = ? ORDER BY seq`),
    upsert: db.prepare(
      `INSERT INTO ${table} (index_name, object_id, body) VALUES (?, ?, ?)
       ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
    ),
    upsertMany: db.prepare(
      `INSERT INTO ${table} (index_name, object_id, body) VALUES ${Array(UPSERT_ROWS).fill('(?, ?, ?)').join(', ')}
       ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
    ),
    delete: db.prepare(`DELETE FROM ${table} WHERE index_name = ? AND object_id = ?`),
    clear: db.prepare(`DELETE FROM ${table} WHERE index_name = ?`),
  };
}

/**
 * @example
 * const catalog = new SqliteCatalog(db);
 * for (const meta of await catalog.indices()) await catalog.items('records', meta.name);
 */
export class SqliteCatalog implements CatalogStore {
  readonly #db: Database.Database;
  readonly #items: Record<ItemKind, ReturnType<typeof itemStatements>>;
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#items = {
      records: itemStatements(db, ITEM_TABLES.records),
      rules: itemStatements(db, ITEM_TABLES.rules),
      synonyms: itemStatements(db, ITEM_TABLES.synonyms),
    };
    this.#stmt = {
      indices: db.prepare('SELECT * FROM service_indices ORDER BY name'),
      index: db.prepare('SELECT * FROM service_indices WHERE name = ?'),
      putIndex: db.prepare(
        `INSERT INTO service_indices (name, settings, primary_index, replicas, created_at, updated_at)
         VALUES (@name, @settings, @primary, @replicas, @createdAt, @updatedAt)
         ON CONFLICT (name) DO UPDATE SET settings = excluded.settings, primary_index = excluded.primary_index,
           replicas = excluded.replicas, updated_at = excluded.updated_at`,
      ),
      dropIndex: db.prepare('DELETE FROM service_indices WHERE name = ?'),
      dataSizes: db.prepare('SELECT index_name, SUM(LENGTH(body)) AS size FROM service_records GROUP BY index_name'),
    };
  }

  async indices(): Promise<IndexMeta[]> {
    return (this.#stmt.indices.all() as IndexRow[]).map(indexMetaOf);
  }

  async index(name: string): Promise<IndexMeta | undefined> {
    const row = this.#stmt.index.get(name) as IndexRow | undefined;
    return row && indexMetaOf(row);
  }

  async items<K extends ItemKind>(kind: K, indexName: string): Promise<Array<ItemOf[K]>> {
    return (this.#items[kind].all.all(indexName) as Array<{ body: string }>).map(
      (row) => JSON.parse(row.body) as ItemOf[K],
    );
  }

  async dataSizes(): Promise<Map<string, number>> {
    const rows = this.#stmt.dataSizes.all() as Array<{ index_name: string; size: number }>;
    return new Map(rows.map((row) => [row.index_name, row.size]));
  }

  async sizes(
    indexName?: string,
  ): Promise<{ records: number; recordBytes: number; settingsBytes: number } | undefined> {
    const where = indexName === undefined ? '' : ' WHERE index_name = ?';
    const args = indexName === undefined ? [] : [indexName];
    if (indexName !== undefined && !this.#stmt.index.get(indexName)) return undefined;
    const records = this.#db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) AS size FROM service_records${where}`,
      )
      .get(...args) as { n: number; size: number };
    const indexWhere = indexName === undefined ? '' : ' WHERE name = ?';
    const settings = this.#db
      .prepare(`SELECT COALESCE(SUM(LENGTH(CAST(settings AS BLOB))), 0) AS size FROM service_indices${indexWhere}`)
      .get(...args) as { size: number };
    return { records: records.n, recordBytes: records.size, settingsBytes: settings.size };
  }

  /** Applies one change; called by the task store inside the write's transaction. */
  apply(change: CatalogChange): void {
    switch (change.type) {
      case 'putIndex': {
        const { meta } = change;
        this.#stmt.putIndex.run({
          name: meta.name,
          settings: JSON.stringify(meta.settings),
          primary: meta.primary ?? null,
          replicas: JSON.stringify(meta.replicas),
          createdAt: meta.createdAt,
          updatedAt: meta.updatedAt,
        });
        break;
      }
      case 'dropIndex':
        for (const statements of Object.values(this.#items)) statements.clear.run(change.name);
        this.#stmt.dropIndex.run(change.name);
        break;
      case 'putItems':
        this.#upsert(change.kind, change.indexName, change.items, change.texts);
        break;
      case 'deleteItems': {
        const statement = this.#items[change.kind].delete;
        for (const objectID of change.objectIDs) statement.run(change.indexName, objectID);
        break;
      }
      case 'clearItems':
        this.#items[change.kind].clear.run(change.indexName);
        break;
    }
  }

  /**
   * Stores objects by statements of `UPSERT_ROWS` rows, the rest one by one: rows are applied in order, so
   * of two rows with one objectID the later wins, as one by one.
   */
  #upsert(kind: ItemKind, indexName: string, items: ReadonlyArray<{ objectID: string }>, texts?: readonly string[]) {
    const statements = this.#items[kind];
    const textOf = (i: number) => texts?.[i] ?? JSON.stringify(items[i]);
    let i = 0;
    if (items.length >= UPSERT_ROWS) {
      const values: unknown[] = new Array(UPSERT_ROWS * 3);
      for (; i + UPSERT_ROWS <= items.length; i += UPSERT_ROWS) {
        for (let k = 0; k < UPSERT_ROWS; k++) {
          values[k * 3] = indexName;
          values[k * 3 + 1] = items[i + k]!.objectID;
          values[k * 3 + 2] = textOf(i + k);
        }
        statements.upsertMany.run(values);
      }
    }
    for (; i < items.length; i++) statements.upsert.run(indexName, items[i]!.objectID, textOf(i));
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }
}
