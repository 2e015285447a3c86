/**
 * The crawlers of one service (document 3, "Crawler"): their state (`running`, `reindexing`, `blocked`),
 * tasks, reindexes (`reindex.ts`), immediate URL crawling (`urls.ts`, rule 1), the test endpoint
 * (`test-url.ts`, rule 2), the blocking task and its cancellation (rule 3), the URL statistics of the last
 * crawl and the registered domains. Every state change is a write of the task queue; the choices where the
 * document is silent are in `docs/notes/crawler.md`.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import type { Keys } from '../keys/keys.js';
import type { CrawlerStore, Generation, StoredCrawler, UrlStatistic } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import type { CrawlerConfig } from './config.js';
import {
  type CrawlerContext,
  checkConfig,
  crawlerTask,
  newTask,
  refuseBlocked,
  type Runtime,
  saveCrawler,
} from './context.js';
import { Pace } from './crawl.js';
import { cancelTask, discardTemporary, startReindex } from './reindex.js';
import { testUrl } from './test-url.js';
import { crawlUrls } from './urls.js';

/** Hosts registered and verified on every local service. */
export const LOOPBACK_DOMAINS = ['localhost', '127.0.0.1', '[::1]'];

export interface CrawlerOptions {
  userId: string;
  apiKey: string;
  /** Extra registered (verified) domains besides the loopback hosts; `*.example.com` for subdomains. */
  domains: string[];
}

export interface CrawlerDependencies {
  store: CrawlerStore;
  tasks: TaskQueue;
  /** Reindexes write records (into temporary indices, then moved over the live ones). */
  catalog: Catalog;
  /** A configuration's `apiKey` must be a key of this application with `addObject`. */
  keys: Keys;
  config: { appId: string; adminKey: string; searchKey: string };
  now: () => number;
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

const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/i;

function checkName(name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '' || name.length > 256)
    throw new ServiceError(400, 'name: must be a non-empty string of at most 256 characters');
}

/**
 * @example
 * const crawlers = await CrawlerService.load(dependencies, { userId: 'local-crawler', apiKey: 'local-crawler-key', domains: [] });
 * const id = await crawlers.create('docs', config);
 * const taskId = await crawlers.reindex(id);
 */
export class CrawlerService {
  readonly options: CrawlerOptions;
  readonly #context: CrawlerContext;
  readonly #runtimes = new Map<string, Runtime>();
  readonly #closing = new AbortController();

  private constructor({ store, tasks, catalog, keys, config, now }: CrawlerDependencies, options: CrawlerOptions) {
    this.options = options;
    this.#context = {
      store,
      tasks,
      catalog,
      keys,
      app: config,
      now,
      closing: this.#closing.signal,
      runtime: (crawler) => this.#runtime(crawler),
      domainNames: async () => (await store.domains()).map((row) => row.domain),
    };
  }

  /** The crawlers of the service; registers the domains and ends what a restart interrupted. */
  static async load(dependencies: CrawlerDependencies, options: CrawlerOptions): Promise<CrawlerService> {
    for (const domain of options.domains) {
      if (!DOMAIN.test(domain))
        throw new Error(`Crawler domain ${JSON.stringify(domain)} is not a host name (or *.host)`);
    }
    const service = new CrawlerService(dependencies, options);
    await service.#recover([...LOOPBACK_DOMAINS, ...options.domains]);
    return service;
  }

  /** Stops every crawl in progress (the service is closing). */
  close(): void {
    this.#closing.abort(new Error('The service is closing'));
  }

  /**
   * After a restart nothing runs any more: pending tasks end as `interrupted`, reindexing crawlers stop
   * reindexing and their temporary indices go (the live indices stay as they were). A blocked crawler
   * stays blocked with its temporary index and pending blocking task, waiting for the cancel call.
   */
  async #recover(domains: string[]): Promise<void> {
    const { store, tasks } = this.#context;
    const now = this.#context.now();
    const crawlers = await store.crawlers();
    const pending = await store.pendingTasks();
    await tasks.run({ indexName: '*', kind: 'crawler:recover' }, (write) => {
      for (const domain of domains)
        write.change({ area: 'crawler', type: 'putDomain', domain: domain.toLowerCase(), verified: true });
      for (const crawler of crawlers) {
        if (!crawler.reindexing) continue;
        discardTemporary(this.#context, write, crawler);
        crawler.reindexing = false;
        saveCrawler(write, crawler);
      }
      for (const task of pending) {
        const crawler = crawlers.find((candidate) => candidate.id === task.crawlerId);
        if (crawler?.blocked && crawler.blockingTaskId === task.id) continue;
        write.change({
          area: 'crawler',
          type: 'endTask',
          id: task.id,
          outcome: 'interrupted',
          at: now,
          message: 'The service stopped before the task ended',
        });
      }
    });
  }

  #runtime(crawler: StoredCrawler): Runtime {
    let runtime = this.#runtimes.get(crawler.id);
    if (!runtime) {
      runtime = { pace: new Pace(), intoTemp: new Set() };
      if (!crawler.running) runtime.pace.pause();
      this.#runtimes.set(crawler.id, runtime);
    }
    return runtime;
  }

  // --- reading ---

  /** The crawler, or 403 (document 3: 403 when the crawler does not exist). */
  async require(id: string): Promise<StoredCrawler> {
    const crawler = await this.#context.store.crawler(id);
    if (!crawler) throw new ServiceError(403, `No crawler ${id} (or no access to it)`);
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

  async list(filter: { name?: string | undefined; appId?: string | undefined }): Promise<StoredCrawler[]> {
    return (await this.#context.store.crawlers()).filter(
      (crawler) =>
        (filter.name === undefined || crawler.name === filter.name) &&
        (filter.appId === undefined || crawler.config.appId === filter.appId),
    );
  }

  async domains(): Promise<Array<{ appId: string; domain: string; verified: boolean }>> {
    return (await this.#context.store.domains()).map((row) => ({ appId: this.#context.app.appId, ...row }));
  }

  /** `{pending}` of a task of this crawler; 400 naming `taskId` for another crawler's or an unknown task. */
  async task(id: string, taskId: string): Promise<{ pending: boolean }> {
    await this.require(id);
    const task = await this.#context.store.task(taskId);
    if (!task || task.crawlerId !== id) throw new ServiceError(400, `taskId: ${taskId} is not a task of crawler ${id}`);
    return { pending: task.pending };
  }

  /** URL statistics of the last crawl: the reindex in progress (or blocked) when there is one, else the crawl behind the live indices. */
  async statistics(id: string): Promise<{ count: number; data: UrlStatistic[] }> {
    await this.require(id);
    const { store } = this.#context;
    const generation: Generation = (await store.hasGeneration(id, 'temp')) ? 'temp' : 'live';
    const data = await store.statistics(id, generation);
    return { count: data.reduce((sum, item) => sum + item.count, 0), data };
  }

  // --- configuration ---

  async create(name: unknown, config: unknown): Promise<string> {
    checkName(name);
    const checked = checkConfig(this.#context, config);
    const now = this.#context.now();
    const crawler: StoredCrawler = {
      id: randomUUID(),
      name: name as string,
      config: checked as unknown as Record<string, unknown>,
      running: false,
      reindexing: false,
      blocked: false,
      blockingTaskId: null,
      lastReindexStartedAt: null,
      lastReindexEndedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#context.tasks.run(crawlerTask(crawler, 'create'), (write) => saveCrawler(write, crawler, true));
    return crawler.id;
  }

  /** `PATCH /crawlers/{id}`: a new name and/or a whole new configuration; a reindex in progress keeps the configuration it started with. */
  async update(id: string, name: unknown, config: unknown): Promise<string> {
    const crawler = await this.require(id);
    if (name === undefined && config === undefined)
      throw new ServiceError(400, 'name, config: give at least one of them');
    if (name !== undefined) checkName(name);
    const checked = config === undefined ? undefined : checkConfig(this.#context, config);
    const { result } = await this.#context.tasks.run(crawlerTask(crawler, 'update'), (write) => {
      if (typeof name === 'string') crawler.name = name;
      if (checked) crawler.config = checked as unknown as Record<string, unknown>;
      crawler.updatedAt = this.#context.now();
      saveCrawler(write, crawler);
      return newTask(this.#context, write, id, 'update', false);
    });
    return result;
  }

  /** `PATCH /crawlers/{id}/config`: top-level properties replace the configuration's (send the whole `actions`). */
  async patchConfig(id: string, partial: Record<string, unknown>): Promise<string> {
    const crawler = await this.require(id);
    if (Object.keys(partial).length === 0)
      throw new ServiceError(400, 'The body must hold at least one configuration property');
    return this.update(id, undefined, { ...crawler.config, ...partial });
  }

  // --- state ---

  /**
   * `run`: the crawler runs again (a paused crawl resumes). A crawler that never crawled starts its
   * first reindex, whose task is answered; otherwise the task ends at once.
   */
  async run(id: string): Promise<string> {
    const crawler = await this.require(id);
    refuseBlocked(crawler, 'run');
    if (crawler.lastReindexStartedAt === null && !crawler.reindexing) return startReindex(this.#context, crawler);
    crawler.running = true;
    crawler.updatedAt = this.#context.now();
    const { result } = await this.#context.tasks.run(crawlerTask(crawler, 'run'), (write) => {
      saveCrawler(write, crawler);
      return newTask(this.#context, write, id, 'run', false);
    });
    this.#runtime(crawler).pace.resume();
    return result;
  }

  /** `pause`: no request leaves for this crawler's sites until `run` or `reindex`; the work in progress waits. */
  async pause(id: string): Promise<string> {
    const crawler = await this.require(id);
    crawler.running = false;
    crawler.updatedAt = this.#context.now();
    const { result } = await this.#context.tasks.run(crawlerTask(crawler, 'pause'), (write) => {
      saveCrawler(write, crawler);
      return newTask(this.#context, write, id, 'pause', false);
    });
    this.#runtime(crawler).pace.pause();
    return result;
  }

  /** `reindex` (`reindex.ts`). */
  async reindex(id: string): Promise<string> {
    return startReindex(this.#context, await this.require(id));
  }

  /** Cancels the blocking task (`reindex.ts`, rule 3). */
  async cancel(id: string, taskId: string): Promise<void> {
    await cancelTask(this.#context, await this.require(id), taskId);
  }

  /** Immediate URL crawling (`urls.ts`, rule 1). */
  async crawlUrls(id: string, urls: unknown, save: unknown): Promise<string> {
    return crawlUrls(this.#context, await this.require(id), urls, save);
  }

  /** The test endpoint (`test-url.ts`, rule 2). */
  async test(id: string, url: unknown, overrides: unknown): Promise<Record<string, unknown>> {
    return testUrl(this.#context, await this.require(id), url, overrides);
  }
}
