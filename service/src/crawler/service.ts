/**
 * The crawlers of one service (document 3, "Crawler"): their state (`running`, `reindexing`, `blocked`),
 * tasks, reindexes into temporary indices moved over the live ones at the end, immediate URL crawling
 * (rule 1), the test endpoint (rule 2), the blocking task and its cancellation (rule 3), the URL
 * statistics of the last crawl and the registered domains. Durable in `storage/crawler.ts`; the choices
 * where the document is silent are in `docs/notes/crawler.md`.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { indexAllowed } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { internalsOf } from '../http/internals.js';
import type { Catalog } from '../storage/catalog.js';
import {
  CrawlerStore,
  type Generation,
  type StoredCrawler,
  type TaskKind,
  type UrlStatistic,
} from '../storage/crawler.js';
import { httpUrl, liveIndices, parseConfig, temporaryIndexName, type CrawlerConfig } from './config.js';
import { crawl, CrawlScope, outcomeOf, Pace, type Visit } from './crawl.js';

/** Hosts registered and verified on every local service. */
export const LOOPBACK_DOMAINS = ['localhost', '127.0.0.1', '[::1]'];
/** Immediate URL crawling (document 3, Limits). */
export const MAX_URLS_PER_CRAWL_CALL = 50;
export const MAX_URL_CRAWL_CALLS_PER_DAY = 200;
/** A reindex is blocked when a live index of at least this many records would lose more than half of them. */
export const BLOCK_MIN_LIVE_RECORDS = 10;

export interface CrawlerOptions {
  userId: string;
  apiKey: string;
  /** Extra registered (verified) domains besides the loopback hosts; `*.example.com` for subdomains. */
  domains: string[];
}

/** The crawler object of the document's table. */
export interface CrawlerView {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  running: boolean;
  reindexing: boolean;
  blocked: boolean;
  blockingTaskId?: string;
  lastReindexStartedAt: string | null;
  lastReindexEndedAt: string | null;
  config?: CrawlerConfig;
}

/** Work in progress of one crawler (memory only: a restart ends it, see `#recover`). */
interface Runtime {
  pace: Pace;
  reindex?: { taskId: string; abort: AbortController; finished: Promise<void> };
  /** Immediate URL crawls writing into the temporary indices of the running reindex. */
  intoTemp: Set<Promise<void>>;
}

const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/i;

/**
 * @example
 * const crawlers = new CrawlerService(ctx, { userId: 'local-crawler', apiKey: 'local-crawler-key', domains: [] });
 * const id = crawlers.create('docs', config);
 * const taskId = crawlers.reindex(id);
 */
export class CrawlerService {
  readonly options: CrawlerOptions;
  readonly #ctx: ServiceContext;
  readonly #store: CrawlerStore;
  readonly #catalog: Catalog;
  readonly #runtimes = new Map<string, Runtime>();
  readonly #closing = new AbortController();

  constructor(ctx: ServiceContext, options: CrawlerOptions) {
    this.#ctx = ctx;
    this.options = options;
    this.#store = new CrawlerStore(ctx.db);
    this.#catalog = internalsOf(ctx).catalog;
    for (const domain of options.domains) {
      if (!DOMAIN.test(domain))
        throw new Error(`Crawler domain ${JSON.stringify(domain)} is not a host name (or *.host)`);
    }
    this.#store.transaction(() => {
      for (const domain of [...LOOPBACK_DOMAINS, ...options.domains])
        this.#store.saveDomain(domain.toLowerCase(), true);
    });
    this.#recover();
    ctx.on('close', () => this.#closing.abort(new Error('The service is closing')));
  }

  /**
   * After a restart nothing runs any more: pending tasks end as `interrupted`, reindexing crawlers stop
   * reindexing and their temporary indices go (the live indices stay as they were). A blocked crawler
   * stays blocked with its temporary index and pending blocking task, waiting for the cancel call.
   */
  #recover(): void {
    const now = this.#ctx.now();
    this.#store.transaction(() => {
      for (const crawler of this.#store.crawlers()) {
        if (!crawler.reindexing) continue;
        this.#discardTemporary(crawler);
        crawler.reindexing = false;
        this.#store.saveCrawler(crawler);
      }
      for (const task of this.#store.pendingTasks()) {
        const crawler = this.#store.crawler(task.crawlerId);
        if (crawler?.blocked && crawler.blockingTaskId === task.id) continue;
        this.#store.endTask(task.id, 'interrupted', now, 'The service stopped before the task ended');
      }
    });
  }

  #runtime(id: string): Runtime {
    let runtime = this.#runtimes.get(id);
    if (!runtime) {
      runtime = { pace: new Pace(), intoTemp: new Set() };
      const crawler = this.#store.crawler(id);
      if (crawler && !crawler.running) runtime.pace.pause();
      this.#runtimes.set(id, runtime);
    }
    return runtime;
  }

  get #closed(): boolean {
    return this.#closing.signal.aborted;
  }

  // --- reading ---

  /** The crawler, or 403 (document 3: 403 when the crawler does not exist). */
  require(id: string): StoredCrawler {
    const crawler = this.#store.crawler(id);
    if (!crawler) throw new HttpError(403, `No crawler ${id} (or no access to it)`);
    return crawler;
  }

  view(crawler: StoredCrawler, withConfig: boolean): CrawlerView {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const view: CrawlerView = {
      id: crawler.id,
      name: crawler.name,
      createdAt: new Date(crawler.createdAt).toISOString(),
      updatedAt: new Date(crawler.updatedAt).toISOString(),
      running: crawler.running,
      reindexing: crawler.reindexing,
      blocked: crawler.blocked,
      lastReindexStartedAt: iso(crawler.lastReindexStartedAt),
      lastReindexEndedAt: iso(crawler.lastReindexEndedAt),
    };
    if (crawler.blocked && crawler.blockingTaskId) view.blockingTaskId = crawler.blockingTaskId;
    if (withConfig) view.config = crawler.config as CrawlerConfig;
    return view;
  }

  list(filter: { name?: string; appId?: string }): StoredCrawler[] {
    return this.#store
      .crawlers()
      .filter(
        (crawler) =>
          (filter.name === undefined || crawler.name === filter.name) &&
          (filter.appId === undefined || crawler.config.appId === filter.appId),
      );
  }

  domains(): Array<{ appId: string; domain: string; verified: boolean }> {
    return this.#store.domains().map((row) => ({ appId: this.#ctx.appId, ...row }));
  }

  /** `{pending}` of a task of this crawler; 400 naming `taskId` for another crawler's or an unknown task. */
  task(id: string, taskId: string): { pending: boolean } {
    this.require(id);
    const task = this.#store.task(taskId);
    if (!task || task.crawlerId !== id) throw new HttpError(400, `taskId: ${taskId} is not a task of crawler ${id}`);
    return { pending: task.pending };
  }

  /** URL statistics of the last crawl: the reindex in progress (or blocked) when there is one, else the crawl behind the live indices. */
  statistics(id: string): { count: number; data: UrlStatistic[] } {
    this.require(id);
    const generation: Generation = this.#store.hasGeneration(id, 'temp') ? 'temp' : 'live';
    const data = this.#store.statistics(id, generation);
    return { count: data.reduce((sum, item) => sum + item.count, 0), data };
  }

  // --- configuration ---

  /** Validates a configuration, then its appId (this service's) and apiKey (a key of this app with addObject on the indices). */
  #checkConfig(value: unknown): CrawlerConfig {
    const config = parseConfig(value);
    if (config.appId !== this.#ctx.appId)
      throw new HttpError(
        400,
        `config.appId: ${JSON.stringify(config.appId)} is not the application id of this service (${this.#ctx.appId})`,
      );
    this.#checkKey(config, 'config.apiKey');
    return config;
  }

  #checkKey(config: CrawlerConfig, field: string): void {
    if (config.apiKey === this.#ctx.adminKey) return;
    if (config.apiKey === this.#ctx.searchKey)
      throw new HttpError(400, `${field}: the API key lacks the addObject right (it is the search key)`);
    const key = internalsOf(this.#ctx).keys.get(config.apiKey);
    if (!key)
      throw new HttpError(
        400,
        `${field}: not an API key of application ${this.#ctx.appId} (unknown, deleted or expired)`,
      );
    if (!key.acl.includes('addObject')) throw new HttpError(400, `${field}: the API key lacks the addObject right`);
    const patterns = { indexes: key.indexes ?? (key.index !== undefined ? [key.index] : undefined) };
    for (const indexName of liveIndices(config)) {
      if (!indexAllowed(patterns, indexName))
        throw new HttpError(400, `${field}: the API key may not write to the index ${indexName}`);
    }
  }

  #newTask(crawlerId: string, kind: TaskKind, pending: boolean): string {
    const id = randomUUID();
    this.#store.insertTask({ id, crawlerId, kind, pending, createdAt: this.#ctx.now() });
    return id;
  }

  create(name: unknown, config: unknown): string {
    if (typeof name !== 'string' || name.trim() === '' || name.length > 256)
      throw new HttpError(400, 'name: must be a non-empty string of at most 256 characters');
    const checked = this.#checkConfig(config);
    const now = this.#ctx.now();
    const id = randomUUID();
    this.#store.insertCrawler({
      id,
      name,
      config: checked,
      running: false,
      reindexing: false,
      blocked: false,
      blockingTaskId: null,
      lastReindexStartedAt: null,
      lastReindexEndedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** `PATCH /crawlers/{id}`: a new name and/or a whole new configuration; a reindex in progress keeps the configuration it started with. */
  update(id: string, name: unknown, config: unknown): string {
    const crawler = this.require(id);
    if (name === undefined && config === undefined) throw new HttpError(400, 'name, config: give at least one of them');
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 256)) {
      throw new HttpError(400, 'name: must be a non-empty string of at most 256 characters');
    }
    const checked = config === undefined ? undefined : this.#checkConfig(config);
    return this.#store.transaction(() => {
      if (typeof name === 'string') crawler.name = name;
      if (checked) crawler.config = checked;
      crawler.updatedAt = this.#ctx.now();
      this.#store.saveCrawler(crawler);
      return this.#newTask(id, 'update', false);
    });
  }

  /** `PATCH /crawlers/{id}/config`: top-level properties replace the configuration's (send the whole `actions`). */
  patchConfig(id: string, partial: Record<string, unknown>): string {
    const crawler = this.require(id);
    if (Object.keys(partial).length === 0)
      throw new HttpError(400, 'The body must hold at least one configuration property');
    return this.update(id, undefined, { ...crawler.config, ...partial });
  }

  // --- state ---

  /**
   * `run`: the crawler runs again (a paused crawl resumes). A crawler that never crawled starts its
   * first reindex, whose task is answered; otherwise the task ends at once.
   */
  run(id: string): string {
    const crawler = this.require(id);
    this.#refuseBlocked(crawler, 'run');
    if (crawler.lastReindexStartedAt === null && !crawler.reindexing) return this.reindex(id);
    crawler.running = true;
    crawler.updatedAt = this.#ctx.now();
    const taskId = this.#store.transaction(() => {
      this.#store.saveCrawler(crawler);
      return this.#newTask(id, 'run', false);
    });
    this.#runtime(id).pace.resume();
    return taskId;
  }

  /** `pause`: no request leaves for this crawler's sites until `run` or `reindex`; the work in progress waits. */
  pause(id: string): string {
    const crawler = this.require(id);
    crawler.running = false;
    crawler.updatedAt = this.#ctx.now();
    const taskId = this.#store.transaction(() => {
      this.#store.saveCrawler(crawler);
      return this.#newTask(id, 'pause', false);
    });
    this.#runtime(id).pace.pause();
    return taskId;
  }

  #refuseBlocked(crawler: StoredCrawler, what: string): void {
    if (crawler.blocked) {
      throw new HttpError(
        400,
        `The crawler is blocked by task ${crawler.blockingTaskId}; cancel that task (POST /api/1/crawlers/${crawler.id}/tasks/${crawler.blockingTaskId}/cancel) before ${what}`,
      );
    }
  }

  /**
   * `reindex`: crawls everything again into temporary indices (`<live>.tmp`, with the live indices'
   * settings, rules and synonyms) and moves them over the live indices at the end. A reindex in progress
   * is restarted (its task ends). The crawler runs.
   */
  reindex(id: string): string {
    const crawler = this.require(id);
    this.#refuseBlocked(crawler, 'reindexing');
    const config = crawler.config as CrawlerConfig;
    const runtime = this.#runtime(id);
    const previous = runtime.reindex;
    if (previous) {
      previous.abort.abort(new Error('restarted'));
      this.#store.endTask(previous.taskId, 'restarted', this.#ctx.now(), 'A new reindex replaced this one');
    }
    const now = this.#ctx.now();
    const taskId = this.#store.transaction(() => {
      const taskId = this.#newTask(id, 'reindex', true);
      this.#discardTemporary(crawler);
      for (const live of liveIndices(config)) {
        const temporary = temporaryIndexName(live);
        this.#catalog.write(temporary, 'crawlerReindex', () => {
          this.#catalog.ensure(temporary);
          if (this.#catalog.get(live)) this.#catalog.copy(live, temporary, ['settings', 'synonyms', 'rules']);
        });
      }
      crawler.running = true;
      crawler.reindexing = true;
      crawler.lastReindexStartedAt = now;
      crawler.updatedAt = now;
      this.#store.saveCrawler(crawler);
      return taskId;
    });
    runtime.pace.resume();
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.#closing.signal]);
    const finished = this.#reindexWork(crawler.id, config, taskId, signal).finally(() => {
      if (runtime.reindex?.taskId === taskId) runtime.reindex = undefined;
    });
    runtime.reindex = { taskId, abort, finished };
    return taskId;
  }

  async #reindexWork(id: string, config: CrawlerConfig, taskId: string, signal: AbortSignal): Promise<void> {
    const runtime = this.#runtime(id);
    const targets = new Map(liveIndices(config).map((live) => [live, temporaryIndexName(live)]));
    try {
      this.#checkKey(config, 'config.apiKey');
      const scope = new CrawlScope(config, this.#domainNames(), runtime.pace, signal);
      const tally = await crawl(
        scope,
        {
          urls: [...config.startUrls, ...(config.extraUrls ?? [])],
          followLinks: true,
          onUrl: (visit) => {
            if (!signal.aborted) this.#save(id, 'temp', targets, visit);
          },
        },
        signal,
      );
      // Immediate URL crawls into the temporary indices finish before the move (rule 1).
      while (runtime.intoTemp.size > 0) await Promise.allSettled([...runtime.intoTemp]);
      signal.throwIfAborted();
      this.#finishReindex(id, taskId, targets, tally);
    } catch (error) {
      if (signal.aborted || this.#closed) return; // restarted (task ended by reindex) or closing (ended by #recover at the next start)
      // The configuration's key lost its rights, or a write failed: the live indices stay, the task fails.
      const crawler = this.#store.crawler(id);
      this.#store.transaction(() => {
        if (crawler) {
          this.#discardTemporary(crawler);
          crawler.reindexing = false;
          crawler.lastReindexEndedAt = this.#ctx.now();
          this.#store.saveCrawler(crawler);
        }
        this.#store.endTask(taskId, 'failed', this.#ctx.now(), (error as Error).message);
      });
    }
  }

  /**
   * The end of a reindex: blocked when every fetched URL failed or when a live index of at least
   * `BLOCK_MIN_LIVE_RECORDS` records would keep less than half of them (the live indices stay; the task
   * stays pending as the blocking task); otherwise each temporary index replaces its live index.
   */
  #finishReindex(
    id: string,
    taskId: string,
    targets: Map<string, string>,
    tally: { done: number; failed: number },
  ): void {
    const crawler = this.require(id);
    const now = this.#ctx.now();
    let blockReason: string | undefined;
    if (tally.done === 0 && tally.failed > 0) blockReason = `every crawled URL failed (${tally.failed})`;
    for (const [live, temporary] of targets) {
      const before = this.#catalog.get(live)?.size ?? 0;
      const after = this.#catalog.get(temporary)?.size ?? 0;
      if (!blockReason && before >= BLOCK_MIN_LIVE_RECORDS && after * 2 < before) {
        blockReason = `the index ${live} would go from ${before} to ${after} records`;
      }
    }
    this.#store.transaction(() => {
      crawler.reindexing = false;
      crawler.lastReindexEndedAt = now;
      crawler.updatedAt = now;
      if (blockReason) {
        crawler.blocked = true;
        crawler.blockingTaskId = taskId;
        this.#store.noteTask(taskId, `Blocked: ${blockReason}; the live indices are kept until this task is cancelled`);
      } else {
        for (const [live, temporary] of targets) {
          this.#catalog.write(live, 'crawlerReindex', () => {
            this.#catalog.ensure(temporary);
            // Settings, rules and synonyms changed on the live index during the crawl are kept.
            if (this.#catalog.get(live)) this.#catalog.copy(live, temporary, ['settings', 'synonyms', 'rules']);
            this.#catalog.move(temporary, live);
          });
        }
        this.#store.promoteTemp(id);
        this.#store.endTask(taskId, 'done', now);
      }
      this.#store.saveCrawler(crawler);
    });
  }

  /** Deletes the temporary indices of a crawler's configuration and the URL statistics of its unfinished reindex. */
  #discardTemporary(crawler: StoredCrawler): void {
    for (const live of liveIndices(crawler.config as CrawlerConfig)) {
      const temporary = temporaryIndexName(live);
      if (this.#catalog.get(temporary))
        this.#catalog.write(temporary, 'deleteIndex', () => this.#catalog.deleteIndex(temporary));
    }
    this.#store.clearGeneration(crawler.id, 'temp');
  }

  /** Rule 3: only the blocking task can be cancelled; it unblocks the crawler and discards the temporary indices. */
  cancel(id: string, taskId: string): void {
    const crawler = this.require(id);
    const task = this.#store.task(taskId);
    if (!task || task.crawlerId !== id) throw new HttpError(400, `taskId: ${taskId} is not a task of crawler ${id}`);
    if (!crawler.blocked || crawler.blockingTaskId !== taskId) {
      throw new HttpError(
        400,
        `taskId: ${taskId} is not the blocking task of crawler ${id}; only a blocking task can be cancelled`,
      );
    }
    const now = this.#ctx.now();
    this.#store.transaction(() => {
      this.#discardTemporary(crawler);
      crawler.blocked = false;
      crawler.blockingTaskId = null;
      crawler.updatedAt = now;
      this.#store.saveCrawler(crawler);
      this.#store.endTask(taskId, 'cancelled', now);
    });
  }

  // --- immediate URL crawling ---

  /**
   * Rule 1: crawls `urls` now (no link is followed) into the live indices, or into the temporary ones while
   * a reindex runs. `save` adds them to the configuration's `extraUrls` (crawled by every reindex).
   */
  crawlUrls(id: string, urlsValue: unknown, save: unknown): string {
    const crawler = this.require(id);
    if (!Array.isArray(urlsValue) || urlsValue.length === 0)
      throw new HttpError(400, 'urls: required, a non-empty array of URLs');
    if (urlsValue.length > MAX_URLS_PER_CRAWL_CALL)
      throw new HttpError(400, `urls: at most ${MAX_URLS_PER_CRAWL_CALL} URLs per call, got ${urlsValue.length}`);
    const urls = [...new Set(urlsValue.map((url, i) => httpUrl(url, `urls[${i}]`)))];
    if (save !== undefined && typeof save !== 'boolean') throw new HttpError(400, 'save: must be a boolean');
    this.#refuseBlocked(crawler, 'crawling URLs');
    const now = this.#ctx.now();
    if (this.#store.countTasksSince(id, 'urls', now - 86_400_000) >= MAX_URL_CRAWL_CALLS_PER_DAY) {
      throw new HttpError(
        429,
        `urls: at most ${MAX_URL_CRAWL_CALLS_PER_DAY} immediate URL crawls per crawler in 24 hours`,
      );
    }
    const runtime = this.#runtime(id);
    const reindex = runtime.reindex;
    const generation: Generation = reindex ? 'temp' : 'live';
    const config = crawler.config as CrawlerConfig;
    const taskId = this.#store.transaction(() => {
      if (save === true) {
        const extraUrls = [...new Set([...(config.extraUrls ?? []), ...urls])];
        crawler.config = { ...config, extraUrls };
        crawler.updatedAt = now;
        this.#store.saveCrawler(crawler);
      }
      return this.#newTask(id, 'urls', true);
    });
    const signal = reindex ? AbortSignal.any([reindex.abort.signal, this.#closing.signal]) : this.#closing.signal;
    const targets = new Map(
      liveIndices(config).map((live) => [live, generation === 'temp' ? temporaryIndexName(live) : live]),
    );
    const work = (async () => {
      try {
        this.#checkKey(config, 'config.apiKey');
        const scope = new CrawlScope(config, this.#domainNames(), runtime.pace, signal);
        await crawl(
          scope,
          { urls, followLinks: false, onUrl: (visit) => !signal.aborted && this.#save(id, generation, targets, visit) },
          signal,
        );
        this.#store.endTask(taskId, 'done', this.#ctx.now());
      } catch (error) {
        if (this.#closed) return;
        this.#store.endTask(taskId, signal.aborted ? 'restarted' : 'failed', this.#ctx.now(), (error as Error).message);
      }
    })();
    if (generation === 'temp') {
      runtime.intoTemp.add(work);
      void work.finally(() => runtime.intoTemp.delete(work));
    }
    return taskId;
  }

  /**
   * Writes what one URL gave: its records replace the ones it gave before in the same indices (records
   * it no longer gives are deleted), and its statistics line, in one transaction.
   */
  #save(id: string, generation: Generation, targets: Map<string, string>, visit: Visit): void {
    if (this.#closed) return;
    const outcome = outcomeOf(visit);
    const previous = this.#store.urlRecords(id, generation, visit.url);
    this.#catalog.writeMany(() => {
      for (const live of new Set([...Object.keys(previous), ...Object.keys(outcome.records)])) {
        const target = targets.get(live);
        if (!target) continue;
        const records = visit.extractions
          .filter((extraction) => extraction.indexName === live)
          .flatMap((extraction) => extraction.records);
        const kept = new Set(records.map((record) => record.objectID));
        const stale = (previous[live] ?? []).filter((objectID) => !kept.has(objectID));
        if (records.length === 0 && stale.length === 0) continue;
        this.#catalog.write(target, 'crawler', () => {
          if (stale.length > 0) this.#catalog.deleteObjects(target, stale);
          if (records.length > 0) this.#catalog.saveObjects(target, records);
        });
      }
      this.#store.saveUrl(id, generation, outcome);
    });
  }

  #domainNames(): string[] {
    return this.#store.domains().map((row) => row.domain);
  }

  // --- test ---

  /**
   * Rule 2: what the crawler would do with one URL under the configuration with `overrides` (top-level
   * properties), writing nothing.
   */
  async test(id: string, urlValue: unknown, overrides: unknown): Promise<Record<string, unknown>> {
    const crawler = this.require(id);
    const url = httpUrl(urlValue, 'url');
    if (overrides !== undefined && (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides))) {
      throw new HttpError(400, 'config: must be an object of configuration properties');
    }
    const config = this.#checkConfig({ ...crawler.config, ...(overrides as Record<string, unknown> | undefined) });
    const startDate = new Date(this.#ctx.now()).toISOString();
    // Its own pace: a test is one or two requests, and answers even while the crawler is paused.
    const scope = new CrawlScope(config, this.#domainNames(), new Pace(), this.#closing.signal);
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
      if (!entry)
        byIndex.set(
          extraction.indexName,
          (entry = { indexName: extraction.indexName, records: [], recordsPerExtractor: [] }),
        );
      entry.records.push(...extraction.records);
      entry.recordsPerExtractor.push({ index: extraction.actionIndex, type: 'custom', records: extraction.records });
    }
    const links = visit.links.filter((link) => scope.wanted(link));
    return {
      startDate,
      endDate: new Date(this.#ctx.now()).toISOString(),
      logs: visit.logs,
      records: [...byIndex.values()],
      links,
      externalData: {},
      error: visit.status === 'DONE' ? {} : { code: visit.reason, message: visit.readable },
    };
  }
}
