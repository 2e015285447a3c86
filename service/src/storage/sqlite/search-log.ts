/**
 * The durable log of searches answered with `clickAnalytics`: Insights events carry the `queryID` of
 * the search that showed the hits, and the service checks it (and the positions) against this log.
 */
import type Database from 'better-sqlite3';

import { type SearchLogRow, searchLogEntryOf } from '../rows.js';
import type { SearchLogEntry, SearchLogStore } from '../types.js';
import { unsyncedCommit } from './open.js';

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
  return {
    async record(entry: SearchLogEntry) {
      // One row per search answered with `clickAnalytics`, on the search's path: without an fsync of its own
      // (`unsyncedCommit`: kept across kill -9), as an fsync per search blocked the event loop for every
      // search the elements send with Insights on. Writes and their tasks keep their fsync.
      unsyncedCommit(db, () =>
        insert.run(
          entry.queryID,
          entry.indexName,
          entry.query,
          entry.page,
          entry.hitsPerPage,
          JSON.stringify(entry.objectIDs),
          entry.userToken ?? null,
          entry.createdAt,
        ),
      );
    },
    async forgetUser(userToken: string) {
      forget.run(userToken);
    },
    async countOfUser(userToken: string) {
      return (countOfUser.get(userToken) as { n: number }).n;
    },
    async get(queryID: string) {
      const row = select.get(queryID) as SearchLogRow | undefined;
      if (!row) return undefined;
      return searchLogEntryOf(row);
    },
  };
}
