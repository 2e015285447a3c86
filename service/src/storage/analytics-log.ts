/**
 * The durable log behind the Analytics API (document 2): one row per search answered with `analytics`
 * not false, in the table `analytics_searches` of the service database.
 *
 * Writes stay off the search path: `record` only queues the row; the queue is written in one
 * transaction (one fsync) 250 ms after its first row, at once from 1,000 rows, before every Analytics
 * read (`flush`) and when the service closes. A `kill -9` can therefore lose the searches of the last
 * 250 ms — the price of not adding an fsync to every search (see `docs/notes/analytics.md`).
 *
 * Search-as-you-type aggregation ("prefix" aggregation of the document) is decided when rows are
 * written: a search is marked `superseded` by the next search of the same user on the same index when
 * that one comes at most 5 s later and one query is a prefix of the other (compared case-insensitively,
 * NFKC). Only the last search of such a series counts; the rows themselves are all kept.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

/** How a filter was applied: the operators of the hosted Analytics API. */
export type FilterOperator = ':' | '<' | '<=' | '=' | '!=' | '>' | '>=';

export interface AnalyticsFilter {
  attribute: string;
  operator: FilterOperator;
  value: string;
}

/** One search as the Analytics API sees it. */
export interface AnalyticsSearch {
  indexName: string;
  /** When it was answered (Unix ms, the service clock). */
  ts: number;
  /** The user's input, as sent. */
  query: string;
  nbHits: number;
  /** The search's userToken, else the `X-Service-UserToken` header, else the client IP (`anonymous`). */
  userKey: string;
  /** True when `userKey` is the client IP (no user token was given). */
  anonymous: boolean;
  /** Set when the search was answered with `clickAnalytics` (a tracked search). */
  queryID?: string;
  page: number;
  hitsPerPage: number;
  /** objectIDs of the answered page, in order (position = page × hitsPerPage + index + 1). */
  objectIDs: string[];
  /** The filters of the request (`filters`, `facetFilters`, `numericFilters`, `tagFilters`). */
  filters: AnalyticsFilter[];
  /** `analyticsTags` of the search. */
  tags: string[];
  /** The A/B test the search was part of (document 2, "A/B test"), when one was active on its index. */
  abTestID?: number;
  /** Its variant: 1 (the first index) or 2. */
  abTestVariantID?: number;
  /** The country of the request (ISO 3166-1 alpha-2), from a header a proxy sets (`/2/countries`). */
  country?: string;
}

export interface AnalyticsLogOptions {
  /** Delay between the first queued row and the write (default 250 ms). */
  flushDelayMs?: number;
  /** Queue size that triggers a write at once (default 1,000). */
  maxBatch?: number;
  /** Keystroke aggregation window (default 5,000 ms). */
  aggregationWindowMs?: number;
}

/** Default keystroke aggregation window: searches at most this far apart can form one typing series. */
export const AGGREGATION_WINDOW_MS = 5_000;

/**
 * Case- and width-insensitive form of a query for the prefix test.
 *
 * @example
 * prefixForm('  Chair ') // 'chair '
 */
export function prefixForm(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trimStart();
}

/**
 * True when `next` ends the typing series of `previous` (same user and index assumed): at most
 * `windowMs` later and one query is a prefix of the other.
 *
 * @example
 * continuesSeries({ query: 'ch', ts: 0 }, { query: 'cha', ts: 300 }) // true
 * continuesSeries({ query: 'chair', ts: 0 }, { query: 'lamp', ts: 300 }) // false
 */
export function continuesSeries(
  previous: { query: string; ts: number },
  next: { query: string; ts: number },
  windowMs = AGGREGATION_WINDOW_MS,
): boolean {
  const gap = next.ts - previous.ts;
  if (gap < 0 || gap > windowMs) return false;
  const a = prefixForm(previous.query);
  const b = prefixForm(next.query);
  return b.startsWith(a) || a.startsWith(b);
}

/**
 * Adds the A/B test columns (`ab_test_id`, `ab_test_variant`, both nullable) to an `analytics_searches`
 * table created before A/B tests existed — the table is in users' data directories — and their index.
 * Safe to run at every start: a column is added only when `PRAGMA table_info` does not list it, and
 * `ALTER TABLE … ADD COLUMN` of a nullable column keeps every existing row (as NULL: not in a test).
 *
 * @example
 * migrateAbTestColumns(db);
 */
export function migrateAbTestColumns(db: Database.Database): void {
  const columns = new Set(
    (db.prepare('PRAGMA table_info(analytics_searches)').all() as Array<{ name: string }>).map((column) => column.name),
  );
  db.transaction(() => {
    if (!columns.has('ab_test_id')) db.exec('ALTER TABLE analytics_searches ADD COLUMN ab_test_id INTEGER');
    if (!columns.has('ab_test_variant')) db.exec('ALTER TABLE analytics_searches ADD COLUMN ab_test_variant INTEGER');
    // The request's country (`/2/countries`): NULL for the searches recorded before, as for those without one.
    if (!columns.has('country')) db.exec('ALTER TABLE analytics_searches ADD COLUMN country TEXT');
    db.exec(
      'CREATE INDEX IF NOT EXISTS analytics_searches_ab_test ON analytics_searches (ab_test_id, ab_test_variant)',
    );
  })();
}

/**
 * @example
 * const log = new AnalyticsLog(db);
 * log.record({ indexName: 'products', ts: Date.now(), query: 'chair', nbHits: 12, userKey: 'u1', anonymous: false,
 *              page: 0, hitsPerPage: 20, objectIDs: ['1', '2'], filters: [], tags: [] });
 * log.flush(); // written
 */
export class AnalyticsLog {
  private pending: AnalyticsSearch[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private readonly insert: Database.Statement;
  private readonly previous: Database.Statement;
  private readonly supersede: Database.Statement;
  private readonly flushDelayMs: number;
  private readonly maxBatch: number;
  private readonly windowMs: number;

  constructor(
    private readonly db: Database.Database,
    options: AnalyticsLogOptions = {},
  ) {
    this.flushDelayMs = options.flushDelayMs ?? 250;
    this.maxBatch = options.maxBatch ?? 1000;
    this.windowMs = options.aggregationWindowMs ?? AGGREGATION_WINDOW_MS;
    db.exec(`
      CREATE TABLE IF NOT EXISTS analytics_searches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        index_name TEXT NOT NULL,
        ts INTEGER NOT NULL,
        query TEXT NOT NULL,
        nb_hits INTEGER NOT NULL,
        user_key TEXT NOT NULL,
        anonymous INTEGER NOT NULL,
        query_id TEXT,
        page INTEGER NOT NULL,
        hits_per_page INTEGER NOT NULL,
        object_ids TEXT NOT NULL,
        filters TEXT NOT NULL,
        tags TEXT NOT NULL,
        superseded INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS analytics_searches_index_ts ON analytics_searches (index_name, ts);
      CREATE INDEX IF NOT EXISTS analytics_searches_user ON analytics_searches (index_name, user_key, id);
    `);
    migrateAbTestColumns(db);
    this.insert = db.prepare(`
      INSERT INTO analytics_searches
        (index_name, ts, query, nb_hits, user_key, anonymous, query_id, page, hits_per_page, object_ids, filters, tags,
         ab_test_id, ab_test_variant, country)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    `);
    this.previous = db.prepare(
      'SELECT id, query, ts FROM analytics_searches WHERE index_name = ? AND user_key = ? ORDER BY id DESC LIMIT 1',
    );
    this.supersede = db.prepare('UPDATE analytics_searches SET superseded = 1 WHERE id = ?');
  }

  /** Queues one search (no I/O on the caller's path). */
  record(entry: AnalyticsSearch): void {
    this.pending.push(entry);
    if (this.pending.length >= this.maxBatch) {
      this.immediate ??= setImmediate(() => this.flushSafely());
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.flushSafely(), this.flushDelayMs);
      this.timer.unref();
    }
  }

  /** Searches queued and not yet written. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Writes every queued search in one transaction (and marks the searches they supersede). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    if (this.pending.length === 0 || !this.db.open) return;
    const batch = this.pending;
    this.pending = [];
    try {
      this.db.transaction(() => {
        for (const entry of batch) {
          const before = this.previous.get(entry.indexName, entry.userKey) as
            | { id: number; query: string; ts: number }
            | undefined;
          this.insert.run(
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
          if (before && continuesSeries(before, entry, this.windowMs)) this.supersede.run(before.id);
        }
      })();
    } catch (error) {
      // Not lost: put back in front of what was queued meanwhile, retried by the next write.
      this.pending = [...batch, ...this.pending];
      throw error;
    }
  }

  /**
   * A deleted user token (`DELETE /1/usertokens/{userToken}`): its recorded searches keep counting as one
   * user's, under a random stand-in, so that search and user counts stay as they were and nothing links
   * them to the token any more.
   */
  forgetUser(userToken: string): void {
    this.flush();
    const standIn = `deleted-${randomUUID()}`;
    this.db
      .prepare('UPDATE analytics_searches SET user_key = ? WHERE user_key = ? AND anonymous = 0')
      .run(standIn, userToken);
  }

  /** Writes what is queued and stops the timer (the service is closing). */
  close(): void {
    this.flushSafely();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (error) {
      console.error('[svc-search] analytics: writing the search log failed; retrying later', error);
      if (this.db.open && !this.timer) {
        this.timer = setTimeout(() => this.flushSafely(), Math.max(this.flushDelayMs, 1000));
        this.timer.unref();
      }
    }
  }
}
