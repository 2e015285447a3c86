/**
 * Opens the service database: one better-sqlite3 file per data directory, WAL journal and
 * `synchronous = FULL`, so a transaction that has committed survives `kill -9` and power loss; then brings
 * its schema up to date (`migrations.ts`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

/**
 * @example
 * const db = openDatabase('.data');      // .data/svc-search.sqlite
 * const mem = openDatabase(':memory:');  // nothing on disk
 */
export function openDatabase(dataDir: string): Database.Database {
  let db: Database.Database;
  if (dataDir === ':memory:') {
    db = new Database(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, 'svc-search.sqlite'));
    db.pragma('journal_mode = WAL');
  }
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/**
 * Runs `commit` (one commit of log rows: a search's `clickAnalytics` row, a batch of Analytics searches or
 * Usage calls) with `synchronous = NORMAL` for that commit alone, then puts the connection's level back. In
 * WAL mode a committed transaction is in the log file, so it survives the process dying (`kill -9`); the next
 * synced commit (any write's task) or checkpoint takes it to the disk — a power loss can lose these rows
 * since the last write, never a task. The fsync it saves (~2–3 ms) blocked the event loop, and with workers
 * it was held under the file's write lock. Inside an open transaction (SQLite refuses the change there)
 * `commit` runs as it is and goes with that transaction's commit.
 *
 * @example
 * unsyncedCommit(db, () => insert.run(row));
 */
export function unsyncedCommit<T>(db: Database.Database, commit: () => T): T {
  if (db.inTransaction) return commit();
  const level = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    return commit();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}
