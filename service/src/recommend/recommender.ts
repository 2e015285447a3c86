/**
 * The Recommend models of a service: one {@link IndexModels} per index, built from the stored Insights events
 * (`insights_events`, through the event store) on first use, then kept up to date incrementally: every batch
 * of events the Insights endpoint stores arrives through `ctx.on('events')` and is added at once, so the next
 * Recommend request already sees it. Nothing is recomputed on a timer; trending is evaluated at request time
 * (decay relative to the request's time, cached for a minute or until the next event).
 */
import type { ServiceContext } from '../context.js';
import { getEventStore, type StoredEvent } from '../insights/event-store.js';
import { internalsOf } from '../http/internals.js';
import { IndexModels, type ModelOptions, type RecordSource } from './models.js';

export interface RecommenderOptions {
  /** Clock of the trending decay (default the service's clock, `ctx.now`). */
  now?: () => number;
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
  private readonly checks: Array<(now: number) => void> = [];

  constructor(
    private readonly ctx: ServiceContext,
    options: RecommenderOptions = {},
  ) {
    this.now = options.now ?? (() => ctx.now());
    this.modelOptions = options.model ?? {};
    ctx.on('events', (payload) => {
      // Before the first build there is nothing to update: the build reads every stored event.
      if (!this.models || !Array.isArray(payload)) return;
      this.addEvents(payload as StoredEvent[]);
    });
    // A user token's events were deleted: the models are rebuilt from the events left, on their next use.
    ctx.on('usertoken-deleted', () => this.reset());
  }

  /** Reads every stored event and rebuilds all models (the first Recommend request does this). */
  rebuild(): BuildStats {
    const started = performance.now();
    this.models = new Map();
    const events = getEventStore(this.ctx).query();
    this.addEvents(events);
    this.lastBuild = { events: events.length, indices: this.models.size, ms: performance.now() - started };
    return this.lastBuild;
  }

  /** Drops the models: the next use rebuilds them from the stored events (after events were changed in place). */
  reset(): void {
    this.models = undefined;
  }

  /** Runs `check(now)` before every use of the models (the demo history keeps itself recent this way). */
  beforeUse(check: (now: number) => void): void {
    this.checks.push(check);
  }

  /** The models of `indexName` (empty when it has no events). */
  modelsOf(indexName: string): IndexModels {
    for (const check of this.checks) check(this.now());
    if (!this.models) this.rebuild();
    let models = this.models!.get(indexName);
    if (!models) this.models!.set(indexName, (models = new IndexModels(this.modelOptions)));
    return models;
  }

  /** The records of `indexName` as the models read them (content similarity, facet values). */
  recordsOf(indexName: string): RecordSource | undefined {
    const index = this.ctx.indices.get(indexName);
    if (!index) return undefined;
    const meta = internalsOf(this.ctx).catalog.meta(indexName);
    const version = `${meta?.updatedAt ?? 0}:${index.size}`;
    const cached = this.sources.get(indexName);
    if (cached && cached.index === index && cached.version === version) return cached.source;
    const source: RecordSource = {
      get: (objectID) => index.getObject(objectID),
      objects: () => index.objects(),
      version: () => `${internalsOf(this.ctx).catalog.meta(indexName)?.updatedAt ?? 0}:${index.size}`,
    };
    this.sources.set(indexName, { index, version, source });
    return source;
  }

  private addEvents(events: StoredEvent[]): void {
    const byIndex = new Map<string, StoredEvent[]>();
    for (const event of events) {
      let list = byIndex.get(event.index);
      if (!list) byIndex.set(event.index, (list = []));
      list.push(event);
    }
    for (const [indexName, list] of byIndex) {
      let models = this.models!.get(indexName);
      if (!models) this.models!.set(indexName, (models = new IndexModels(this.modelOptions)));
      models.add(list);
    }
  }
}

const recommenders = new WeakMap<ServiceContext, Recommender>();

/**
 * The recommender of a service (one per context, created on first use).
 * @example getRecommender(ctx).modelsOf('products').boughtTogether('OFF-PA-10001970')
 */
export function getRecommender(ctx: ServiceContext, options?: RecommenderOptions): Recommender {
  let recommender = recommenders.get(ctx);
  if (!recommender) {
    recommender = new Recommender(ctx, options);
    recommenders.set(ctx, recommender);
  }
  return recommender;
}
