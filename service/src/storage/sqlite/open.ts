/**
 * Opens the service database: one better-sqlite3 file per data directory, WAL journal and
 * `synchronous = FULL`, so a transaction that has committed survives `kill -9` and power loss; then brings
 * its schema up to date (`migrations.ts`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ServiceError } from '../../errors.js';
import { applyStep, MIGRATIONS, migrate, schemaVersionOf } from './migrations.js';

/**
 * @example
 * const db = openDatabase('.data');      // .data/svc-search.sqlite
 * const mem = openDatabase(':memory:');  // nothing on disk
 */
export function openDatabase(dataDir: string): Database.Database {
  const db = openFile(dataDir);
  migrate(db);
  return db;
}

/** The connection with its pragmas, its schema not yet brought up to date. */
function openFile(dataDir: string): Database.Database {
  let db: Database.Database;
  if (dataDir === ':memory:') {
    db = new Database(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, 'svc-search.sqlite'));
    db.pragma('journal_mode = WAL');
  }
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * {@link openDatabase} for a start that may meet another process holding the file's write lock (a worker of
 * a previous `serve --workers`, a backup, the sqlite3 shell): the same migration steps in the same order, each
 * in its own `BEGIN IMMEDIATE` transaction taken without SQLite's busy wait — a busy try waits on the 20 ms
 * timer ({@link commitWhenUnlocked}) for up to `waitMs` (a minute), this process's event loop free meanwhile,
 * where the busy wait blocked it and failed the start after 5 s. `onWait` is told once, at the first busy try.
 * A database whose schema is up to date takes no lock at all.
 *
 * @example
 * const db = await openDatabaseWhenUnlocked('.data', { onWait: () => console.log('waiting for the lock') });
 */
export async function openDatabaseWhenUnlocked(
  dataDir: string,
  { waitMs = LOCK_WAIT_MS, onWait }: { waitMs?: number; onWait?: () => void } = {},
): Promise<Database.Database> {
  const db = openFile(dataDir);
  try {
    const from = schemaVersionOf(db);
    let told = false;
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      const step = db.transaction(() => applyStep(db, migration));
      await commitWhenUnlocked(
        db,
        () => {
          try {
            return step.immediate();
          } catch (error) {
            if (isBusy(error) && !told) {
              told = true;
              onWait?.();
            }
            throw error;
          }
        },
        waitMs,
      );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Runs `commit` (one commit of log rows: a search's `clickAnalytics` row, a batch of Analytics searches or
 * Usage calls) with `synchronous = NORMAL` for that commit alone, then puts the connection's level back. In
 * WAL mode a committed transaction is in the log file, so it survives the process dying (`kill -9`); the next
 * synced commit (any write's task) or checkpoint takes it to the disk — a power loss can lose these rows
 * since the last write, never a task. The fsync it saves (~2–3 ms) blocked the event loop, and with workers
 * it was held under the file's write lock. Inside an open transaction (SQLite refuses the change there)
 * `commit` runs as it is and goes with that transaction's commit.
 *
 * @example
 * unsyncedCommit(db, () => insert.run(row));
 */
export function unsyncedCommit<T>(db: Database.Database, commit: () => T): T {
  if (db.inTransaction) return commit();
  const level = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    return commit();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}

/** How long a log's batch waits for the write lock, in turns of {@link LOCK_RETRY_MS}, before it fails. */
const LOCK_WAIT_MS = 60_000;
const LOCK_RETRY_MS = 20;

/**
 * This connection is inside a write turn's transaction (with workers, `BEGIN IMMEDIATE` stays open across the
 * turn's awaits: its catch-up, its build, its clean-up after a failed build). A commit of a log's batch made
 * now would be a savepoint of that transaction, rolled back with it if the write fails — after the batch was
 * counted as written. So the batch waits, as for another process's lock ({@link isBusy} says yes).
 */
export class WriteTurnOpen extends Error {
  constructor() {
    super("this connection is inside a write turn's transaction");
  }
}

/**
 * Whether SQLite refused for a lock another connection holds (`SQLITE_BUSY` and its extended codes), or this
 * connection is inside a write turn's transaction ({@link WriteTurnOpen}): either way, try again later.
 */
export function isBusy(error: unknown): boolean {
  if (error instanceof WriteTurnOpen) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `attempt` with SQLite's busy wait off (`busy_timeout = 0` for that call alone): it fails at once with
 * SQLITE_BUSY, rather than blocking the event loop, while another process holds the file's write lock. It
 * fails as busy too, without running `attempt`, while this connection is inside a transaction
 * ({@link WriteTurnOpen}): what `attempt` commits must not go with another write's commit or rollback.
 *
 * @example
 * withoutBusyWait(db, () => heartbeat.run(now, id));
 */
export function withoutBusyWait<T>(db: Database.Database, attempt: () => T): T {
  if (db.inTransaction) throw new WriteTurnOpen();
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return attempt();
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * Commits a batch of a log (Analytics searches, Usage calls: `commit` runs its own `BEGIN IMMEDIATE`
 * transaction) once the file's write lock is free, and outside any write turn's transaction of this connection
 * ({@link withoutBusyWait}). With workers, another process may hold that lock for
 * longer than the busy timeout (5 s: a write of a big batch, a copy of a large index); SQLite's busy wait
 * would block this process's event loop (its searches) all that time and then fail with SQLITE_BUSY. Here
 * each try takes the lock without waiting, and a busy one waits on a timer (20 ms) before the next, for up to
 * a minute (`waitMs`); then the SQLITE_BUSY is thrown (the logs keep the batch and retry).
 *
 * @example
 * await commitWhenUnlocked(db, () => unsyncedCommit(db, () => insert.immediate()));
 */
export async function commitWhenUnlocked<T>(
  db: Database.Database,
  commit: () => T,
  waitMs: number = LOCK_WAIT_MS,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return withoutBusyWait(db, commit);
    } catch (error) {
      if (!isBusy(error) || Date.now() - started >= waitMs) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

/** How long a client's write waits for the file's write lock by default, before it is refused (503). */
export const WRITE_LOCK_WAIT_MS = 20_000;

/**
 * Commits a client's write (`commit` runs its own transaction, or one statement) as {@link commitWhenUnlocked}
 * does — the lock taken without SQLite's busy wait, a timer between tries, this process answering meanwhile —
 * for up to `waitMs`; then the write is refused with a 503 that says so (nothing of it was written: the client
 * may send it again). It was SQLite's busy wait: the process blocked up to the 5 s busy timeout, then a 500.
 *
 * @example
 * await writeWhenUnlocked(db, () => upsert.run(name, json)); // a Query Suggestions configuration
 */
export async function writeWhenUnlocked<T>(
  db: Database.Database,
  commit: () => T,
  waitMs: number = WRITE_LOCK_WAIT_MS,
): Promise<T> {
  try {
    return await commitWhenUnlocked(db, commit, waitMs);
  } catch (error) {
    if (!isBusy(error)) throw error;
    const waited = waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`;
    throw new ServiceError(
      503,
      `Service busy: another process has held the database's write lock for ${waited}; ` +
        'the write was not applied, retry in a moment',
      // As the body budget's 503 (`http/body.ts`): the service busy, a retry welcome.
      { headers: { 'Retry-After': '1' } },
    );
  }
}

/**
 * Opens a write turn's transaction (`BEGIN IMMEDIATE`) once the file's write lock is free
 * ({@link writeWhenUnlocked}: a timer between tries, this process answering meanwhile; a 503 after `waitMs`,
 * before anything of the write was built). Not for a connection already inside a transaction (a write turn is
 * one at a time per process): that is a mistake, thrown at once rather than waited for.
 *
 * @example
 * await beginWhenUnlocked(db, 20_000); // … the write, then COMMIT
 */
export async function beginWhenUnlocked(db: Database.Database, waitMs: number): Promise<void> {
  if (db.inTransaction) throw new Error('beginWhenUnlocked: this connection is already inside a transaction');
  await writeWhenUnlocked(db, () => db.exec('BEGIN IMMEDIATE'), waitMs);
}
