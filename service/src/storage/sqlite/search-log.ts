/**
 * The durable log of searches answered with `clickAnalytics`: Insights events carry the `queryID` of
 * the search that showed the hits, and the service checks it (and the positions) against this log.
 *
 * A row is written on the search's path without SQLite's busy wait: with workers sharing the file, another
 * process may hold the write lock (a long write turn, a big batch), and the busy wait would block this
 * worker's event loop, every search of it, up to the busy timeout. A row that meets the lock held waits in a
 * bounded list of pending rows, written on a timer once the lock is free; lookups see pending rows as stored
 * ones, and a worker that misses a queryID rechecks until the lock has been free for a moment (another
 * worker's pending row may be on its way). Past the list's bound, the search is refused with a 503 (busy,
 * retry) rather than answered with a `queryID` whose row could not be kept: nothing lost, memory bounded, and
 * no busy wait.
 */
import type Database from 'better-sqlite3';
import { ServiceError } from '../../errors.js';

import { type SearchLogRow, searchLogEntryOf } from '../rows.js';
import type { SearchLogEntry, SearchLogStore } from '../types.js';
import { commitWhenUnlocked, isBusy, unsyncedCommit, withoutBusyWait } from './open.js';

/** How many rows may wait for the write lock, and their estimated bytes; past either, the search is a 503. */
export const PENDING_ROWS_MAX = 10_000;
export const PENDING_BYTES_MAX = 16 * 1024 * 1024;
/** The pending rows' next try after the lock was held, and after another error (logged). */
const RETRY_MS = 20;
const RETRY_AFTER_ERROR_MS = 1000;
/**
 * A worker's lookup that misses rechecks the table until the write lock has been free this long (another
 * worker's timer writes its pending rows within its 20 ms turn once the lock is free), for at most
 * {@link RECHECK_MAX_MS}.
 */
const RECHECK_FREE_MS = 100;
const RECHECK_MAX_MS = 60_000;
/** The queryIDs this service gives (32 hexadecimal characters): only those can be pending elsewhere. */
const OWN_QUERY_ID = /^[0-9a-f]{32}$/;

export interface SqliteSearchLogOptions {
  /** Whether other processes share the file (workers): a missed lookup then rechecks (see the module). */
  shared?: boolean;
}

interface PendingRow {
  entry: SearchLogEntry;
  objectIDs: string;
  bytes: number;
}

/**
 * @example
 * const log = new SqliteSearchLog(db);
 * await log.record({ queryID, indexName: 'products', query: 'chair', page: 0, hitsPerPage: 20, objectIDs, createdAt: Date.now() });
 * await log.close(); // writes the rows still pending
 */
export class SqliteSearchLog implements SearchLogStore {
  readonly #db: Database.Database;
  readonly #shared: boolean;
  readonly #stmt;
  readonly #pending = new Map<string, PendingRow>();
  #pendingBytes = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Database.Database, options: SqliteSearchLogOptions = {}) {
    this.#db = db;
    this.#shared = options.shared ?? false;
    this.#stmt = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO service_search_log (query_id, index_name, query, page, hits_per_page, object_ids, user_token, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      select: db.prepare('SELECT * FROM service_search_log WHERE query_id = ?'),
      forget: db.prepare('UPDATE service_search_log SET user_token = NULL WHERE user_token = ?'),
      countOfUser: db.prepare('SELECT COUNT(*) AS n FROM service_search_log WHERE user_token = ?'),
      probe: db.prepare('SELECT 1'),
    };
  }

  /** How many rows wait for the write lock (a maintenance read). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  async record(entry: SearchLogEntry): Promise<void> {
    const objectIDs = JSON.stringify(entry.objectIDs);
    const row: PendingRow = { entry, objectIDs, bytes: objectIDs.length + entry.query.length + 200 };
    const writeOne = this.#db.transaction(() => this.#insert(row));
    // One row per search answered with `clickAnalytics`, on the search's path: without an fsync of its own
    // (`unsyncedCommit`: kept across kill -9), as an fsync per search blocked the event loop for every
    // search the elements send with Insights on. Writes and their tasks keep their fsync.
    if (this.#pending.size === 0 && !this.#closed) {
      try {
        withoutBusyWait(this.#db, () => unsyncedCommit(this.#db, () => writeOne.immediate()));
        return;
      } catch (error) {
        if (!isBusy(error)) throw error;
      }
    }
    if (this.#closed) {
      // Closing (a search still being answered): written now, waiting for the lock on the timer as close()
      // writes the pending rows — never in SQLite's busy wait, never into a write turn's open transaction.
      await commitWhenUnlocked(this.#db, () => unsyncedCommit(this.#db, () => writeOne.immediate()));
      return;
    }
    if (this.#pending.size >= PENDING_ROWS_MAX || this.#pendingBytes + row.bytes > PENDING_BYTES_MAX) {
      // Past the bound: the search is refused, its row not kept — a client never holds a queryID whose row
      // is lost, memory stays bounded, and the worker does not block in SQLite's busy wait (it did: up to 5 s,
      // every search of it waiting, then a 500). A 503 with Retry-After, as a write refused for the lock.
      throw new ServiceError(
        503,
        `Service busy: another process holds the database's write lock and ${this.#pending.size} searches' log ` +
          'rows wait for it; this search was not answered, retry in a moment',
        { headers: { 'Retry-After': '1' } },
      );
    }
    this.#pending.set(entry.queryID, row);
    this.#pendingBytes += row.bytes;
    this.#schedule(RETRY_MS);
  }

  async get(queryID: string): Promise<SearchLogEntry | undefined> {
    const found = this.#lookup(queryID);
    if (found || !this.#shared || !OWN_QUERY_ID.test(queryID)) return found;
    return this.#recheck(queryID);
  }

  async forgetUser(userToken: string): Promise<void> {
    for (const { entry } of this.#pending.values()) {
      if (entry.userToken === userToken) delete entry.userToken;
    }
    // A privacy request: it waits for the write lock on a timer, as the log's rows do.
    await commitWhenUnlocked(this.#db, () => this.#stmt.forget.run(userToken));
  }

  async countOfUser(userToken: string): Promise<number> {
    let pending = 0;
    for (const { entry } of this.#pending.values()) {
      if (entry.userToken === userToken) pending += 1;
    }
    return (this.#stmt.countOfUser.get(userToken) as { n: number }).n + pending;
  }

  /**
   * Writes the pending rows, waiting for the write lock on a timer (`commitWhenUnlocked`, up to a minute);
   * rows it still cannot write are reported on the error output with their count, never dropped silently.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    if (!this.#db.open) {
      console.error(`[svc-search] search log: ${this.#pending.size} rows not written: the database was closed first`);
      return;
    }
    try {
      await commitWhenUnlocked(this.#db, () => this.#writePending());
    } catch (error) {
      console.error(`[svc-search] search log: ${this.#pending.size} rows could not be written at close`, error);
    }
  }

  #insert({ entry, objectIDs }: PendingRow): void {
    this.#stmt.insert.run(
      entry.queryID,
      entry.indexName,
      entry.query,
      entry.page,
      entry.hitsPerPage,
      objectIDs,
      entry.userToken ?? null,
      entry.createdAt,
    );
  }

  /** Writes every pending row in one IMMEDIATE transaction without an fsync; throws SQLITE_BUSY as is. */
  #writePending(): void {
    const rows = [...this.#pending.values()];
    const writeAll = this.#db.transaction(() => {
      for (const row of rows) this.#insert(row);
    });
    unsyncedCommit(this.#db, () => writeAll.immediate());
    // Synchronous from the copy to here: no row was added in between.
    this.#pending.clear();
    this.#pendingBytes = 0;
  }

  #schedule(delay: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, delay);
  }

  #flush(): void {
    if (this.#pending.size === 0 || !this.#db.open) return;
    try {
      withoutBusyWait(this.#db, () => this.#writePending());
    } catch (error) {
      if (isBusy(error)) {
        this.#schedule(RETRY_MS);
        return;
      }
      // Kept and tried again (a full disk may free up); said each time, so nothing is lost in silence.
      console.error(`[svc-search] search log: ${this.#pending.size} pending rows could not be written`, error);
      this.#schedule(RETRY_AFTER_ERROR_MS);
    }
  }

  #lookup(queryID: string): SearchLogEntry | undefined {
    const pending = this.#pending.get(queryID);
    if (pending) return { ...pending.entry, objectIDs: [...pending.entry.objectIDs] };
    const row = this.#stmt.select.get(queryID) as SearchLogRow | undefined;
    return row ? searchLogEntryOf(row) : undefined;
  }

  /**
   * A queryID of this service not found, with workers: another worker may hold its row pending while the write
   * lock is (or just was) held. Rechecked every 20 ms until the lock has been free for 100 ms (the other
   * worker's timer has had its turns to write it), for at most a minute; the event waits, the worker does not.
   */
  async #recheck(queryID: string): Promise<SearchLogEntry | undefined> {
    const started = Date.now();
    let freeSince: number | undefined;
    for (;;) {
      const now = Date.now();
      if (this.#lockFree()) freeSince ??= now;
      else freeSince = undefined;
      if ((freeSince !== undefined && now - freeSince >= RECHECK_FREE_MS) || now - started >= RECHECK_MAX_MS) {
        return this.#lookup(queryID);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      const found = this.#lookup(queryID);
      if (found) return found;
    }
  }

  /** Whether the file's write lock is free now: an empty IMMEDIATE transaction taken without waiting. */
  #lockFree(): boolean {
    const probe = this.#db.transaction(() => this.#stmt.probe.get());
    try {
      withoutBusyWait(this.#db, () => probe.immediate());
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
  }
}
