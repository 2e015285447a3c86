/**
 * A/B tests (document 2, "A/B test" and "A/B test status"): the tests of a service, their status, the
 * traffic split and their metrics. The router is `src/service/http/abtests.ts`; the search side is
 * `./search.ts`; storage `src/service/storage/abtests.ts`. See `docs/notes/analytics.md`, "A/B tests".
 *
 * - Status: `active` from creation; `stopped` by `POST …/stop` (final: the test never restarts);
 *   `expired` once the service clock (`ctx.now()`) is past `endAt` — evaluated lazily whenever a test is
 *   read or a search could be split, and then stored. `failed` is never produced: a creation either
 *   commits whole or answers an error and leaves nothing.
 * - Assignment: the first 4 bytes of SHA-256(`abTestID` NUL `user`) as an unsigned integer, modulo 100,
 *   give the user's bucket 0–99; buckets below the first variant's trafficPercentage get variant 1, the
 *   others variant 2. The user is the one Analytics counts (`searchUser`). Stable for the test's life;
 *   independent across tests.
 * - Metrics: the Analytics figures (`AnalyticsReports.abTestVariant`) of the searches each variant was
 *   assigned, and the significance of the difference between the variants (`./significance.ts`).
 */
import { createHash } from 'node:crypto';
import { getAnalyticsLog } from '../analytics/record.js';
import { AnalyticsReports } from '../analytics/reports.js';
import type { ServiceContext } from '../context.js';
import { getEventStore } from '../insights/event-store.js';
import { AbTestStore, type AbTestVariantConfig, type StoredAbTest } from '../storage/abtests.js';
import { twoProportionSignificance } from './significance.js';
import type { AbTestCreate } from './validate.js';

/** The variant metrics of document 2; all `null` when the variant has no recorded search yet. */
export interface VariantMetrics {
  averageClickPosition: number | null;
  clickCount: number | null;
  clickThroughRate: number | null;
  conversionCount: number | null;
  conversionRate: number | null;
  noResultCount: number | null;
  searchCount: number | null;
  trackedSearchCount: number | null;
  userCount: number | null;
}

/** The A/B test object of document 2 (`GET /2/abtests/{id}`). */
export interface AbTestObject {
  abTestID: number;
  name: string;
  status: 'active' | 'stopped' | 'expired';
  createdAt: string;
  endAt: string;
  clickSignificance: number | null;
  conversionSignificance: number | null;
  variants: Array<
    {
      index: string;
      trafficPercentage: number;
      description: string;
      customSearchParameters?: Record<string, unknown>;
    } & VariantMetrics
  >;
}

const NO_DATA: VariantMetrics = {
  averageClickPosition: null,
  clickCount: null,
  clickThroughRate: null,
  conversionCount: null,
  conversionRate: null,
  noResultCount: null,
  searchCount: null,
  trackedSearchCount: null,
  userCount: null,
};

/**
 * The user's bucket in a test, 0–99.
 *
 * @example
 * bucketOf(1, 'alice') // the same number on every call
 */
export function bucketOf(abTestID: number, userKey: string): number {
  return createHash('sha256').update(`${abTestID}\u0000${userKey}`).digest().readUInt32BE(0) % 100;
}

/** 1 or 2: the variant a user gets in a test. */
export function variantFor(test: Pick<StoredAbTest, 'abTestID' | 'variants'>, userKey: string): 1 | 2 {
  return bucketOf(test.abTestID, userKey) < test.variants[0].trafficPercentage ? 1 : 2;
}

export class AbTests {
  private readonly store: AbTestStore;
  private readonly reports: AnalyticsReports;
  /** Every test by id (a few rows: kept in memory, written through). */
  private readonly tests = new Map<number, StoredAbTest>();

  constructor(private readonly ctx: ServiceContext) {
    // The tables the metrics read: the Analytics search log (with its A/B columns) and the events.
    getAnalyticsLog(ctx);
    getEventStore(ctx);
    this.store = new AbTestStore(ctx.db);
    this.reports = new AnalyticsReports(ctx.db);
    for (const test of this.store.all()) this.tests.set(test.abTestID, test);
  }

  /** Moves an active test past its `endAt` to `expired` (stored). */
  private refresh(test: StoredAbTest): StoredAbTest {
    if (test.status === 'active' && this.ctx.now() > test.endAt) {
      this.store.setStatus(test.abTestID, 'expired');
      test.status = 'expired';
    }
    return test;
  }

  get(abTestID: number): StoredAbTest | undefined {
    const test = this.tests.get(abTestID);
    return test && this.refresh(test);
  }

  /** Every test, oldest first. */
  list(): StoredAbTest[] {
    return [...this.tests.values()].map((test) => this.refresh(test));
  }

  /** The active test whose indices include `indexName`, if any. */
  activeUsing(indexName: string): StoredAbTest | undefined {
    return this.list().find(
      (test) => test.status === 'active' && test.variants.some((variant) => variant.index === indexName),
    );
  }

  /** The active test whose first (control) index is `indexName`: the one its searches are split by. */
  activeOn(indexName: string): StoredAbTest | undefined {
    for (const test of this.tests.values()) {
      if (test.status === 'active' && test.variants[0].index === indexName && this.refresh(test).status === 'active')
        return test;
    }
    return undefined;
  }

  /**
   * Stores a validated test as active. `write` runs the insert inside the caller's transaction (the
   * catalog's, which publishes the task the answer carries).
   */
  create(input: AbTestCreate, write: (insert: () => number) => number): StoredAbTest {
    const createdAt = this.ctx.now();
    const base = {
      name: input.name,
      status: 'active' as const,
      createdAt,
      endAt: input.endAt,
      variants: input.variants,
    };
    const abTestID = write(() => this.store.insert(base));
    const test: StoredAbTest = { abTestID, ...base };
    this.tests.set(abTestID, test);
    return test;
  }

  /**
   * `active` → `stopped`; a stopped or expired test stays as it is (stop is idempotent, so a client's
   * retry after a timeout is harmless). `write` runs the change inside the caller's transaction.
   */
  stop(test: StoredAbTest, write: (apply: () => void) => void = (apply) => apply()): void {
    this.refresh(test);
    const stoppedAt = this.ctx.now();
    const stopping = test.status === 'active';
    write(() => {
      if (stopping) this.store.setStatus(test.abTestID, 'stopped', stoppedAt);
    });
    if (!stopping) return;
    test.status = 'stopped';
    test.stoppedAt = stoppedAt;
  }

  /** Removes the test and its metrics. `write` runs the change inside the caller's transaction. */
  remove(test: StoredAbTest, write: (apply: () => void) => void = (apply) => apply()): void {
    getAnalyticsLog(this.ctx).flush(); // searches of the test still queued lose their tag too
    write(() => this.store.remove(test.abTestID));
    this.tests.delete(test.abTestID);
  }

  /** The A/B test object with each variant's metrics and the two significances. */
  describe(test: StoredAbTest): AbTestObject {
    this.refresh(test);
    getAnalyticsLog(this.ctx).flush(); // live figures: searches still queued count
    const figures = test.variants.map((variant, i) => this.reports.abTestVariant(test.abTestID, i + 1, variant.index));
    const [a, b] = figures;
    const significance = (numerator: 'clickedSearchCount' | 'convertedSearchCount') =>
      a && b ? twoProportionSignificance(a[numerator], a.trackedSearchCount, b[numerator], b.trackedSearchCount) : null;
    return {
      abTestID: test.abTestID,
      name: test.name,
      status: test.status,
      createdAt: new Date(test.createdAt).toISOString(),
      endAt: new Date(test.endAt).toISOString(),
      clickSignificance: significance('clickedSearchCount'),
      conversionSignificance: significance('convertedSearchCount'),
      variants: test.variants.map((variant, i) => ({ ...variantFields(variant), ...metrics(figures[i]) })),
    };
  }
}

function variantFields(variant: AbTestVariantConfig) {
  return {
    index: variant.index,
    trafficPercentage: variant.trafficPercentage,
    description: variant.description ?? '',
    ...(variant.customSearchParameters
      ? { customSearchParameters: structuredClone(variant.customSearchParameters) }
      : {}),
  };
}

function metrics(figures: ReturnType<AnalyticsReports['abTestVariant']>): VariantMetrics {
  if (!figures) return { ...NO_DATA };
  return {
    // An integer, as the document types it: the mean click position rounded to the nearest (halves up).
    averageClickPosition: figures.averageClickPosition === null ? null : Math.round(figures.averageClickPosition),
    clickCount: figures.clickCount,
    clickThroughRate: figures.clickThroughRate,
    conversionCount: figures.conversionCount,
    conversionRate: figures.conversionRate,
    noResultCount: figures.noResultCount,
    searchCount: figures.searchCount,
    trackedSearchCount: figures.trackedSearchCount,
    userCount: figures.userCount,
  };
}

const services = new WeakMap<ServiceContext, AbTests>();

/**
 * The A/B tests of a service (one per context; creates its table and loads the tests on first use).
 *
 * @example
 * getAbTests(ctx).activeOn('products')
 */
export function getAbTests(ctx: ServiceContext): AbTests {
  let service = services.get(ctx);
  if (!service) {
    service = new AbTests(ctx);
    services.set(ctx, service);
  }
  return service;
}
