/** The Usage call log in SQLite (`usage_calls`). */
import type Database from 'better-sqlite3';
import type { UsageRow, UsageStore } from '../types.js';
import { commitWhenUnlocked, unsyncedCommit } from './open.js';

export class SqliteUsage implements UsageStore {
  readonly #db: Database.Database;
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#stmt = {
      insert: db.prepare(
        'INSERT INTO usage_calls (ts, idx, op, app, n, ms, status, qs) VALUES (@ts, @idx, @op, @app, @n, @ms, @status, @qs)',
      ),
      all: db.prepare('SELECT * FROM usage_calls WHERE ts >= ? AND ts < ? ORDER BY ts'),
      ofIndex: db.prepare('SELECT * FROM usage_calls WHERE idx = ? AND ts >= ? AND ts < ? ORDER BY ts'),
    };
  }

  /**
   * One batch of the Usage log (`usage/log.ts`), committed without its own fsync (`unsyncedCommit`) once the
   * write lock is free (`commitWhenUnlocked`).
   */
  async append(rows: readonly UsageRow[]): Promise<void> {
    const insert = this.#db.transaction(() => {
      for (const row of rows) this.#stmt.insert.run(row);
    });
    // The write lock taken without blocking the event loop while another worker holds it.
    await commitWhenUnlocked(this.#db, () => unsyncedCommit(this.#db, () => insert.immediate()));
  }

  async rows(start: number, end: number, indexName?: string): Promise<UsageRow[]> {
    if (indexName === undefined) return this.#stmt.all.all(start, end) as UsageRow[];
    return this.#stmt.ofIndex.all(indexName, start, end) as UsageRow[];
  }
}
