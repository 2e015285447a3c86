/**
 * The Query Suggestions of one service: the configurations (durable, `storage/query-suggestions.ts`) and
 * the builds of their suggestions indices. A build runs right after a configuration is created or
 * updated (after the answer is sent), again every `REBUILD_EVERY_MS` (the hosted service rebuilds
 * daily; compressed to hourly for development), and on demand (`build`, behind
 * `POST /1/_local/configs/{indexName}/build`). Builds of one configuration never overlap: a request
 * during a build runs one more build after it.
 */
import type { AnalyticsLog } from '../analytics/log.js';
import type { Dictionaries } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import { setSettings } from '../indices/settings.js';
import type { AnalyticsReports, QuerySuggestionsStore } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import { BuildLog, buildSuggestions, type BuildEnvironment, type SuggestionRecord } from './build.js';
import { MAX_CONFIGS, type QuerySuggestionsConfig } from './config.js';

/** Every configuration is rebuilt this often (the hosted daily build, compressed for development). */
export const REBUILD_EVERY_MS = 3_600_000;

/** The status object of document 2 (plus the two figures the hosted API family adds). */
export interface ConfigStatus {
  indexName: string;
  isRunning: boolean;
  /** End of the last build, ISO 8601; `null` before the first. */
  lastBuiltAt: string | null;
  lastSuccessfulBuiltAt: string | null;
  /** Seconds the last successful build took, as text (the hosted API family's type). */
  lastSuccessfulBuildDuration: string | null;
}

interface BuildState {
  /** A build is queued (will start on the next turn of the event loop). */
  scheduled: boolean;
  running: boolean;
  /** Callers waiting for a build that starts after their request. */
  waiters: Array<() => void>;
}

export interface QuerySuggestionsDependencies {
  store: QuerySuggestionsStore;
  /** Suggestions indices are written through the task queue. */
  tasks: TaskQueue;
  /** Source indices are read, suggestions indices written. */
  catalog: Catalog;
  /** Singular/plural de-duplication of the `languages`. */
  dictionaries: Dictionaries;
  /** Popular searches of the source indices. */
  analytics: AnalyticsReports;
  /** Flushed before a build (searches still queued count). */
  analyticsLog: AnalyticsLog;
  now: () => number;
  /**
   * Replicas: runs a job in one replica at a time (false when another runs it). The hourly rebuild runs
   * under it, and only when no replica built the configuration in the last half hour.
   */
  runOnce?: ((name: string, job: () => Promise<void>) => Promise<boolean>) | undefined;
}

/**
 * @example
 * const suggestions = services.querySuggestions;
 * suggestions.create(parseConfig(body));          // builds soon after
 * await suggestions.build('products_query_suggestions'); // or now, waiting for it
 */
export class QuerySuggestions {
  readonly #store: QuerySuggestionsStore;
  readonly #tasks: TaskQueue;
  readonly #analyticsLog: AnalyticsLog;
  readonly #env: BuildEnvironment;
  readonly #states = new Map<string, BuildState>();
  /** Bumped at each change of a configuration: a build of an older version stops without writing. */
  readonly #versions = new Map<string, number>();
  #closed = false;
  /** The builds running now (`close` waits for them). */
  readonly #running = new Set<Promise<void>>();
  readonly #timer: NodeJS.Timeout;

  constructor({
    store,
    tasks,
    catalog,
    dictionaries,
    analytics,
    analyticsLog,
    now,
    runOnce,
  }: QuerySuggestionsDependencies) {
    this.#store = store;
    this.#tasks = tasks;
    this.#analyticsLog = analyticsLog;
    this.#env = { catalog, dictionaries, reports: analytics, now };
    this.#timer = setInterval(() => {
      if (this.#closed) return;
      void this.list().then((configs) => {
        for (const config of configs) {
          if (!runOnce) {
            void this.build(config.indexName);
            continue;
          }
          void runOnce(`query-suggestions:${config.indexName}`, async () => {
            const outcome = await store.outcome(config.indexName);
            const builtAt = outcome?.lastBuiltAt ?? null;
            if (builtAt !== null && Date.now() - builtAt < REBUILD_EVERY_MS / 2) return;
            await this.build(config.indexName);
          });
        }
      });
    }, REBUILD_EVERY_MS);
    this.#timer.unref();
  }

  /**
   * Stops the hourly rebuilds and resolves once no build runs: a build in progress stops at its next pause
   * without writing (or ends the write it is in), one scheduled does not start. The storage may close after
   * this, never under a build.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const state of this.#states.values()) for (const resolve of state.waiters.splice(0)) resolve();
    await Promise.all(this.#running);
  }

  async list(): Promise<QuerySuggestionsConfig[]> {
    return (await this.#store.list()).map((stored) => stored.config as unknown as QuerySuggestionsConfig);
  }

  async get(indexName: string): Promise<QuerySuggestionsConfig | undefined> {
    return (await this.#store.get(indexName))?.config as unknown as QuerySuggestionsConfig | undefined;
  }

  /** The configuration, or 404. */
  async require(indexName: string): Promise<QuerySuggestionsConfig> {
    const config = await this.get(indexName);
    if (!config) throw new ServiceError(404, `No Query Suggestions configuration for the index ${indexName}`);
    return config;
  }

  /** `POST /1/configs`: 422 when the index has a configuration already, 403 past `MAX_CONFIGS`. */
  async create(config: QuerySuggestionsConfig): Promise<void> {
    if (await this.#store.get(config.indexName)) {
      throw new ServiceError(
        422,
        `indexName: a Query Suggestions configuration for ${config.indexName} exists already (update it with PUT /1/configs/${config.indexName})`,
      );
    }
    await this.#checkLimit();
    await this.#save(config);
  }

  /** `PUT /1/configs/{indexName}`: replaces the configuration, or creates it (deprecated). True when created. */
  async update(config: QuerySuggestionsConfig): Promise<boolean> {
    const created = !(await this.#store.get(config.indexName));
    if (created) await this.#checkLimit();
    await this.#save(config);
    return created;
  }

  /** `DELETE /1/configs/{indexName}`: stops the updates; the suggestions index stays as it is. */
  async delete(indexName: string): Promise<void> {
    if (!(await this.#store.remove(indexName)))
      throw new ServiceError(404, `No Query Suggestions configuration for the index ${indexName}`);
    this.#bump(indexName);
  }

  async status(indexName: string): Promise<ConfigStatus> {
    await this.require(indexName);
    const outcome = (await this.#store.outcome(indexName))!;
    const state = this.#states.get(indexName);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      indexName,
      isRunning: state !== undefined && (state.running || state.scheduled),
      lastBuiltAt: iso(outcome.lastBuiltAt),
      lastSuccessfulBuiltAt: iso(outcome.lastSuccessfulBuiltAt),
      lastSuccessfulBuildDuration:
        outcome.lastSuccessfulBuildMs === null ? null : (outcome.lastSuccessfulBuildMs / 1000).toFixed(3),
    };
  }

  /** The log of the last build (JSON Lines); 404 without a configuration or before its first build. */
  async log(indexName: string): Promise<string> {
    await this.require(indexName);
    const log = (await this.#store.outcome(indexName))?.log;
    if (log === null || log === undefined)
      throw new ServiceError(404, `The suggestions index ${indexName} has not been built yet: no log`);
    return log;
  }

  /**
   * Builds the suggestions index of a configuration: resolves when a build that started after this call
   * has ended (one more build is queued when one is running).
   */
  build(indexName: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    let state = this.#states.get(indexName);
    if (!state) {
      state = { scheduled: false, running: false, waiters: [] };
      this.#states.set(indexName, state);
    }
    const current = state;
    return new Promise<void>((resolve) => {
      current.waiters.push(resolve);
      if (!current.running && !current.scheduled) this.#schedule(indexName, current);
    });
  }

  #schedule(indexName: string, state: BuildState): void {
    state.scheduled = true;
    setImmediate(() => {
      const run = this.#run(indexName, state);
      this.#running.add(run);
      void run.finally(() => this.#running.delete(run));
    });
  }

  async #run(indexName: string, state: BuildState): Promise<void> {
    state.scheduled = false;
    state.running = true;
    const waiters = state.waiters.splice(0);
    try {
      // Scheduled before `close`, starting after it: the storage may be closed already.
      if (!this.#closed) await this.#buildOnce(indexName);
    } catch (error) {
      console.error('[svc-search] query suggestions: the build of', indexName, 'failed', error);
    } finally {
      state.running = false;
      for (const resolve of waiters) resolve();
      if (state.waiters.length > 0 && !this.#closed) this.#schedule(indexName, state);
      else if (state.waiters.length === 0) this.#states.delete(indexName);
    }
  }

  async #buildOnce(indexName: string): Promise<void> {
    const stored = await this.#store.get(indexName);
    if (!stored || this.#closed) return;
    const version = this.#versions.get(indexName) ?? 0;
    const stopped = () => this.#closed || (this.#versions.get(indexName) ?? 0) !== version;
    const started = Date.now();
    const log = new BuildLog();
    const config = stored.config as unknown as QuerySuggestionsConfig;
    log.add(
      'INFO',
      0,
      `Build of ${JSON.stringify(indexName)} started: ${config.sourceIndices.length} source ${config.sourceIndices.length === 1 ? 'index' : 'indices'}`,
    );
    await this.#analyticsLog.flush(); // searches still queued count too
    let records: SuggestionRecord[] | undefined;
    try {
      records = await buildSuggestions(this.#env, config, log, { shouldStop: stopped });
    } catch (error) {
      log.add('ERROR', 0, `The build failed: ${(error as Error).message}`);
    }
    // A newer configuration (its own build is queued) or a deleted one: nothing is written.
    if (stopped()) return;
    if (records) {
      try {
        await this.#write(indexName, records);
        log.add('INFO', 0, `${records.length} suggestions written to ${JSON.stringify(indexName)}`);
      } catch (error) {
        log.add(
          'ERROR',
          0,
          `The suggestions could not be written to ${JSON.stringify(indexName)}: ${(error as Error).message}`,
        );
      }
    }
    const ended = Date.now();
    log.add('INFO', 0, `Build finished in ${ended - started} ms`);
    await this.#store.saveBuild(indexName, {
      builtAt: ended,
      success: !log.hasError,
      durationMs: ended - started,
      log: log.toJsonLines(),
    });
  }

  /**
   * Replaces the records of the suggestions index in one transaction (readers see the old or the new
   * suggestions, never a mix). Its settings get `searchableAttributes: ['query']` and
   * `customRanking: ['desc(popularity)']` unless they were set on it already (yours are kept).
   */
  async #write(indexName: string, records: SuggestionRecord[]): Promise<void> {
    const { catalog } = this.#env;
    const meta = catalog.meta(indexName);
    if (meta?.primary) throw new Error(`it is a replica of ${meta.primary}, whose records it mirrors`);
    await this.#tasks.run({ indexName, kind: 'querySuggestions' }, (write) => {
      const settings: Record<string, unknown> = {};
      const given = catalog.meta(indexName)?.settings ?? {};
      if (!('searchableAttributes' in given)) settings.searchableAttributes = ['query'];
      if (!('customRanking' in given)) settings.customRanking = ['desc(popularity)'];
      if (Object.keys(settings).length > 0 || !meta) setSettings(catalog, write, indexName, settings);
      catalog.clearObjects(write, indexName);
      catalog.saveObjects(write, indexName, records);
    });
  }

  async #checkLimit(): Promise<void> {
    if ((await this.#store.count()) >= MAX_CONFIGS) {
      throw new ServiceError(
        403,
        `Up to ${MAX_CONFIGS} Query Suggestions configurations per application: delete one before creating another`,
      );
    }
  }

  async #save(config: QuerySuggestionsConfig): Promise<void> {
    await this.#store.save(config as unknown as Record<string, unknown> & { indexName: string }, Date.now());
    this.#bump(config.indexName);
  }

  #bump(indexName: string): void {
    this.#versions.set(indexName, (this.#versions.get(indexName) ?? 0) + 1);
  }
}
