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
