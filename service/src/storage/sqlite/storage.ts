/**
 * The SQLite storage of a service: one database file per data directory (`open.ts`), schema brought up to
 * date at open (`migrations.ts`).
 */
import type Database from 'better-sqlite3';
import { openDatabase } from './open.js';

export class SqliteStorage {
  readonly kind = 'sqlite';
  /** better-sqlite3, WAL, synchronous FULL. */
  readonly db: Database.Database;

  /**
   * @example
   * const storage = new SqliteStorage(':memory:');
   */
  constructor(dataDir: string) {
    this.db = openDatabase(dataDir);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
