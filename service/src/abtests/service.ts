/**
 * A/B tests (document 2, "A/B test" and "A/B test status"): the tests of a service, their status, the
 * traffic split and their metrics. The router is `http/abtests.ts`; the search side is
 * `./search.ts`; storage `storage/sqlite/abtests.ts`. See `docs/notes/analytics.md`, "A/B tests".
 *
 * - Status: `active` from creation; `stopped` by `POST …/stop` (final: the test never restarts);
 *   `expired` once the service clock (`services.now()`) is past `endAt` — evaluated lazily whenever a test is
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
import type { AnalyticsLog } from '../analytics/log.js';
import type {
  AbTestStore,
  AbTestVariantConfig,
  AnalyticsReports,
  StoredAbTest,
  VariantFigures,
} from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
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

export interface AbTestsDependencies {
  store: AbTestStore;
  /** Creations, stops, deletions and expiries are writes. */
  tasks: TaskQueue;
  /** The metrics: the Analytics figures of each variant's searches. */
  analytics: AnalyticsReports;
  /** Flushed before the metrics are read (searches still queued count). */
  analyticsLog: AnalyticsLog;
  now: () => number;
}

export class AbTests {
  readonly #tasks: TaskQueue;
  readonly #reports: AnalyticsReports;
  readonly #analyticsLog: AnalyticsLog;
  readonly #now: () => number;
  /** Every test by id (a few rows: kept in memory, written through). */
  readonly #tests = new Map<number, StoredAbTest>();

  private constructor({ tasks, analytics, analyticsLog, now }: AbTestsDependencies) {
    this.#tasks = tasks;
    this.#reports = analytics;
    this.#analyticsLog = analyticsLog;
    this.#now = now;
  }

  static async load(dependencies: AbTestsDependencies): Promise<AbTests> {
    const abTests = new AbTests(dependencies);
    for (const test of await dependencies.store.all()) abTests.#tests.set(test.abTestID, test);
    return abTests;
  }

  /**
   * Moves an active test past its `endAt` to `expired`: at once in memory, then stored (a write of its own,
   * off the caller's path — a search may be what noticed; a failed write is logged, and the test is found
   * expired again at the next start).
   */
  #refresh(test: StoredAbTest): StoredAbTest {
    if (test.status === 'active' && this.#now() > test.endAt) {
      test.status = 'expired';
      this.#tasks
        .run({ indexName: test.variants[0].index, kind: 'abtestExpired' }, (write) => {
          write.change({ area: 'abTests', type: 'status', abTestID: test.abTestID, status: 'expired' });
        })
        .catch((error) => console.error('[svc-search] A/B test: the expiry could not be stored', error));
    }
    return test;
  }

  get(abTestID: number): StoredAbTest | undefined {
    const test = this.#tests.get(abTestID);
    return test && this.#refresh(test);
  }

  /** Every test, oldest first. */
  list(): StoredAbTest[] {
    return [...this.#tests.values()].map((test) => this.#refresh(test));
  }

  /** The active test whose indices include `indexName`, if any. */
  activeUsing(indexName: string): StoredAbTest | undefined {
    return this.list().find(
      (test) => test.status === 'active' && test.variants.some((variant) => variant.index === indexName),
    );
  }

  /** The active test whose first (control) index is `indexName`: the one its searches are split by. */
  activeOn(indexName: string): StoredAbTest | undefined {
    for (const test of this.#tests.values()) {
      if (test.status === 'active' && test.variants[0].index === indexName && this.#refresh(test).status === 'active')
        return test;
    }
    return undefined;
  }

  /** Stores a validated test as active; resolves with it and the task of the write. */
  async create(input: AbTestCreate): Promise<{ test: StoredAbTest; taskID: number }> {
    const base = {
      name: input.name,
      status: 'active' as const,
      createdAt: this.#now(),
      endAt: input.endAt,
      variants: input.variants,
    };
    const { taskID, results } = await this.#tasks.run({ indexName: input.variants[0].index, kind: 'abtest' }, (write) =>
      write.change({ area: 'abTests', type: 'insert', test: base }),
    );
    const test: StoredAbTest = { abTestID: results[0] as number, ...base };
    this.#tests.set(test.abTestID, test);
    return { test, taskID };
  }

  /**
   * `active` → `stopped`; a stopped or expired test stays as it is (stop is idempotent, so a client's
   * retry after a timeout is harmless). Resolves with the task of the write.
   */
  async stop(test: StoredAbTest): Promise<number> {
    this.#refresh(test);
    const stoppedAt = this.#now();
    const stopping = test.status === 'active';
    const { taskID } = await this.#tasks.run({ indexName: test.variants[0].index, kind: 'abtestStop' }, (write) => {
      if (!stopping) return;
      write.change({ area: 'abTests', type: 'status', abTestID: test.abTestID, status: 'stopped', stoppedAt });
      write.afterCommit(() => {
        test.status = 'stopped';
        test.stoppedAt = stoppedAt;
      });
    });
    return taskID;
  }

  /** Removes the test and its metrics (its searches lose their test and variant). Resolves with the task. */
  async remove(test: StoredAbTest): Promise<number> {
    await this.#analyticsLog.flush(); // searches of the test still queued lose their tag too
    const { taskID } = await this.#tasks.run({ indexName: test.variants[0].index, kind: 'abtestDelete' }, (write) => {
      write.change({ area: 'abTests', type: 'remove', abTestID: test.abTestID });
      write.afterCommit(() => this.#tests.delete(test.abTestID));
    });
    return taskID;
  }

  /** The A/B test object with each variant's metrics and the two significances. */
  async describe(test: StoredAbTest): Promise<AbTestObject> {
    this.#refresh(test);
    await this.#analyticsLog.flush(); // live figures: searches still queued count
    const figures = await Promise.all(
      test.variants.map((variant, i) => this.#reports.abTestVariant(test.abTestID, i + 1, variant.index)),
    );
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

function metrics(figures: VariantFigures | undefined): VariantMetrics {
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
