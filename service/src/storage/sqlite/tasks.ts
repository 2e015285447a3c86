/**
 * The task log in SQLite (`service_tasks`) and the commit of a write: its task rows and its changes in one
 * transaction, each change applied by the store of its area. The tasks are published inside the
 * transaction: a published task is durable (WAL, synchronous FULL) and already visible to reads.
 */
import type Database from 'better-sqlite3';
import type { Change, TaskHeader, TaskStore } from '../types.js';

/** A store that applies the changes of its area inside the commit's transaction. */
export interface ChangeApplier<C extends Change = Change> {
  apply(change: C): unknown;
}

export type Appliers = { [A in Change['area']]: ChangeApplier<Extract<Change, { area: A }>> };

/**
 * @example
 * const tasks = new SqliteTasks(db, appliers);
 * const { taskIDs } = await tasks.commit([{ indexName: 'products', kind: 'addObject' }], changes, Date.now());
 */
export class SqliteTasks implements TaskStore {
  readonly #db: Database.Database;
  readonly #appliers: Appliers;
  readonly #stmt;

  constructor(db: Database.Database, appliers: Appliers) {
    this.#db = db;
    this.#appliers = appliers;
    this.#stmt = {
      insert: db.prepare('INSERT INTO service_tasks (index_name, kind, created_at, published_at) VALUES (?, ?, ?, ?)'),
      publish: db.prepare('UPDATE service_tasks SET published_at = ? WHERE task_id = ?'),
      status: db.prepare('SELECT task_id, index_name, published_at FROM service_tasks WHERE task_id = ?'),
    };
  }

  async commit(
    tasks: readonly TaskHeader[],
    changes: readonly Change[],
    at: number,
  ): Promise<{ taskIDs: number[]; results: unknown[] }> {
    return this.#db.transaction(() => {
      const taskIDs = tasks.map((task) =>
        Number(this.#stmt.insert.run(task.indexName, task.kind, at, null).lastInsertRowid),
      );
      const results = changes.map((change) => (this.#appliers[change.area] as ChangeApplier).apply(change));
      // Published inside the same transaction: visible and durable at the same moment.
      const published = Date.now();
      for (const taskID of taskIDs) this.#stmt.publish.run(published, taskID);
      return { taskIDs, results };
    })();
  }

  async status(taskID: number): Promise<{ indexName: string; published: boolean } | undefined> {
    const row = this.#stmt.status.get(taskID) as { index_name: string; published_at: number | null } | undefined;
    if (!row) return undefined;
    return { indexName: row.index_name, published: row.published_at !== null };
  }
}
