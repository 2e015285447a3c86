/**
 * The searches Analytics counts (document 2): one row per search answered with `analytics` not false, kept
 * by the Analytics store (`storage/`).
 *
 * Writes stay off the search path: `record` only queues the row; the queue is written in one transaction
 * (on SQLite without an fsync of its own: `unsyncedCommit`) 250 ms after its first row, at once from 1,000 rows, before every Analytics read (`flush`) and
 * when the service closes. A `kill -9` can therefore lose the searches of the last 250 ms — the price of not
 * adding an fsync to every search.
 *
 * Search-as-you-type aggregation ("prefix" aggregation of the document) is decided when rows are written: a
 * search is marked `superseded` by the next search of the same user on the same index when that one comes at
 * most 5 s later and one query is a prefix of the other (compared case-insensitively, NFKC). Only the last
 * search of such a series counts; the rows themselves are all kept.
 */
import { randomUUID } from 'node:crypto';
import type { AnalyticsSearch, AnalyticsStore } from '../storage/types.js';

export interface AnalyticsLogOptions {
  /** Delay between the first queued row and the write (default 250 ms). */
  flushDelayMs?: number;
  /** Queue size that triggers a write at once (default 1,000). */
  maxBatch?: number;
  /** Keystroke aggregation window (default 5,000 ms). */
  aggregationWindowMs?: number;
}

/** Default keystroke aggregation window: searches at most this far apart can form one typing series. */
export const AGGREGATION_WINDOW_MS = 5_000;

/**
 * Case- and width-insensitive form of a query for the prefix test.
 *
 * @example
 * prefixForm('  Chair ') // 'chair '
 */
export function prefixForm(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trimStart();
}

/**
 * True when `next` ends the typing series of `previous` (same user and index assumed): at most
 * `windowMs` later and one query is a prefix of the other.
 *
 * @example
 * continuesSeries({ query: 'ch', ts: 0 }, { query: 'cha', ts: 300 }) // true
 * continuesSeries({ query: 'chair', ts: 0 }, { query: 'lamp', ts: 300 }) // false
 */
export function continuesSeries(
  previous: { query: string; ts: number },
  next: { query: string; ts: number },
  windowMs = AGGREGATION_WINDOW_MS,
): boolean {
  const gap = next.ts - previous.ts;
  if (gap < 0 || gap > windowMs) return false;
  const a = prefixForm(previous.query);
  const b = prefixForm(next.query);
  return b.startsWith(a) || a.startsWith(b);
}

/**
 * @example
 * const log = new AnalyticsLog(storage.analytics);
 * log.record({ indexName: 'products', ts: Date.now(), query: 'chair', nbHits: 12, userKey: 'u1', anonymous: false,
 *              page: 0, hitsPerPage: 20, objectIDs: ['1', '2'], filters: [], tags: [] });
 * await log.flush(); // written
 */
export class AnalyticsLog {
  #pending: AnalyticsSearch[] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  /** The write in progress: a flush waits for it, so a read after `flush()` sees every queued search. */
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #store: AnalyticsStore;
  readonly #flushDelayMs: number;
  readonly #maxBatch: number;
  readonly #windowMs: number;

  constructor(store: AnalyticsStore, options: AnalyticsLogOptions = {}) {
    this.#store = store;
    this.#flushDelayMs = options.flushDelayMs ?? 250;
    this.#maxBatch = options.maxBatch ?? 1000;
    this.#windowMs = options.aggregationWindowMs ?? AGGREGATION_WINDOW_MS;
  }

  /** Queues one search (no I/O on the caller's path). */
  record(entry: AnalyticsSearch): void {
    this.#pending.push(entry);
    if (this.#pending.length >= this.#maxBatch) {
      this.#immediate ??= setImmediate(() => void this.#flushSafely());
    } else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.#flushSafely(), this.#flushDelayMs);
      this.#timer.unref();
    }
  }

  /** Searches queued and not yet written. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Writes every queued search in one transaction (and marks the searches they supersede). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    const batch = this.#pending;
    this.#pending = [];
    const written = this.#writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.#store.append(batch, (previous, next) => continuesSeries(previous, next, this.#windowMs));
      } catch (error) {
        // Not lost: put back in front of what was queued meanwhile, retried by the next write.
        this.#pending = [...batch, ...this.#pending];
        throw error;
      }
    });
    this.#writing = written.catch(() => undefined);
    return written;
  }

  /**
   * A deleted user token (`DELETE /1/usertokens/{userToken}`): its recorded searches keep counting as one
   * user's, under a random stand-in, so that search and user counts stay as they were and nothing links
   * them to the token any more.
   */
  async forgetUser(userToken: string): Promise<void> {
    await this.flush();
    await this.#store.forgetUser(userToken, `deleted-${randomUUID()}`);
  }

  /** Writes what is queued and stops the timer (the service is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#flushSafely();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #flushSafely(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      console.error('[svc-search] analytics: writing the search log failed; retrying later', error);
      if (!this.#closed && !this.#timer) {
        this.#timer = setTimeout(() => void this.#flushSafely(), Math.max(this.#flushDelayMs, 1000));
        this.#timer.unref();
      }
    }
  }
}
