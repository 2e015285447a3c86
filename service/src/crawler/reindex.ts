/**
 * Reindexing (document 3, "Crawler"): a crawl of everything into temporary indices (`<live>.tmp`, with the live
 * indices' settings, rules and synonyms) moved over the live indices at the end — or blocked (rule 3) when
 * every fetched URL failed or a live index would lose most of its records, until the blocking task is
 * cancelled.
 */
import { ServiceError } from '../errors.js';
import { copyIndex, moveIndex } from '../indices/settings.js';
import type { StoredCrawler } from '../storage/types.js';
import type { Write } from '../tasks/queue.js';
import { type CrawlerConfig, liveIndices, temporaryIndexName } from './config.js';
import { type CrawlerContext, checkKey, crawlerTask, newTask, refuseBlocked, saveCrawler } from './context.js';
import { CrawlScope, crawl } from './crawl.js';
import { saveVisit } from './urls.js';

/** A reindex is blocked when a live index of at least this many records would lose more than half of them. */
export const BLOCK_MIN_LIVE_RECORDS = 10;

/** Deletes the temporary indices of a crawler's configuration and the URL statistics of its unfinished reindex. */
export function discardTemporary(context: CrawlerContext, write: Write, crawler: StoredCrawler): void {
  for (const live of liveIndices(crawler.config as CrawlerConfig)) {
    const temporary = temporaryIndexName(live);
    if (context.catalog.get(temporary)) context.catalog.deleteIndex(write, temporary);
  }
  write.change({ area: 'crawler', type: 'clearGeneration', crawlerId: crawler.id, generation: 'temp' });
}

/**
 * `reindex`: starts a reindex (a reindex in progress is restarted: its task ends). The crawler runs.
 * Resolves with the reindex's task once it has started; the crawl goes on in the background.
 */
export async function startReindex(context: CrawlerContext, crawler: StoredCrawler): Promise<string> {
  refuseBlocked(crawler, 'reindexing');
  const config = crawler.config as CrawlerConfig;
  const runtime = context.runtime(crawler);
  const previous = runtime.reindex;
  if (previous) previous.abort.abort(new Error('restarted'));
  const now = context.now();
  const { result: taskId } = await context.tasks.run(crawlerTask(crawler, 'reindex'), (write) => {
    if (previous) {
      write.change({
        area: 'crawler',
        type: 'endTask',
        id: previous.taskId,
        outcome: 'restarted',
        at: now,
        message: 'A new reindex replaced this one',
      });
    }
    const taskId = newTask(context, write, crawler.id, 'reindex', true);
    discardTemporary(context, write, crawler);
    for (const live of liveIndices(config)) {
      const temporary = temporaryIndexName(live);
      context.catalog.ensure(write, temporary);
      if (context.catalog.get(live))
        copyIndex(context.catalog, write, live, temporary, ['settings', 'synonyms', 'rules']);
    }
    crawler.running = true;
    crawler.reindexing = true;
    crawler.lastReindexStartedAt = now;
    crawler.updatedAt = now;
    saveCrawler(write, crawler);
    return taskId;
  });
  runtime.pace.resume();
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, context.closing]);
  const finished = reindexWork(context, crawler.id, config, taskId, signal).finally(() => {
    if (runtime.reindex?.taskId === taskId) runtime.reindex = undefined;
  });
  runtime.reindex = { taskId, abort, finished };
  return taskId;
}

async function reindexWork(
  context: CrawlerContext,
  id: string,
  config: CrawlerConfig,
  taskId: string,
  signal: AbortSignal,
): Promise<void> {
  const targets = new Map(liveIndices(config).map((live) => [live, temporaryIndexName(live)]));
  try {
    const started = await context.store.crawler(id);
    if (!started) return;
    const runtime = context.runtime(started);
    checkKey(context, config, 'config.apiKey');
    const scope = new CrawlScope(config, await context.domainNames(), runtime.pace, signal);
    // Each URL's records are written in its turn (one write per URL, in the order they were crawled).
    let saving: Promise<void> = Promise.resolve();
    const tally = await crawl(
      scope,
      {
        urls: [...config.startUrls, ...(config.extraUrls ?? [])],
        followLinks: true,
        onUrl: (visit) => {
          if (signal.aborted) return;
          saving = saving.then(() => saveVisit(context, id, 'temp', targets, visit));
        },
      },
      signal,
    );
    await saving;
    // Immediate URL crawls into the temporary indices finish before the move (rule 1).
    while (runtime.intoTemp.size > 0) await Promise.allSettled([...runtime.intoTemp]);
    signal.throwIfAborted();
    await finishReindex(context, id, taskId, targets, tally);
  } catch (error) {
    if (signal.aborted || context.closing.aborted) return; // restarted (task ended by the restart) or closing (ended at the next start)
    // The configuration's key lost its rights, or a write failed: the live indices stay, the task fails.
    const crawler = await context.store.crawler(id);
    const header = crawler ? crawlerTask(crawler, 'reindexFailed') : { indexName: '*', kind: 'crawler:reindexFailed' };
    await context.tasks.run(header, (write) => {
      if (crawler) {
        discardTemporary(context, write, crawler);
        crawler.reindexing = false;
        crawler.lastReindexEndedAt = context.now();
        saveCrawler(write, crawler);
      }
      write.change({
        area: 'crawler',
        type: 'endTask',
        id: taskId,
        outcome: 'failed',
        at: context.now(),
        message: (error as Error).message,
      });
    });
  }
}

/**
 * The end of a reindex: blocked when every fetched URL failed or when a live index of at least
 * `BLOCK_MIN_LIVE_RECORDS` records would keep less than half of them (the live indices stay; the task
 * stays pending as the blocking task); otherwise each temporary index replaces its live index.
 */
async function finishReindex(
  context: CrawlerContext,
  id: string,
  taskId: string,
  targets: Map<string, string>,
  tally: { done: number; failed: number },
): Promise<void> {
  const crawler = await context.store.crawler(id);
  if (!crawler) return;
  const now = context.now();
  let blockReason: string | undefined;
  if (tally.done === 0 && tally.failed > 0) blockReason = `every crawled URL failed (${tally.failed})`;
  for (const [live, temporary] of targets) {
    const before = context.catalog.get(live)?.size ?? 0;
    const after = context.catalog.get(temporary)?.size ?? 0;
    if (!blockReason && before >= BLOCK_MIN_LIVE_RECORDS && after * 2 < before) {
      blockReason = `the index ${live} would go from ${before} to ${after} records`;
    }
  }
  await context.tasks.run(crawlerTask(crawler, 'reindexEnd'), (write) => {
    crawler.reindexing = false;
    crawler.lastReindexEndedAt = now;
    crawler.updatedAt = now;
    if (blockReason) {
      crawler.blocked = true;
      crawler.blockingTaskId = taskId;
      write.change({
        area: 'crawler',
        type: 'noteTask',
        id: taskId,
        message: `Blocked: ${blockReason}; the live indices are kept until this task is cancelled`,
      });
    } else {
      for (const [live, temporary] of targets) {
        context.catalog.ensure(write, temporary);
        // Settings, rules and synonyms changed on the live index during the crawl are kept.
        if (context.catalog.get(live))
          copyIndex(context.catalog, write, live, temporary, ['settings', 'synonyms', 'rules']);
        moveIndex(context.catalog, write, temporary, live);
      }
      write.change({ area: 'crawler', type: 'promoteTemp', crawlerId: id });
      write.change({ area: 'crawler', type: 'endTask', id: taskId, outcome: 'done', at: now });
    }
    saveCrawler(write, crawler);
  });
}

/** Rule 3: only the blocking task can be cancelled; it unblocks the crawler and discards the temporary indices. */
export async function cancelTask(context: CrawlerContext, crawler: StoredCrawler, taskId: string): Promise<void> {
  const task = await context.store.task(taskId);
  if (!task || task.crawlerId !== crawler.id)
    throw new ServiceError(400, `taskId: ${taskId} is not a task of crawler ${crawler.id}`);
  if (!crawler.blocked || crawler.blockingTaskId !== taskId) {
    throw new ServiceError(
      400,
      `taskId: ${taskId} is not the blocking task of crawler ${crawler.id}; only a blocking task can be cancelled`,
    );
  }
  const now = context.now();
  await context.tasks.run(crawlerTask(crawler, 'cancel'), (write) => {
    discardTemporary(context, write, crawler);
    crawler.blocked = false;
    crawler.blockingTaskId = null;
    crawler.updatedAt = now;
    saveCrawler(write, crawler);
    write.change({ area: 'crawler', type: 'endTask', id: taskId, outcome: 'cancelled', at: now });
  });
}
