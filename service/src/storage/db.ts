/**
 * Opens the service database: one better-sqlite3 file per data directory, WAL journal and
 * `synchronous = FULL`, so a transaction that has committed survives `kill -9` and power loss.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

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
  db.exec(`
    CREATE TABLE IF NOT EXISTS service_indices (
      name TEXT PRIMARY KEY,
      settings TEXT NOT NULL DEFAULT '{}',
      primary_index TEXT,
      replicas TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS service_records (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      index_name TEXT NOT NULL,
      object_id TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (index_name, object_id)
    );
    CREATE TABLE IF NOT EXISTS service_tasks (
      task_id INTEGER PRIMARY KEY AUTOINCREMENT,
      index_name TEXT NOT NULL,
      kind TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      published_at INTEGER
    );
    CREATE TABLE IF NOT EXISTS service_search_log (
      query_id TEXT PRIMARY KEY,
      index_name TEXT NOT NULL,
      query TEXT NOT NULL,
      page INTEGER NOT NULL,
      hits_per_page INTEGER NOT NULL,
      object_ids TEXT NOT NULL,
      user_token TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS service_rules (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      index_name TEXT NOT NULL,
      object_id TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (index_name, object_id)
    );
    CREATE TABLE IF NOT EXISTS service_synonyms (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      index_name TEXT NOT NULL,
      object_id TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (index_name, object_id)
    );
    CREATE TABLE IF NOT EXISTS service_dictionary_entries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      dictionary TEXT NOT NULL,
      object_id TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (dictionary, object_id)
    );
    CREATE TABLE IF NOT EXISTS service_dictionary_disabled (
      dictionary TEXT NOT NULL,
      language TEXT NOT NULL,
      PRIMARY KEY (dictionary, language)
    );
    CREATE TABLE IF NOT EXISTS service_keys (
      value TEXT PRIMARY KEY,
      acl TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      validity INTEGER NOT NULL DEFAULT 0,
      max_hits_per_query INTEGER NOT NULL DEFAULT 0,
      max_queries_per_ip_per_hour INTEGER NOT NULL DEFAULT 0,
      query_parameters TEXT NOT NULL DEFAULT '',
      referers TEXT NOT NULL DEFAULT '[]',
      indexes TEXT,
      index_name TEXT,
      created_at INTEGER NOT NULL,
      deleted_at INTEGER
    );
  `);
  return db;
}
