/**
 * The task log in PostgreSQL and the commit of a write (see `replication.ts`): the write's changes, its log
 * entry (the changes as JSON, for the other replicas) and its task rows in one transaction, taken in the
 * cluster's write turn. A task is published once every live, ready replica has applied its log entry.
 */
import type { Pool, PoolClient } from 'pg';
import { logText } from '../log.js';
import type { Change, TaskHeader, TaskStore } from '../types.js';
import type { PgReplication } from './replication.js';

/** A store that applies the changes of its area inside the write's transaction. */
export interface PgChangeApplier<C extends Change = Change> {
  apply(client: PoolClient, change: C): Promise<unknown>;
}

export type PgAppliers = { [A in Change['area']]: PgChangeApplier<Extract<Change, { area: A }>> };

/**
 * @example
 * const tasks = new PgTasks(pool, replication, appliers);
 * await tasks.exclusive(() => tasks.commit([{ indexName: 'products', kind: 'addObject' }], changes, Date.now()));
 */
export class PgTasks implements TaskStore {
  readonly #pool: Pool;
  readonly #replication: PgReplication;
  readonly #appliers: PgAppliers;
  /** The transaction of the write in its turn (set by `exclusive`). */
  #client: PoolClient | undefined;

  constructor(pool: Pool, replication: PgReplication, appliers: PgAppliers) {
    this.#pool = pool;
    this.#replication = replication;
    this.#appliers = appliers;
  }

  exclusive<T>(write: () => Promise<T>): Promise<T> {
    return this.#replication.exclusive(async (client) => {
      this.#client = client;
      try {
        return await write();
      } finally {
        this.#client = undefined;
      }
    });
  }

  async commit(
    tasks: readonly TaskHeader[],
    changes: readonly Change[],
    at: number,
  ): Promise<{ taskIDs: number[]; results: unknown[] }> {
    if (!this.#client) return this.exclusive(() => this.commit(tasks, changes, at));
    const client = this.#client;
    const results: unknown[] = [];
    for (const change of changes)
      results.push(await (this.#appliers[change.area] as PgChangeApplier).apply(client, change));
    const { rows } = await client.query<{ seq: number }>(
      'INSERT INTO service_log (replica, changes, created_at) VALUES ($1, $2, $3) RETURNING seq',
      [this.#replication.id, logText(changes), at],
    );
    const seq = rows[0]!.seq;
    const taskIDs: number[] = [];
    for (const task of tasks) {
      const inserted = await client.query<{ task_id: number }>(
        'INSERT INTO service_tasks (index_name, kind, created_at, log_seq) VALUES ($1, $2, $3, $4) RETURNING task_id',
        [task.indexName, task.kind, at, seq],
      );
      taskIDs.push(inserted.rows[0]!.task_id);
    }
    // The writer has applied its own entry (its memory changed while the write was built).
    await client.query('UPDATE service_replicas SET applied_seq = $2, heartbeat_at = now() WHERE id = $1', [
      this.#replication.id,
      seq,
    ]);
    await client.query('SELECT pg_notify($1, $2)', ['svc_log', String(seq)]);
    await client.query('COMMIT');
    this.#replication.committed(seq);
    return { taskIDs, results };
  }

  async status(taskID: number): Promise<{ indexName: string; published: boolean } | undefined> {
    const { rows } = await this.#pool.query<{ index_name: string; published: boolean }>(
      `SELECT t.index_name, NOT EXISTS (
         SELECT 1 FROM service_replicas r
         WHERE r.ready AND r.heartbeat_at > now() - make_interval(secs => $2) AND r.applied_seq < t.log_seq
       ) AS published
       FROM service_tasks t WHERE t.task_id = $1`,
      [taskID, this.#replication.staleMs / 1000],
    );
    const row = rows[0];
    return row && { indexName: row.index_name, published: row.published };
  }
}
