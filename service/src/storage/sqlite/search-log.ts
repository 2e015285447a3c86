/**
 * The durable log of searches answered with `clickAnalytics`: Insights events carry the `queryID` of
 * the search that showed the hits, and the service checks it (and the positions) against this log.
 */
import type Database from 'better-sqlite3';

import type { SearchLogEntry, SearchLogStore } from '../types.js';

interface Row {
  query_id: string;
  index_name: string;
  query: string;
  page: number;
  hits_per_page: number;
  object_ids: string;
  user_token: string | null;
  created_at: number;
}

/**
 * @example
 * const log = createSearchLog(db);
 * log.record({ queryID, indexName: 'products', query: 'chair', page: 0, hitsPerPage: 20, objectIDs, createdAt: Date.now() });
 */
export function createSearchLog(db: Database.Database): SearchLogStore {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO service_search_log (query_id, index_name, query, page, hits_per_page, object_ids, user_token, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare('SELECT * FROM service_search_log WHERE query_id = ?');
  const forget = db.prepare('UPDATE service_search_log SET user_token = NULL WHERE user_token = ?');
  const countOfUser = db.prepare('SELECT COUNT(*) AS n FROM service_search_log WHERE user_token = ?');
  // The connection's own level (FULL: every commit synced), put back after each search's row.
  const synchronous = db.pragma('synchronous', { simple: true }) as number;
  return {
    async record(entry: SearchLogEntry) {
      // One row per search answered with `clickAnalytics`, on the search's path: committed without an fsync
      // of its own (synchronous NORMAL for this commit alone). In WAL mode a committed row is in the log file,
      // so it survives the process dying (`kill -9`); the next synced commit (any write's task) or checkpoint
      // takes it to the disk. An fsync per search (~3 ms on this machine) blocked the event loop for every
      // search the elements send with Insights on. Writes and their tasks keep their fsync.
      // Inside an open transaction (SQLite refuses the change there) the row goes with that transaction's commit.
      const own = !db.inTransaction;
      if (own) db.pragma('synchronous = NORMAL');
      try {
        insert.run(
          entry.queryID,
          entry.indexName,
          entry.query,
          entry.page,
          entry.hitsPerPage,
          JSON.stringify(entry.objectIDs),
          entry.userToken ?? null,
          entry.createdAt,
        );
      } finally {
        if (own) db.pragma(`synchronous = ${synchronous}`);
      }
    },
    async forgetUser(userToken: string) {
      forget.run(userToken);
    },
    async countOfUser(userToken: string) {
      return (countOfUser.get(userToken) as { n: number }).n;
    },
    async get(queryID: string) {
      const row = select.get(queryID) as Row | undefined;
      if (!row) return undefined;
      const entry: SearchLogEntry = {
        queryID: row.query_id,
        indexName: row.index_name,
        query: row.query,
        page: row.page,
        hitsPerPage: row.hits_per_page,
        objectIDs: JSON.parse(row.object_ids) as string[],
        createdAt: row.created_at,
      };
      if (row.user_token !== null) entry.userToken = row.user_token;
      return entry;
    },
  };
}
