/**
 * A/B tests in SQLite (`abtests_tests`, one row per test). Their metrics are not stored here: they are worked
 * out from the Analytics search log, whose rows carry the test and variant they were assigned.
 */
import type Database from 'better-sqlite3';
import { type AbTestRow, abTestOf } from '../rows.js';
import type { AbTestChange, AbTestStore, StoredAbTest } from '../types.js';

export class SqliteAbTests implements AbTestStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#stmt = {
      all: db.prepare(
        'SELECT id, name, status, created_at, end_at, stopped_at, variants FROM abtests_tests ORDER BY id',
      ),
      insert: db.prepare(
        'INSERT INTO abtests_tests (name, status, created_at, end_at, stopped_at, variants) VALUES (?, ?, ?, ?, NULL, ?)',
      ),
      status: db.prepare('UPDATE abtests_tests SET status = ?, stopped_at = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM abtests_tests WHERE id = ?'),
      untag: db.prepare('UPDATE analytics_searches SET ab_test_id = NULL, ab_test_variant = NULL WHERE ab_test_id = ?'),
    };
  }

  async all(): Promise<StoredAbTest[]> {
    return (this.#stmt.all.all() as AbTestRow[]).map(abTestOf);
  }

  apply(change: AbTestChange): unknown {
    switch (change.type) {
      case 'insert': {
        const { test } = change;
        const inserted = this.#stmt.insert.run(
          test.name,
          test.status,
          test.createdAt,
          test.endAt,
          JSON.stringify(test.variants),
        );
        return Number(inserted.lastInsertRowid);
      }
      case 'status':
        this.#stmt.status.run(change.status, change.stoppedAt ?? null, change.abTestID);
        return undefined;
      case 'remove':
        this.#stmt.remove.run(change.abTestID);
        this.#stmt.untag.run(change.abTestID);
        return undefined;
    }
  }
}
