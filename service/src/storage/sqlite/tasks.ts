/**
 * The task log in SQLite (`service_tasks`) and the commit of a write: its task rows and its changes in one
 * transaction, each change applied by the store of its area. One process alone: the tasks are published
 * inside the transaction (a published task is durable, WAL and synchronous FULL, and already visible to
 * reads). Workers (`replication.ts`): the write also appends its entry to the ordered log in the same
 * transaction, and a task is published once every live, ready worker has applied that entry.
 */
import type Database from 'better-sqlite3';
import { logText } from '../log.js';
import type { Change, TaskHeader, TaskStore } from '../types.js';
import type { SqliteReplication } from './replication.js';

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
  readonly #replication: SqliteReplication | undefined;
  readonly #stmt;
  /** Workers: the write's turn (`exclusive`: the write lock held, memory caught up with the log). */
  readonly exclusive?: <T>(write: () => Promise<T>) => Promise<T>;
  #inTurn = false;

  constructor(db: Database.Database, appliers: Appliers, replication?: SqliteReplication) {
    this.#db = db;
    this.#appliers = appliers;
    this.#replication = replication;
    this.#stmt = {
      insert: db.prepare('INSERT INTO service_tasks (index_name, kind, created_at, published_at) VALUES (?, ?, ?, ?)'),
      publish: db.prepare('UPDATE service_tasks SET published_at = ? WHERE task_id = ?'),
      status: db.prepare('SELECT task_id, index_name, published_at, log_seq FROM service_tasks WHERE task_id = ?'),
      log: db.prepare('INSERT INTO service_log (replica, changes, created_at) VALUES (?, ?, ?)'),
      logSeq: db.prepare('UPDATE service_tasks SET log_seq = ? WHERE task_id = ?'),
      applied: db.prepare('UPDATE service_replicas SET applied_seq = ?, heartbeat_at = ? WHERE id = ?'),
      behind: db.prepare(
        'SELECT 1 FROM service_replicas WHERE ready = 1 AND heartbeat_at > ? AND applied_seq < ? LIMIT 1',
      ),
    };
    if (replication) {
      this.exclusive = (write) =>
        replication.exclusive(async () => {
          this.#inTurn = true;
          try {
            return await write();
          } finally {
            this.#inTurn = false;
          }
        });
    }
  }

  async commit(
    tasks: readonly TaskHeader[],
    changes: readonly Change[],
    at: number,
  ): Promise<{ taskIDs: number[]; results: unknown[] }> {
    if (this.#replication) {
      if (!this.#inTurn) return this.exclusive!(() => this.commit(tasks, changes, at));
      return this.#commitLogged(this.#replication, tasks, changes, at);
    }
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
    const row = this.#stmt.status.get(taskID) as
      | { index_name: string; published_at: number | null; log_seq: number | null }
      | undefined;
    if (!row) return undefined;
    if (row.log_seq === null) return { indexName: row.index_name, published: row.published_at !== null };
    // A task of the workers' log, asked of one process alone: it loaded every committed write at its start.
    if (!this.#replication) return { indexName: row.index_name, published: true };
    // Published once no live, ready worker is behind the task's log entry.
    const behind = this.#stmt.behind.get(Date.now() - this.#replication.staleMs, row.log_seq);
    return { indexName: row.index_name, published: behind === undefined };
  }

  /** Inside the write's turn (`BEGIN IMMEDIATE` is open): changes, log entry, task rows, then COMMIT. */
  #commitLogged(
    replication: SqliteReplication,
    tasks: readonly TaskHeader[],
    changes: readonly Change[],
    at: number,
  ): { taskIDs: number[]; results: unknown[] } {
    const taskIDs = tasks.map((task) =>
      Number(this.#stmt.insert.run(task.indexName, task.kind, at, null).lastInsertRowid),
    );
    const results = changes.map((change) => (this.#appliers[change.area] as ChangeApplier).apply(change));
    const seq = Number(this.#stmt.log.run(replication.id, logText(changes), at).lastInsertRowid);
    for (const taskID of taskIDs) this.#stmt.logSeq.run(seq, taskID);
    // The writer has applied its own entry (its memory changed while the write was built).
    this.#stmt.applied.run(seq, Date.now(), replication.id);
    this.#db.exec('COMMIT');
    replication.committed(seq);
    return { taskIDs, results };
  }
}
