/**
 * The searches Analytics counts, in PostgreSQL (`analytics_searches`), and the reports computed from them.
 *
 * The reports are the SQLite backend's (`../sqlite/analytics/reports.ts`: one definition of every figure,
 * not two dialects that could drift apart), run on a per-call, in-memory SQLite copy of the rows the scope
 * can count: the index's searches of the period and the Insights events that carry their queryIDs. Its cost
 * is a copy of those rows per call, which is what an Analytics call over a period reads anyway.
 */
import type Database from 'better-sqlite3';
import type { Pool, PoolClient } from 'pg';
import { openDatabase } from '../sqlite/open.js';
import { SqliteAnalyticsReports } from '../sqlite/analytics/reports.js';
import { searchFilter } from '../sqlite/analytics/store.js';
import type {
  AnalyticsReports,
  AnalyticsSearch,
  AnalyticsSearchFilter,
  AnalyticsStore,
  OrderBy,
  Page,
  Scope,
} from '../types.js';

/** The advisory lock of Analytics batch writes: one batch at a time across replicas (typing series). */
const ANALYTICS_LOCK = 7_240_003;

const SEARCH_COLUMNS = [
  'id',
  'index_name',
  'ts',
  'query',
  'nb_hits',
  'user_key',
  'anonymous',
  'query_id',
  'page',
  'hits_per_page',
  'object_ids',
  'filters',
  'tags',
  'superseded',
  'ab_test_id',
  'ab_test_variant',
  'country',
];
const EVENT_COLUMNS = [
  'id',
  'event_type',
  'event_name',
  'index_name',
  'user_token',
  'timestamp',
  'received_at',
  'query_id',
  'object_ids',
  'filters',
  'positions',
  'search_index',
  'search_query',
  'search_at',
  'search_positions',
  'fingerprint',
];

type Transaction = <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>;

export class PgAnalytics implements AnalyticsStore {
  readonly reports: AnalyticsReports;
  readonly #pool: Pool;
  readonly #transaction: Transaction;

  constructor(pool: Pool, transaction: Transaction) {
    this.#pool = pool;
    this.#transaction = transaction;
    this.reports = new PgAnalyticsReports(pool);
  }

  append(
    searches: readonly AnalyticsSearch[],
    continues: (previous: { query: string; ts: number }, next: { query: string; ts: number }) => boolean,
  ): Promise<void> {
    return this.#transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [ANALYTICS_LOCK]);
      for (const entry of searches) {
        const before = (
          await client.query<{ id: number; query: string; ts: number }>(
            'SELECT id, query, ts FROM analytics_searches WHERE index_name = $1 AND user_key = $2 ORDER BY id DESC LIMIT 1',
            [entry.indexName, entry.userKey],
          )
        ).rows[0];
        await client.query(
          `INSERT INTO analytics_searches
             (index_name, ts, query, nb_hits, user_key, anonymous, query_id, page, hits_per_page, object_ids, filters,
              tags, ab_test_id, ab_test_variant, country)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
          [
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
          ],
        );
        if (before && continues(before, entry))
          await client.query('UPDATE analytics_searches SET superseded = 1 WHERE id = $1', [before.id]);
      }
    });
  }

  async forgetUser(userToken: string, standIn: string): Promise<void> {
    await this.#pool.query('UPDATE analytics_searches SET user_key = $1 WHERE user_key = $2 AND anonymous = 0', [
      standIn,
      userToken,
    ]);
  }

  async count(filter: AnalyticsSearchFilter): Promise<number> {
    const { where, params } = searchFilter(filter, (n) => `$${n}`);
    const { rows } = await this.#pool.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM analytics_searches WHERE ${where}`,
      params,
    );
    return Number(rows[0]!.n);
  }
}

/** Copies rows into a table of the in-memory SQLite database. */
function copyRows(db: Database.Database, table: string, columns: string[], rows: Array<Record<string, unknown>>): void {
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  db.transaction(() => {
    for (const row of rows) insert.run(...columns.map((column) => row[column] ?? null));
  })();
}

class PgAnalyticsReports implements AnalyticsReports {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** Runs a report on a copy of the searches `where` selects and their events. */
  async #on<T>(where: string, params: unknown[], report: (reports: SqliteAnalyticsReports) => Promise<T>): Promise<T> {
    const searches = await this.#pool.query(
      `SELECT ${SEARCH_COLUMNS.join(', ')} FROM analytics_searches WHERE ${where}`,
      params,
    );
    const events = await this.#pool.query(
      `SELECT ${EVENT_COLUMNS.map((column) => `e.${column}`).join(', ')} FROM insights_events e
       WHERE e.query_id IN (SELECT query_id FROM analytics_searches WHERE ${where} AND query_id IS NOT NULL)`,
      params,
    );
    const db = openDatabase(':memory:');
    try {
      copyRows(db, 'analytics_searches', SEARCH_COLUMNS, searches.rows);
      copyRows(db, 'insights_events', EVENT_COLUMNS, events.rows);
      return await report(new SqliteAnalyticsReports(db));
    } finally {
      db.close();
    }
  }

  #scoped<T>(scope: Scope, report: (reports: SqliteAnalyticsReports) => Promise<T>): Promise<T> {
    return this.#on(
      'index_name = $1 AND ts >= $2 AND ts < $3',
      [scope.index, scope.period.from, scope.period.to],
      report,
    );
  }

  async status(index: string): Promise<{ updatedAt: string | null }> {
    const { rows } = await this.#pool.query<{ ts: number | null }>(
      'SELECT MAX(ts) AS ts FROM analytics_searches WHERE index_name = $1',
      [index],
    );
    const ts = rows[0]?.ts ?? null;
    return { updatedAt: ts === null ? null : new Date(ts).toISOString() };
  }

  topSearches(scope: Scope, options: Page & { clickAnalytics: boolean; orderBy: OrderBy; direction: 'asc' | 'desc' }) {
    return this.#scoped(scope, (reports) => reports.topSearches(scope, options));
  }
  searchesCount(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.searchesCount(scope));
  }
  noResults(scope: Scope, page: Page) {
    return this.#scoped(scope, (reports) => reports.noResults(scope, page));
  }
  noClicks(scope: Scope, page: Page) {
    return this.#scoped(scope, (reports) => reports.noClicks(scope, page));
  }
  noResultRate(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.noResultRate(scope));
  }
  noClickRate(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.noClickRate(scope));
  }
  topHits(scope: Scope, options: Page & { clickAnalytics: boolean }) {
    return this.#scoped(scope, (reports) => reports.topHits(scope, options));
  }
  usersCount(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.usersCount(scope));
  }
  filterAttributes(scope: Scope, page: Page) {
    return this.#scoped(scope, (reports) => reports.filterAttributes(scope, page));
  }
  countries(scope: Scope, page: Page) {
    return this.#scoped(scope, (reports) => reports.countries(scope, page));
  }
  filterValues(scope: Scope, attributes: string[], page: Page) {
    return this.#scoped(scope, (reports) => reports.filterValues(scope, attributes, page));
  }
  filtersNoResults(scope: Scope & { search: string }, page: Page) {
    return this.#scoped(scope, (reports) => reports.filtersNoResults(scope, page));
  }
  averageClickPosition(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.averageClickPosition(scope));
  }
  clickPositions(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.clickPositions(scope));
  }
  clickThroughRate(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.clickThroughRate(scope));
  }
  conversionRate(scope: Scope) {
    return this.#scoped(scope, (reports) => reports.conversionRate(scope));
  }
  abTestVariant(abTestID: number, variant: number, index: string) {
    return this.#on('ab_test_id = $1 AND ab_test_variant = $2', [abTestID, variant], (reports) =>
      reports.abTestVariant(abTestID, variant, index),
    );
  }
}
