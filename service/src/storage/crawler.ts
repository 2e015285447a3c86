/**
 * Durability of the Crawler API (document 3, "Crawler"): the crawlers (`crawler_crawlers`: name,
 * configuration as JSON, the flags `running`/`reindexing`/`blocked`, the blocking task, the reindex dates),
 * their tasks (`crawler_tasks`: kind, pending, how each ended), what the crawls saw of each URL
 * (`crawler_urls`: status, reason, category, readable text and the objectIDs the URL produced per index;
 * generation `live` for the crawl behind the live indices, `temp` for a reindex in progress or blocked) and
 * the registered domains (`crawler_domains`). See `docs/notes/crawler.md`.
 */
import type Database from 'better-sqlite3';

export interface StoredCrawler {
  id: string;
  name: string;
  config: Record<string, unknown>;
  running: boolean;
  reindexing: boolean;
  blocked: boolean;
  blockingTaskId: string | null;
  /** Unix ms, `null` before the first reindex. */
  lastReindexStartedAt: number | null;
  lastReindexEndedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type TaskKind = 'reindex' | 'run' | 'pause' | 'update' | 'urls';
/** How a task ended: `done`, `cancelled` (the blocking task, rule 3), `interrupted` (service stopped), `restarted` (a new reindex replaced it), `failed`. */
export type TaskOutcome = 'done' | 'cancelled' | 'interrupted' | 'restarted' | 'failed';

export interface StoredTask {
  id: string;
  crawlerId: string;
  kind: TaskKind;
  pending: boolean;
  outcome: TaskOutcome | null;
  message: string | null;
  createdAt: number;
  endedAt: number | null;
}

export type Generation = 'live' | 'temp';
export type UrlStatus = 'DONE' | 'SKIPPED' | 'FAILED';

/** What one crawl saw of one URL. */
export interface UrlOutcome {
  url: string;
  status: UrlStatus;
  reason: string;
  category: string;
  readable: string;
  /** objectIDs the URL produced, per (target) index name. */
  records: Record<string, string[]>;
}

export interface UrlStatistic {
  reason: string;
  status: UrlStatus;
  category: string;
  readable: string;
  count: number;
}

interface CrawlerRow {
  id: string;
  name: string;
  config: string;
  running: number;
  reindexing: number;
  blocked: number;
  blocking_task_id: string | null;
  last_reindex_started_at: number | null;
  last_reindex_ended_at: number | null;
  created_at: number;
  updated_at: number;
}

interface TaskRow {
  id: string;
  crawler_id: string;
  kind: TaskKind;
  pending: number;
  outcome: TaskOutcome | null;
  message: string | null;
  created_at: number;
  ended_at: number | null;
}

function toCrawler(row: CrawlerRow): StoredCrawler {
  return {
    id: row.id,
    name: row.name,
    config: JSON.parse(row.config) as Record<string, unknown>,
    running: row.running === 1,
    reindexing: row.reindexing === 1,
    blocked: row.blocked === 1,
    blockingTaskId: row.blocking_task_id,
    lastReindexStartedAt: row.last_reindex_started_at,
    lastReindexEndedAt: row.last_reindex_ended_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toTask(row: TaskRow): StoredTask {
  return {
    id: row.id,
    crawlerId: row.crawler_id,
    kind: row.kind,
    pending: row.pending === 1,
    outcome: row.outcome,
    message: row.message,
    createdAt: row.created_at,
    endedAt: row.ended_at,
  };
}

/**
 * @example
 * const store = new CrawlerStore(db);
 * store.insertCrawler({ id, name: 'docs', config, … });
 * store.crawler(id)?.running // false
 */
export class CrawlerStore {
  readonly #db: Database.Database;
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS crawler_crawlers (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        config TEXT NOT NULL,
        running INTEGER NOT NULL DEFAULT 0,
        reindexing INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0,
        blocking_task_id TEXT,
        last_reindex_started_at INTEGER,
        last_reindex_ended_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        seq INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS crawler_tasks (
        id TEXT PRIMARY KEY,
        crawler_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        pending INTEGER NOT NULL,
        outcome TEXT,
        message TEXT,
        created_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS crawler_tasks_by_crawler ON crawler_tasks (crawler_id, kind, created_at);
      CREATE TABLE IF NOT EXISTS crawler_urls (
        crawler_id TEXT NOT NULL,
        generation TEXT NOT NULL,
        url TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        category TEXT NOT NULL,
        readable TEXT NOT NULL,
        records TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (crawler_id, generation, url)
      );
      CREATE TABLE IF NOT EXISTS crawler_domains (
        domain TEXT PRIMARY KEY,
        verified INTEGER NOT NULL,
        seq INTEGER NOT NULL
      );
    `);
    this.#stmt = {
      crawlers: db.prepare('SELECT * FROM crawler_crawlers ORDER BY seq'),
      crawler: db.prepare('SELECT * FROM crawler_crawlers WHERE id = ?'),
      insertCrawler: db.prepare(
        `INSERT INTO crawler_crawlers (id, name, config, running, reindexing, blocked, blocking_task_id,
           last_reindex_started_at, last_reindex_ended_at, created_at, updated_at, seq)
         VALUES (@id, @name, @config, @running, @reindexing, @blocked, @blockingTaskId, @lastReindexStartedAt,
           @lastReindexEndedAt, @createdAt, @updatedAt, (SELECT COALESCE(MAX(seq), 0) + 1 FROM crawler_crawlers))`,
      ),
      updateCrawler: db.prepare(
        `UPDATE crawler_crawlers SET name = @name, config = @config, running = @running, reindexing = @reindexing,
           blocked = @blocked, blocking_task_id = @blockingTaskId, last_reindex_started_at = @lastReindexStartedAt,
           last_reindex_ended_at = @lastReindexEndedAt, updated_at = @updatedAt WHERE id = @id`,
      ),
      task: db.prepare('SELECT * FROM crawler_tasks WHERE id = ?'),
      pendingTasks: db.prepare('SELECT * FROM crawler_tasks WHERE pending = 1'),
      insertTask: db.prepare(
        'INSERT INTO crawler_tasks (id, crawler_id, kind, pending, outcome, message, created_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      endTask: db.prepare(
        'UPDATE crawler_tasks SET pending = 0, outcome = ?, message = ?, ended_at = ? WHERE id = ? AND pending = 1',
      ),
      noteTask: db.prepare('UPDATE crawler_tasks SET message = ? WHERE id = ?'),
      countTasksSince: db.prepare(
        'SELECT COUNT(*) AS n FROM crawler_tasks WHERE crawler_id = ? AND kind = ? AND created_at >= ?',
      ),
      upsertUrl: db.prepare(
        `INSERT INTO crawler_urls (crawler_id, generation, url, status, reason, category, readable, records)
         VALUES (@crawlerId, @generation, @url, @status, @reason, @category, @readable, @records)
         ON CONFLICT (crawler_id, generation, url) DO UPDATE SET status = excluded.status, reason = excluded.reason,
           category = excluded.category, readable = excluded.readable, records = excluded.records`,
      ),
      url: db.prepare('SELECT records FROM crawler_urls WHERE crawler_id = ? AND generation = ? AND url = ?'),
      clearGeneration: db.prepare('DELETE FROM crawler_urls WHERE crawler_id = ? AND generation = ?'),
      promoteTemp: db.prepare(
        `UPDATE crawler_urls SET generation = 'live' WHERE crawler_id = ? AND generation = 'temp'`,
      ),
      hasGeneration: db.prepare('SELECT 1 FROM crawler_urls WHERE crawler_id = ? AND generation = ? LIMIT 1'),
      statistics: db.prepare(
        `SELECT reason, status, category, readable, COUNT(*) AS count FROM crawler_urls
         WHERE crawler_id = ? AND generation = ? GROUP BY reason, status, category, readable
         ORDER BY CASE status WHEN 'DONE' THEN 0 WHEN 'SKIPPED' THEN 1 ELSE 2 END, reason`,
      ),
      domains: db.prepare('SELECT domain, verified FROM crawler_domains ORDER BY seq'),
      upsertDomain: db.prepare(
        `INSERT INTO crawler_domains (domain, verified, seq) VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM crawler_domains))
         ON CONFLICT (domain) DO UPDATE SET verified = excluded.verified`,
      ),
    };
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }

  crawlers(): StoredCrawler[] {
    return (this.#stmt.crawlers.all() as CrawlerRow[]).map(toCrawler);
  }

  crawler(id: string): StoredCrawler | undefined {
    const row = this.#stmt.crawler.get(id) as CrawlerRow | undefined;
    return row ? toCrawler(row) : undefined;
  }

  insertCrawler(crawler: StoredCrawler): void {
    this.#stmt.insertCrawler.run(this.#params(crawler));
  }

  saveCrawler(crawler: StoredCrawler): void {
    this.#stmt.updateCrawler.run(this.#params(crawler));
  }

  #params(crawler: StoredCrawler) {
    return {
      id: crawler.id,
      name: crawler.name,
      config: JSON.stringify(crawler.config),
      running: crawler.running ? 1 : 0,
      reindexing: crawler.reindexing ? 1 : 0,
      blocked: crawler.blocked ? 1 : 0,
      blockingTaskId: crawler.blockingTaskId,
      lastReindexStartedAt: crawler.lastReindexStartedAt,
      lastReindexEndedAt: crawler.lastReindexEndedAt,
      createdAt: crawler.createdAt,
      updatedAt: crawler.updatedAt,
    };
  }

  task(id: string): StoredTask | undefined {
    const row = this.#stmt.task.get(id) as TaskRow | undefined;
    return row ? toTask(row) : undefined;
  }

  pendingTasks(): StoredTask[] {
    return (this.#stmt.pendingTasks.all() as TaskRow[]).map(toTask);
  }

  insertTask(task: {
    id: string;
    crawlerId: string;
    kind: TaskKind;
    pending: boolean;
    outcome?: TaskOutcome;
    createdAt: number;
  }): void {
    this.#stmt.insertTask.run(
      task.id,
      task.crawlerId,
      task.kind,
      task.pending ? 1 : 0,
      task.pending ? null : (task.outcome ?? 'done'),
      null,
      task.createdAt,
      task.pending ? null : task.createdAt,
    );
  }

  /** Ends a pending task (does nothing when it has ended already). */
  endTask(id: string, outcome: TaskOutcome, at: number, message: string | null = null): void {
    this.#stmt.endTask.run(outcome, message, at, id);
  }

  /** Why a task is where it is (e.g. what blocked the crawler). */
  noteTask(id: string, message: string): void {
    this.#stmt.noteTask.run(message, id);
  }

  countTasksSince(crawlerId: string, kind: TaskKind, since: number): number {
    return (this.#stmt.countTasksSince.get(crawlerId, kind, since) as { n: number }).n;
  }

  saveUrl(crawlerId: string, generation: Generation, outcome: UrlOutcome): void {
    this.#stmt.upsertUrl.run({
      crawlerId,
      generation,
      url: outcome.url,
      status: outcome.status,
      reason: outcome.reason,
      category: outcome.category,
      readable: outcome.readable,
      records: JSON.stringify(outcome.records),
    });
  }

  /** The objectIDs a URL produced in a generation, per index (`{}` when unknown). */
  urlRecords(crawlerId: string, generation: Generation, url: string): Record<string, string[]> {
    const row = this.#stmt.url.get(crawlerId, generation, url) as { records: string } | undefined;
    return row ? (JSON.parse(row.records) as Record<string, string[]>) : {};
  }

  clearGeneration(crawlerId: string, generation: Generation): void {
    this.#stmt.clearGeneration.run(crawlerId, generation);
  }

  /** The reindex replaced the live indices: its URLs become the live generation. */
  promoteTemp(crawlerId: string): void {
    this.#stmt.clearGeneration.run(crawlerId, 'live');
    this.#stmt.promoteTemp.run(crawlerId);
  }

  hasGeneration(crawlerId: string, generation: Generation): boolean {
    return this.#stmt.hasGeneration.get(crawlerId, generation) !== undefined;
  }

  statistics(crawlerId: string, generation: Generation): UrlStatistic[] {
    return this.#stmt.statistics.all(crawlerId, generation) as UrlStatistic[];
  }

  domains(): Array<{ domain: string; verified: boolean }> {
    return (this.#stmt.domains.all() as Array<{ domain: string; verified: number }>).map((row) => ({
      domain: row.domain,
      verified: row.verified === 1,
    }));
  }

  saveDomain(domain: string, verified: boolean): void {
    this.#stmt.upsertDomain.run(domain, verified ? 1 : 0);
  }
}
