/**
 * The Recommend models of a service: one {@link IndexModels} per index, built from the stored Insights events
 * (`insights_events`, through the event store) on first use, then kept up to date incrementally: every batch
 * of events the Insights endpoint stores arrives through the `'insights:events'` event (wired in
 * `services.ts`) and is added at once, so the next
 * Recommend request already sees it. Nothing is recomputed on a timer; trending is evaluated at request time
 * (decay relative to the request's time, cached for a minute or until the next event).
 */
import type { Catalog } from '../indices/catalog.js';
import type { StoredEvent } from '../events.js';
import type { InsightsEvents } from '../insights/events.js';
import { IndexModels, type ModelOptions, type RecordSource } from './models.js';

export interface RecommenderDependencies {
  /** The indices: the records the models read (content similarity, facet values). */
  catalog: Catalog;
  /** The stored events the models are built from. */
  insights: InsightsEvents;
  /** Clock of the trending decay (the service's clock). */
  now: () => number;
  model?: Partial<ModelOptions>;
}

/** Figures of the last full build (the bench prints them). */
export interface BuildStats {
  events: number;
  indices: number;
  ms: number;
}

export class Recommender {
  readonly now: () => number;
  private readonly modelOptions: Partial<ModelOptions>;
  private models: Map<string, IndexModels> | undefined;
  private readonly sources = new Map<string, { index: object; version: string; source: RecordSource }>();
  lastBuild: BuildStats | undefined;
  private readonly checks: Array<(now: number) => Promise<void> | void> = [];
  private building: Promise<BuildStats> | undefined;

  readonly #catalog: Catalog;
  readonly #insights: InsightsEvents;

  constructor({ catalog, insights, now, model }: RecommenderDependencies) {
    this.#catalog = catalog;
    this.#insights = insights;
    this.now = now;
    this.modelOptions = model ?? {};
  }

  /** Events just stored (`'insights:events'`): added to the models at once (nothing to do before the first build). */
  addStoredEvents(events: readonly StoredEvent[]): void {
    if (this.models) this.addEvents(events);
  }

  /**
   * Reads every stored event and rebuilds all models (the first Recommend request does this). Events stored
   * while it reads count once: `buildFrom` hands over the ones the read missed, and the models are in place
   * before the next `'insights:events'`.
   */
  async rebuild(): Promise<BuildStats> {
    const started = performance.now();
    const events = await this.#insights.buildFrom((read) => {
      this.models = new Map();
      this.addEvents(read);
    });
    this.lastBuild = { events, indices: this.models!.size, ms: performance.now() - started };
    return this.lastBuild;
  }

  /** Drops the models: the next use rebuilds them from the stored events (after events were changed in place). */
  reset(): void {
    this.models = undefined;
  }

  /** Runs `check(now)` before every use of the models (the demo history keeps itself recent this way). */
  beforeUse(check: (now: number) => Promise<void> | void): void {
    this.checks.push(check);
  }

  /** The models of `indexName` (empty when it has no events). */
  async modelsOf(indexName: string): Promise<IndexModels> {
    for (const check of this.checks) await check(this.now());
    if (!this.models) {
      // One build at a time: concurrent first requests wait for the same one.
      this.building ??= this.rebuild().finally(() => {
        this.building = undefined;
      });
      await this.building;
    }
    const all = this.models!;
    let models = all.get(indexName);
    if (!models) {
      models = new IndexModels(this.modelOptions);
      all.set(indexName, models);
    }
    return models;
  }

  /** The records of `indexName` as the models read them (content similarity, facet values). */
  recordsOf(indexName: string): RecordSource | undefined {
    const index = this.#catalog.get(indexName);
    if (!index) return undefined;
    const meta = this.#catalog.meta(indexName);
    const version = `${meta?.updatedAt ?? 0}:${index.size}`;
    const cached = this.sources.get(indexName);
    if (cached && cached.index === index && cached.version === version) return cached.source;
    const source: RecordSource = {
      get: (objectID) => index.getObject(objectID),
      objects: () => index.objects(),
      version: () => `${this.#catalog.meta(indexName)?.updatedAt ?? 0}:${index.size}`,
    };
    this.sources.set(indexName, { index, version, source });
    return source;
  }

  private addEvents(events: readonly StoredEvent[]): void {
    const byIndex = new Map<string, StoredEvent[]>();
    for (const event of events) {
      let list = byIndex.get(event.index);
      if (!list) {
        list = [];
        byIndex.set(event.index, list);
      }
      list.push(event);
    }
    for (const [indexName, list] of byIndex) {
      let models = this.models!.get(indexName);
      if (!models) {
        models = new IndexModels(this.modelOptions);
        this.models!.set(indexName, models);
      }
      models.add(list);
    }
  }
}
