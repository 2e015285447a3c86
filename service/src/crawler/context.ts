/**
 * What the parts of the crawler share: storage, the task queue, the catalog the crawls write to, the work in
 * progress of each crawler (memory only: a restart ends it), and the checks a configuration must pass.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import { indexAllowed } from '../keys/authorizer.js';
import type { Keys } from '../keys/keys.js';
import type { CrawlerStore, StoredCrawler, TaskKind } from '../storage/types.js';
import type { TaskQueue, Write } from '../tasks/queue.js';
import { type CrawlerConfig, liveIndices, parseConfig } from './config.js';
import type { Pace } from './crawl.js';

/** Work in progress of one crawler. */
export interface Runtime {
  pace: Pace;
  reindex?: { taskId: string; abort: AbortController; finished: Promise<void> };
  /** Immediate URL crawls writing into the temporary indices of the running reindex. */
  intoTemp: Set<Promise<void>>;
}

export interface CrawlerContext {
  readonly store: CrawlerStore;
  readonly tasks: TaskQueue;
  readonly catalog: Catalog;
  readonly keys: Keys;
  readonly app: { appId: string; adminKey: string; searchKey: string };
  now(): number;
  /** Aborted when the service closes: every crawl stops. */
  readonly closing: AbortSignal;
  /** The work in progress of a crawler (created paused when the crawler is not running). */
  runtime(crawler: StoredCrawler): Runtime;
  /** The registered domains (host names and `*.host` patterns). */
  domainNames(): Promise<string[]>;
}

/**
 * Validates a configuration, then its appId (this service's) and apiKey (a key of this app with addObject on
 * the indices).
 */
export function checkConfig(context: CrawlerContext, value: unknown): CrawlerConfig {
  const config = parseConfig(value);
  if (config.appId !== context.app.appId)
    throw new ServiceError(
      400,
      `config.appId: ${JSON.stringify(config.appId)} is not the application id of this service (${context.app.appId})`,
    );
  checkKey(context, config, 'config.apiKey');
  return config;
}

/** The configuration's key may write every live index (checked again when a crawl starts). */
export function checkKey(context: CrawlerContext, config: CrawlerConfig, field: string): void {
  if (config.apiKey === context.app.adminKey) return;
  if (config.apiKey === context.app.searchKey)
    throw new ServiceError(400, `${field}: the API key lacks the addObject right (it is the search key)`);
  const key = context.keys.get(config.apiKey);
  if (!key)
    throw new ServiceError(
      400,
      `${field}: not an API key of application ${context.app.appId} (unknown, deleted or expired)`,
    );
  if (!key.acl.includes('addObject')) throw new ServiceError(400, `${field}: the API key lacks the addObject right`);
  const patterns = { indexes: key.indexes ?? (key.index !== undefined ? [key.index] : undefined) };
  for (const indexName of liveIndices(config)) {
    if (!indexAllowed(patterns, indexName))
      throw new ServiceError(400, `${field}: the API key may not write to the index ${indexName}`);
  }
}

/** Records a new task of the crawler in `write`; returns its id. */
export function newTask(
  context: CrawlerContext,
  write: Write,
  crawlerId: string,
  kind: TaskKind,
  pending: boolean,
): string {
  const id = randomUUID();
  write.change({
    area: 'crawler',
    type: 'insertTask',
    task: { id, crawlerId, kind, pending, createdAt: context.now() },
  });
  return id;
}

/** Records the crawler's new state in `write`. */
export function saveCrawler(write: Write, crawler: StoredCrawler, insert = false): void {
  write.change({ area: 'crawler', type: 'putCrawler', crawler: structuredClone(crawler), insert });
}

/** The task header of a crawler's writes (the first live index of its configuration). */
export function crawlerTask(crawler: StoredCrawler, kind: string): { indexName: string; kind: string } {
  return { indexName: liveIndices(crawler.config as CrawlerConfig)[0] ?? '*', kind: `crawler:${kind}` };
}

/** A blocked crawler refuses what would change its indices until its blocking task is cancelled. */
export function refuseBlocked(crawler: StoredCrawler, what: string): void {
  if (crawler.blocked) {
    throw new ServiceError(
      400,
      `The crawler is blocked by task ${crawler.blockingTaskId}; cancel that task (POST /api/1/crawlers/${crawler.id}/tasks/${crawler.blockingTaskId}/cancel) before ${what}`,
    );
  }
}
