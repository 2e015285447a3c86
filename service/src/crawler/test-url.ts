/** The test endpoint (document 3, rule 2): what the crawler would do with one URL, writing nothing. */
import type { StoredCrawler } from '../storage/types.js';
import { httpUrl } from './config.js';
import { type CrawlerContext, checkConfig } from './context.js';
import { CrawlScope, Pace } from './crawl.js';
import { ServiceError } from '../errors.js';

/**
 * Crawls `url` under the crawler's configuration with `overrides` (top-level properties) and answers what it
 * found: the records per index and extractor, the links it would follow, the page's logs, the error if any.
 *
 * @example
 * await testUrl(context, crawler, 'http://127.0.0.1:8080/docs/a', { maxDepth: 2 })
 */
export async function testUrl(
  context: CrawlerContext,
  crawler: StoredCrawler,
  urlValue: unknown,
  overrides: unknown,
): Promise<Record<string, unknown>> {
  const url = httpUrl(urlValue, 'url');
  if (overrides !== undefined && (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides))) {
    throw new ServiceError(400, 'config: must be an object of configuration properties');
  }
  const config = checkConfig(context, { ...crawler.config, ...(overrides as Record<string, unknown> | undefined) });
  const startDate = new Date(context.now()).toISOString();
  // Its own pace: a test is one or two requests, and answers even while the crawler is paused.
  const scope = new CrawlScope(config, await context.domainNames(), new Pace(), context.closing);
  const visit = await scope.visit(url);
  const byIndex = new Map<
    string,
    {
      indexName: string;
      records: unknown[];
      recordsPerExtractor: Array<{ index: number; type: string; records: unknown[] }>;
    }
  >();
  for (const extraction of visit.extractions) {
    let entry = byIndex.get(extraction.indexName);
    if (!entry) {
      entry = { indexName: extraction.indexName, records: [], recordsPerExtractor: [] };
      byIndex.set(extraction.indexName, entry);
    }
    entry.records.push(...extraction.records);
    entry.recordsPerExtractor.push({ index: extraction.actionIndex, type: 'custom', records: extraction.records });
  }
  const links = visit.links.filter((link) => scope.wanted(link));
  return {
    startDate,
    endDate: new Date(context.now()).toISOString(),
    logs: visit.logs,
    records: [...byIndex.values()],
    links,
    externalData: {},
    error: visit.status === 'DONE' ? {} : { code: visit.reason, message: visit.readable },
  };
}
