/** The searches Analytics counts, in SQLite (`analytics_searches`), with the reports computed from them. */
import type Database from 'better-sqlite3';
import type { AnalyticsSearch, AnalyticsSearchFilter, AnalyticsStore } from '../../types.js';
import { commitWhenUnlocked, unsyncedCommit } from '../open.js';
import { SqliteAnalyticsReports } from './reports.js';

export class SqliteAnalytics implements AnalyticsStore {
  readonly reports: SqliteAnalyticsReports;
  readonly #db: Database.Database;
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#db = db;
    this.reports = new SqliteAnalyticsReports(db);
    this.#stmt = {
      insert: db.prepare(`
        INSERT INTO analytics_searches
          (index_name, ts, query, nb_hits, user_key, anonymous, query_id, page, hits_per_page, object_ids, filters, tags,
           ab_test_id, ab_test_variant, country)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      previous: db.prepare(
        'SELECT id, query, ts FROM analytics_searches WHERE index_name = ? AND user_key = ? ORDER BY id DESC LIMIT 1',
      ),
      supersede: db.prepare('UPDATE analytics_searches SET superseded = 1 WHERE id = ?'),
      forget: db.prepare('UPDATE analytics_searches SET user_key = ? WHERE user_key = ? AND anonymous = 0'),
    };
  }

  async append(
    searches: readonly AnalyticsSearch[],
    continues: (previous: { query: string; ts: number }, next: { query: string; ts: number }) => boolean,
  ): Promise<void> {
    // IMMEDIATE: the write lock from the start, so workers sharing the file append one batch at a time and a
    // typing series spread over two of them keeps only its last search (a deferred read-then-write would
    // fail with SQLITE_BUSY once another worker wrote in between). Committed without its own fsync
    // (`unsyncedCommit`: kept across kill -9; the lock is no longer held through an fsync), once the lock is
    // free (`commitWhenUnlocked`: another worker may hold it past the busy timeout; waiting on a timer, not
    // in SQLite's busy wait, which blocks this worker's searches and then fails).
    const append = this.#db.transaction(() => {
      for (const entry of searches) {
        const before = this.#stmt.previous.get(entry.indexName, entry.userKey) as
          | { id: number; query: string; ts: number }
          | undefined;
        this.#stmt.insert.run(
          entry.indexName,
          entry.ts,
          entry.query,
          entry.nbHits,
          entry.userKey,
          entry.anonymous ? 1 : 0,
          entry.queryID ?? null,
          entry.page,
          entry.hitsPerPage,
          JSON.stringify(entry.objectIDs),
          JSON.stringify(entry.filters.map((f) => [f.attribute, f.operator, f.value])),
          JSON.stringify(entry.tags),
          entry.abTestID ?? null,
          entry.abTestVariantID ?? null,
          entry.country ?? null,
        );
        if (before && continues(before, entry)) this.#stmt.supersede.run(before.id);
      }
    });
    await commitWhenUnlocked(this.#db, () => unsyncedCommit(this.#db, () => append.immediate()));
  }

  /** A deleted user token's searches under their stand-in, once the write lock is free (as `append`). */
  async forgetUser(userToken: string, standIn: string): Promise<void> {
    const forget = this.#db.transaction(() => this.#stmt.forget.run(standIn, userToken));
    await commitWhenUnlocked(this.#db, () => forget.immediate());
  }

  async count(filter: AnalyticsSearchFilter): Promise<number> {
    const { where, params } = searchFilter(filter, () => '?');
    const row = this.#db.prepare(`SELECT COUNT(*) AS n FROM analytics_searches WHERE ${where}`).get(...params) as {
      n: number;
    };
    return row.n;
  }
}

/**
 * The WHERE clause of an {@link AnalyticsSearchFilter} (`TRUE` without criteria), with `placeholder(n)` for
 * the n-th parameter (SQLite `?`, PostgreSQL `$n`): both backends select the same rows.
 *
 * @example
 * searchFilter({ userKey: 'alice' }, (n) => `$${n}`); // { where: 'user_key = $1', params: ['alice'] }
 */
export function searchFilter(
  filter: AnalyticsSearchFilter,
  placeholder: (n: number) => string,
): { where: string; params: Array<string | number> } {
  const columns: Array<[string, string | number | undefined]> = [
    ['index_name', filter.indexName],
    ['user_key', filter.userKey],
    ['ab_test_id', filter.abTestID],
  ];
  const params: Array<string | number> = [];
  const conditions: string[] = [];
  for (const [column, value] of columns) {
    if (value === undefined) continue;
    params.push(value);
    conditions.push(`${column} = ${placeholder(params.length)}`);
  }
  return { where: conditions.length ? conditions.join(' AND ') : 'TRUE', params };
}
