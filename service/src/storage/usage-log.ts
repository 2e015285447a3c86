/**
 * The durable call log behind the Usage and Monitoring APIs (document 3): one row per operation the
 * service answered (per index for multi-index calls), in the table `usage_calls` of the service database.
 *
 * Writes stay off the request path, as for the Analytics log: `record` only queues the call; the queue
 * is written in one transaction 250 ms after its first call, at once from 1,000 calls, before every
 * Usage or Monitoring read (`flush`) and when the service closes. A `kill -9` can lose the calls of the
 * last 250 ms. Multi-index bodies (multi-query, multi-get, multi-index batch) are parsed at write time,
 * never while the request is answered.
 */
import type Database from 'better-sqlite3';

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

/** One stored row. */
export interface UsageRow {
  ts: number;
  idx: string | null;
  op: string;
  /** 1 on the row that counts the call for the whole application (one row per call has it). */
  app: number;
  /** Requests the row stands for (queries of a multi-query on that index; 1 otherwise). */
  n: number;
  ms: number;
  status: number;
  /** 1 when the index is the target index of a Query Suggestions configuration. */
  qs: number;
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

export class UsageLog {
  readonly #db: Database.Database;
  readonly #queue: QueuedCall[] = [];
  readonly #delay: number;
  readonly #maxBatch: number;
  #timer: NodeJS.Timeout | undefined;
  readonly #insert: Database.Statement;
  readonly #insertMany: (rows: UsageRow[]) => void;

  constructor(db: Database.Database, options: UsageLogOptions = {}) {
    this.#db = db;
    this.#delay = options.flushDelayMs ?? 250;
    this.#maxBatch = options.maxBatch ?? 1000;
    db.exec(`
      CREATE TABLE IF NOT EXISTS usage_calls (
        ts INTEGER NOT NULL,
        idx TEXT,
        op TEXT NOT NULL,
        app INTEGER NOT NULL,
        n INTEGER NOT NULL,
        ms REAL NOT NULL,
        status INTEGER NOT NULL,
        qs INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS usage_calls_ts ON usage_calls (ts);
      CREATE INDEX IF NOT EXISTS usage_calls_idx_ts ON usage_calls (idx, ts);`);
    this.#insert = db.prepare(
      'INSERT INTO usage_calls (ts, idx, op, app, n, ms, status, qs) VALUES (@ts, @idx, @op, @app, @n, @ms, @status, @qs)',
    );
    this.#insertMany = db.transaction((rows: UsageRow[]) => {
      for (const row of rows) this.#insert.run(row);
    });
  }

  /** Queues one call (no I/O). */
  record(call: QueuedCall): void {
    this.#queue.push(call);
    if (this.#queue.length >= this.#maxBatch) this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => this.flush(), this.#delay);
      this.#timer.unref();
    }
  }

  /** Writes the queued calls in one transaction. */
  flush(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#queue.length === 0 || !this.#db.open) return;
    const calls = this.#queue.splice(0);
    const qsIndices = this.#suggestionIndices();
    const rows: UsageRow[] = [];
    for (const call of calls) {
      const base = { ts: call.ts, op: call.op, ms: call.ms, status: call.status };
      const multi = call.body !== undefined ? indicesOf(call.body) : undefined;
      if (multi && multi.length > 0) {
        multi.forEach(([name, count], i) =>
          rows.push({ ...base, idx: name, app: i === 0 ? 1 : 0, n: count, qs: qsIndices.has(name) ? 1 : 0 }),
        );
      } else {
        const idx = call.indexName ?? null;
        const n = multi ? 0 : 1;
        rows.push({ ...base, idx, app: 1, n, qs: idx !== null && qsIndices.has(idx) ? 1 : 0 });
      }
    }
    try {
      this.#insertMany(rows);
    } catch (error) {
      console.error('[svc-search] usage: calls could not be written', error);
    }
  }

  #suggestionIndices(): Set<string> {
    try {
      const rows = this.#db.prepare('SELECT index_name FROM query_suggestions_configs').all() as Array<{
        index_name: string;
      }>;
      return new Set(rows.map((row) => row.index_name));
    } catch {
      return new Set(); // the Query Suggestions table does not exist yet
    }
  }

  /** Rows with `start <= ts < end` (of one index when given), oldest first; flushes first. */
  rows(start: number, end: number, indexName?: string): UsageRow[] {
    this.flush();
    if (indexName === undefined) {
      return this.#db
        .prepare('SELECT * FROM usage_calls WHERE ts >= ? AND ts < ? ORDER BY ts')
        .all(start, end) as UsageRow[];
    }
    return this.#db
      .prepare('SELECT * FROM usage_calls WHERE idx = ? AND ts >= ? AND ts < ? ORDER BY ts')
      .all(indexName, start, end) as UsageRow[];
  }

  close(): void {
    this.flush();
  }
}
