/**
 * Durability of the Crawler API (document 3, "Crawler"): the crawlers (`crawler_crawlers`: name,
 * configuration as JSON, the flags `running`/`reindexing`/`blocked`, the blocking task, the reindex dates),
 * their tasks (`crawler_tasks`: kind, pending, how each ended), what the crawls saw of each URL
 * (`crawler_urls`: status, reason, category, readable text and the objectIDs the URL produced per index;
 * generation `live` for the crawl behind the live indices, `temp` for a reindex in progress or blocked) and
 * the registered domains (`crawler_domains`). See `docs/notes/crawler.md`.
 */
import type Database from 'better-sqlite3';

import { type CrawlerRow, type CrawlerTaskRow, crawlerOf, crawlerTaskOf } from '../rows.js';
import type {
  CrawlerChange,
  CrawlerStore,
  Generation,
  StoredCrawler,
  StoredTask,
  TaskKind,
  UrlStatistic,
} from '../types.js';

/**
 * @example
 * const store = new CrawlerStore(db);
 * store.insertCrawler({ id, name: 'docs', config, … });
 * store.crawler(id)?.running // false
 */
export class SqliteCrawler implements CrawlerStore {
  readonly #stmt;

  constructor(db: Database.Database) {
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

  async crawlers(): Promise<StoredCrawler[]> {
    return (this.#stmt.crawlers.all() as CrawlerRow[]).map(crawlerOf);
  }

  async crawler(id: string): Promise<StoredCrawler | undefined> {
    const row = this.#stmt.crawler.get(id) as CrawlerRow | undefined;
    return row ? crawlerOf(row) : undefined;
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

  async task(id: string): Promise<StoredTask | undefined> {
    const row = this.#stmt.task.get(id) as CrawlerTaskRow | undefined;
    return row ? crawlerTaskOf(row) : undefined;
  }

  async pendingTasks(): Promise<StoredTask[]> {
    return (this.#stmt.pendingTasks.all() as CrawlerTaskRow[]).map(crawlerTaskOf);
  }

  async countTasksSince(crawlerId: string, kind: TaskKind, since: number): Promise<number> {
    return (this.#stmt.countTasksSince.get(crawlerId, kind, since) as { n: number }).n;
  }

  /** The objectIDs a URL produced in a generation, per index (`{}` when unknown). */
  async urlRecords(crawlerId: string, generation: Generation, url: string): Promise<Record<string, string[]>> {
    const row = this.#stmt.url.get(crawlerId, generation, url) as { records: string } | undefined;
    return row ? (JSON.parse(row.records) as Record<string, string[]>) : {};
  }

  async hasGeneration(crawlerId: string, generation: Generation): Promise<boolean> {
    return this.#stmt.hasGeneration.get(crawlerId, generation) !== undefined;
  }

  async statistics(crawlerId: string, generation: Generation): Promise<UrlStatistic[]> {
    return this.#stmt.statistics.all(crawlerId, generation) as UrlStatistic[];
  }

  async domains(): Promise<Array<{ domain: string; verified: boolean }>> {
    return (this.#stmt.domains.all() as Array<{ domain: string; verified: number }>).map((row) => ({
      domain: row.domain,
      verified: row.verified === 1,
    }));
  }

  apply(change: CrawlerChange): void {
    switch (change.type) {
      case 'putCrawler':
        (change.insert ? this.#stmt.insertCrawler : this.#stmt.updateCrawler).run(this.#params(change.crawler));
        break;
      case 'insertTask': {
        const { task } = change;
        this.#stmt.insertTask.run(
          task.id,
          task.crawlerId,
          task.kind,
          task.pending ? 1 : 0,
          task.pending ? null : 'done',
          null,
          task.createdAt,
          task.pending ? null : task.createdAt,
        );
        break;
      }
      case 'endTask':
        // Does nothing when the task has ended already.
        this.#stmt.endTask.run(change.outcome, change.message ?? null, change.at, change.id);
        break;
      case 'noteTask':
        this.#stmt.noteTask.run(change.message, change.id);
        break;
      case 'putUrl': {
        const { outcome } = change;
        this.#stmt.upsertUrl.run({
          crawlerId: change.crawlerId,
          generation: change.generation,
          url: outcome.url,
          status: outcome.status,
          reason: outcome.reason,
          category: outcome.category,
          readable: outcome.readable,
          records: JSON.stringify(outcome.records),
        });
        break;
      }
      case 'clearGeneration':
        this.#stmt.clearGeneration.run(change.crawlerId, change.generation);
        break;
      case 'promoteTemp':
        // The reindex replaced the live indices: its URLs become the live generation.
        this.#stmt.clearGeneration.run(change.crawlerId, 'live');
        this.#stmt.promoteTemp.run(change.crawlerId);
        break;
      case 'putDomain':
        this.#stmt.upsertDomain.run(change.domain, change.verified ? 1 : 0);
        break;
    }
  }
}
