/**
 * Durability of the Crawler API in PostgreSQL: the same tables as SQLite's (`../sqlite/crawler.ts`):
 * crawlers, their tasks, what the crawls saw of each URL per generation, and the registered domains.
 */
import type { Pool, PoolClient } from 'pg';
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

export class PgCrawler implements CrawlerStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async crawlers(): Promise<StoredCrawler[]> {
    const { rows } = await this.#pool.query<CrawlerRow>('SELECT * FROM crawler_crawlers ORDER BY seq');
    return rows.map(crawlerOf);
  }

  async crawler(id: string): Promise<StoredCrawler | undefined> {
    const { rows } = await this.#pool.query<CrawlerRow>('SELECT * FROM crawler_crawlers WHERE id = $1', [id]);
    return rows[0] ? crawlerOf(rows[0]) : undefined;
  }

  async task(id: string): Promise<StoredTask | undefined> {
    const { rows } = await this.#pool.query<CrawlerTaskRow>('SELECT * FROM crawler_tasks WHERE id = $1', [id]);
    return rows[0] ? crawlerTaskOf(rows[0]) : undefined;
  }

  async pendingTasks(): Promise<StoredTask[]> {
    const { rows } = await this.#pool.query<CrawlerTaskRow>(
      'SELECT * FROM crawler_tasks WHERE pending ORDER BY created_at, id',
    );
    return rows.map(crawlerTaskOf);
  }

  async countTasksSince(crawlerId: string, kind: TaskKind, since: number): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM crawler_tasks WHERE crawler_id = $1 AND kind = $2 AND created_at >= $3',
      [crawlerId, kind, since],
    );
    return rows[0]!.n;
  }

  async urlRecords(crawlerId: string, generation: Generation, url: string): Promise<Record<string, string[]>> {
    const { rows } = await this.#pool.query<{ records: string }>(
      'SELECT records FROM crawler_urls WHERE crawler_id = $1 AND generation = $2 AND url = $3',
      [crawlerId, generation, url],
    );
    return rows[0] ? (JSON.parse(rows[0].records) as Record<string, string[]>) : {};
  }

  async hasGeneration(crawlerId: string, generation: Generation): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      'SELECT 1 FROM crawler_urls WHERE crawler_id = $1 AND generation = $2 LIMIT 1',
      [crawlerId, generation],
    );
    return (rowCount ?? 0) > 0;
  }

  async statistics(crawlerId: string, generation: Generation): Promise<UrlStatistic[]> {
    const { rows } = await this.#pool.query<UrlStatistic>(
      `SELECT reason, status, category, readable, COUNT(*) AS count FROM crawler_urls
       WHERE crawler_id = $1 AND generation = $2 GROUP BY reason, status, category, readable
       ORDER BY CASE status WHEN 'DONE' THEN 0 WHEN 'SKIPPED' THEN 1 ELSE 2 END, reason`,
      [crawlerId, generation],
    );
    return rows;
  }

  async domains(): Promise<Array<{ domain: string; verified: boolean }>> {
    const { rows } = await this.#pool.query<{ domain: string; verified: boolean }>(
      'SELECT domain, verified FROM crawler_domains ORDER BY seq',
    );
    return rows;
  }

  async apply(client: PoolClient, change: CrawlerChange): Promise<void> {
    switch (change.type) {
      case 'putCrawler': {
        const crawler = change.crawler;
        const values = [
          crawler.id,
          crawler.name,
          JSON.stringify(crawler.config),
          crawler.running,
          crawler.reindexing,
          crawler.blocked,
          crawler.blockingTaskId,
          crawler.lastReindexStartedAt,
          crawler.lastReindexEndedAt,
          crawler.createdAt,
          crawler.updatedAt,
        ];
        if (change.insert) {
          await client.query(
            `INSERT INTO crawler_crawlers (id, name, config, running, reindexing, blocked, blocking_task_id,
               last_reindex_started_at, last_reindex_ended_at, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
            values,
          );
        } else {
          await client.query(
            `UPDATE crawler_crawlers SET name = $2, config = $3, running = $4, reindexing = $5, blocked = $6,
               blocking_task_id = $7, last_reindex_started_at = $8, last_reindex_ended_at = $9, updated_at = $10
             WHERE id = $1`,
            [...values.slice(0, 9), crawler.updatedAt],
          );
        }
        break;
      }
      case 'insertTask': {
        const { task } = change;
        await client.query(
          `INSERT INTO crawler_tasks (id, crawler_id, kind, pending, outcome, message, created_at, ended_at)
           VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)`,
          [
            task.id,
            task.crawlerId,
            task.kind,
            task.pending,
            task.pending ? null : 'done',
            task.createdAt,
            task.pending ? null : task.createdAt,
          ],
        );
        break;
      }
      case 'endTask':
        // Does nothing when the task has ended already.
        await client.query(
          'UPDATE crawler_tasks SET pending = FALSE, outcome = $1, message = $2, ended_at = $3 WHERE id = $4 AND pending',
          [change.outcome, change.message ?? null, change.at, change.id],
        );
        break;
      case 'noteTask':
        await client.query('UPDATE crawler_tasks SET message = $1 WHERE id = $2', [change.message, change.id]);
        break;
      case 'putUrl': {
        const { outcome } = change;
        await client.query(
          `INSERT INTO crawler_urls (crawler_id, generation, url, status, reason, category, readable, records)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (crawler_id, generation, url) DO UPDATE SET status = excluded.status, reason = excluded.reason,
             category = excluded.category, readable = excluded.readable, records = excluded.records`,
          [
            change.crawlerId,
            change.generation,
            outcome.url,
            outcome.status,
            outcome.reason,
            outcome.category,
            outcome.readable,
            JSON.stringify(outcome.records),
          ],
        );
        break;
      }
      case 'clearGeneration':
        await client.query('DELETE FROM crawler_urls WHERE crawler_id = $1 AND generation = $2', [
          change.crawlerId,
          change.generation,
        ]);
        break;
      case 'promoteTemp':
        // The reindex replaced the live indices: its URLs become the live generation.
        await client.query(`DELETE FROM crawler_urls WHERE crawler_id = $1 AND generation = 'live'`, [
          change.crawlerId,
        ]);
        await client.query(
          `UPDATE crawler_urls SET generation = 'live' WHERE crawler_id = $1 AND generation = 'temp'`,
          [change.crawlerId],
        );
        break;
      case 'putDomain':
        await client.query(
          `INSERT INTO crawler_domains (domain, verified) VALUES ($1, $2)
           ON CONFLICT (domain) DO UPDATE SET verified = excluded.verified`,
          [change.domain, change.verified],
        );
        break;
    }
  }
}
