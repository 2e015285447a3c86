/**
 * The call log behind the Usage and Monitoring APIs (document 3): one row per operation the service answered
 * (per index for multi-index calls), kept by the Usage store (`storage/`).
 *
 * Writes stay off the request path, as for the Analytics log: `record` only queues the call; the queue
 * is written in one transaction 250 ms after its first call, at once from 1,000 calls, before every
 * Usage or Monitoring read (`flush`) and when the service closes. A `kill -9` can lose the calls of the
 * last 250 ms. Multi-index bodies (multi-query, multi-get, multi-index batch) are parsed at write time,
 * never while the request is answered.
 */
import type { UsageRow, UsageStore } from '../storage/types.js';

export type { UsageRow } from '../storage/types.js';

/** One answered call as the middleware queues it. */
export interface QueuedCall {
  /** Service clock (Unix ms). */
  ts: number;
  /** Operation name (`queries`, `batch`, `get_api_key`, … see `usage/operations.ts`). */
  op: string;
  /** The index of the path, if any. */
  indexName?: string;
  /** For multi-index calls: the request body text, to find the indices of its requests. */
  body?: string;
  /** Processing time (ms, from the request to the answer's headers). */
  ms: number;
  status: number;
}

export interface UsageLogOptions {
  flushDelayMs?: number;
  maxBatch?: number;
}

/** `{requests:[{indexName}…]}` → `[[index, count]…]` in first-seen order; [] when unreadable. */
function indicesOf(body: string | undefined): Array<[string, number]> {
  if (!body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const requests = (parsed as { requests?: unknown })?.requests;
  const counts = new Map<string, number>();
  if (Array.isArray(requests)) {
    for (const request of requests) {
      const name = (request as { indexName?: unknown })?.indexName;
      if (typeof name === 'string' && name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts];
}

/**
 * @example
 * const usage = new UsageLog(storage.usage, () => querySuggestionIndices());
 * usage.record({ ts: Date.now(), op: 'query', indexName: 'products', ms: 2, status: 200 });
 * await usage.rows(start, end);
 */
export class UsageLog {
  readonly #store: UsageStore;
  /** The target indices of the Query Suggestions configurations (their rows are marked `qs`). */
  readonly #suggestionIndices: () => Promise<Set<string>>;
  readonly #queue: QueuedCall[] = [];
  readonly #delay: number;
  readonly #maxBatch: number;
  #timer: NodeJS.Timeout | undefined;
  /** The write in progress: a read after `flush()` sees every queued call. */
  #writing: Promise<void> = Promise.resolve();

  constructor(store: UsageStore, suggestionIndices: () => Promise<Set<string>>, options: UsageLogOptions = {}) {
    this.#store = store;
    this.#suggestionIndices = suggestionIndices;
    this.#delay = options.flushDelayMs ?? 250;
    this.#maxBatch = options.maxBatch ?? 1000;
  }

  /** Queues one call (no I/O). */
  record(call: QueuedCall): void {
    this.#queue.push(call);
    if (this.#queue.length >= this.#maxBatch) void this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.#delay);
      this.#timer.unref();
    }
  }

  /** Writes the queued calls in one transaction (a failure is logged: Usage never fails a call). */
  flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const calls = this.#queue.splice(0);
    this.#writing = this.#writing.then(async () => {
      if (calls.length === 0) return;
      try {
        const qsIndices = await this.#suggestionIndices();
        const rows: UsageRow[] = [];
        for (const call of calls) {
          const base = { ts: call.ts, op: call.op, ms: call.ms, status: call.status };
          const multi = call.body !== undefined ? indicesOf(call.body) : undefined;
          if (multi && multi.length > 0) {
            multi.forEach(([name, count], i) => {
              rows.push({ ...base, idx: name, app: i === 0 ? 1 : 0, n: count, qs: qsIndices.has(name) ? 1 : 0 });
            });
          } else {
            const idx = call.indexName ?? null;
            const n = multi ? 0 : 1;
            rows.push({ ...base, idx, app: 1, n, qs: idx !== null && qsIndices.has(idx) ? 1 : 0 });
          }
        }
        await this.#store.append(rows);
      } catch (error) {
        console.error('[svc-search] usage: calls could not be written', error);
      }
    });
    return this.#writing;
  }

  /** Rows with `start <= ts < end` (of one index when given), oldest first; flushes first. */
  async rows(start: number, end: number, indexName?: string): Promise<UsageRow[]> {
    await this.flush();
    return this.#store.rows(start, end, indexName);
  }

  close(): Promise<void> {
    return this.flush();
  }
}
