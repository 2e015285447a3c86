/**
 * Immediate URL crawling (document 3, rule 1): `urls` crawled now, no link followed, into the live indices — or
 * into the temporary ones while a reindex runs — and what one crawled URL writes.
 */
import { ServiceError } from '../errors.js';
import type { Generation, StoredCrawler } from '../storage/types.js';
import { type CrawlerConfig, httpUrl, liveIndices, temporaryIndexName } from './config.js';
import { type CrawlerContext, checkKey, crawlerTask, newTask, refuseBlocked, saveCrawler } from './context.js';
import { CrawlScope, crawl, outcomeOf, type Visit } from './crawl.js';

/** Immediate URL crawling (document 3, Limits). */
export const MAX_URLS_PER_CRAWL_CALL = 50;
export const MAX_URL_CRAWL_CALLS_PER_DAY = 200;

/**
 * Crawls `urls` now; `save` adds them to the configuration's `extraUrls` (crawled by every reindex). Resolves
 * with the task once the crawl has started.
 */
export async function crawlUrls(
  context: CrawlerContext,
  crawler: StoredCrawler,
  urlsValue: unknown,
  save: unknown,
): Promise<string> {
  if (!Array.isArray(urlsValue) || urlsValue.length === 0)
    throw new ServiceError(400, 'urls: required, a non-empty array of URLs');
  if (urlsValue.length > MAX_URLS_PER_CRAWL_CALL)
    throw new ServiceError(400, `urls: at most ${MAX_URLS_PER_CRAWL_CALL} URLs per call, got ${urlsValue.length}`);
  const urls = [...new Set(urlsValue.map((url, i) => httpUrl(url, `urls[${i}]`)))];
  if (save !== undefined && typeof save !== 'boolean') throw new ServiceError(400, 'save: must be a boolean');
  refuseBlocked(crawler, 'crawling URLs');
  const id = crawler.id;
  const now = context.now();
  if ((await context.store.countTasksSince(id, 'urls', now - 86_400_000)) >= MAX_URL_CRAWL_CALLS_PER_DAY) {
    throw new ServiceError(
      429,
      `urls: at most ${MAX_URL_CRAWL_CALLS_PER_DAY} immediate URL crawls per crawler in 24 hours`,
    );
  }
  const runtime = context.runtime(crawler);
  const reindex = runtime.reindex;
  const generation: Generation = reindex ? 'temp' : 'live';
  const config = crawler.config as CrawlerConfig;
  const { result: taskId } = await context.tasks.run(crawlerTask(crawler, 'urls'), (write) => {
    if (save === true) {
      const extraUrls = [...new Set([...(config.extraUrls ?? []), ...urls])];
      crawler.config = { ...config, extraUrls };
      crawler.updatedAt = now;
      saveCrawler(write, crawler);
    }
    return newTask(context, write, id, 'urls', true);
  });
  const signal = reindex ? AbortSignal.any([reindex.abort.signal, context.closing]) : context.closing;
  const targets = new Map(
    liveIndices(config).map((live) => [live, generation === 'temp' ? temporaryIndexName(live) : live]),
  );
  const end = (outcome: 'done' | 'restarted' | 'failed', message?: string) =>
    context.tasks.run(crawlerTask(crawler, 'urlsEnd'), (write) => {
      write.change({
        area: 'crawler',
        type: 'endTask',
        id: taskId,
        outcome,
        at: context.now(),
        ...(message ? { message } : {}),
      });
    });
  const work = (async () => {
    try {
      checkKey(context, config, 'config.apiKey');
      const scope = new CrawlScope(config, await context.domainNames(), runtime.pace, signal);
      let saving: Promise<void> = Promise.resolve();
      await crawl(
        scope,
        {
          urls,
          followLinks: false,
          onUrl: (visit) => {
            if (!signal.aborted) saving = saving.then(() => saveVisit(context, id, generation, targets, visit));
          },
        },
        signal,
      );
      await saving;
      await end('done');
    } catch (error) {
      if (context.closing.aborted) return;
      await end(signal.aborted ? 'restarted' : 'failed', (error as Error).message).catch(() => undefined);
    }
  })();
  if (generation === 'temp') {
    runtime.intoTemp.add(work);
    void work.finally(() => runtime.intoTemp.delete(work));
  }
  return taskId;
}

/**
 * Writes what one URL gave: its records replace the ones it gave before in the same indices (records it no
 * longer gives are deleted), and its statistics line, in one write.
 */
export async function saveVisit(
  context: CrawlerContext,
  id: string,
  generation: Generation,
  targets: Map<string, string>,
  visit: Visit,
): Promise<void> {
  if (context.closing.aborted) return;
  const outcome = outcomeOf(visit);
  const previous = await context.store.urlRecords(id, generation, visit.url);
  const writes: Array<{ target: string; records: Visit['extractions'][number]['records']; stale: string[] }> = [];
  for (const live of new Set([...Object.keys(previous), ...Object.keys(outcome.records)])) {
    const target = targets.get(live);
    if (!target) continue;
    const records = visit.extractions
      .filter((extraction) => extraction.indexName === live)
      .flatMap((extraction) => extraction.records);
    const kept = new Set(records.map((record) => record.objectID));
    const stale = (previous[live] ?? []).filter((objectID) => !kept.has(objectID));
    if (records.length > 0 || stale.length > 0) writes.push({ target, records, stale });
  }
  const headers = writes.map(({ target }) => ({ indexName: target, kind: 'crawler' }));
  await context.tasks.run(headers.length > 0 ? headers : [{ indexName: '*', kind: 'crawler:url' }], (write) => {
    for (const { target, records, stale } of writes) {
      if (stale.length > 0) context.catalog.deleteObjects(write, target, stale);
      if (records.length > 0) context.catalog.saveObjects(write, target, records);
    }
    write.change({ area: 'crawler', type: 'putUrl', crawlerId: id, generation, outcome });
  });
}
