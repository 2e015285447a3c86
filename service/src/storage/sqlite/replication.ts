/**
 * Workers on one SQLite file: several service processes on one machine (`serve --workers N`), each with its own
 * memory (the engine's indices), sharing the database file (WAL) as PostgreSQL replicas share a database
 * (`postgres/replication.ts`, same design, same tables' meaning).
 *
 * A write catches its memory up with the log, takes SQLite's write lock (`BEGIN IMMEDIATE`: one writer at a
 * time across processes; the others wait for it on a timer, answering searches meanwhile, up to 20 s before
 * the write is refused with a 503 — `beginWhenUnlocked`), applies inside that transaction what was
 * committed in between, is built, and commits its changes, its log entry (`service_log`) and its task rows
 * together. The log's sequence is thus the commit order, and every worker applies the entries in it.
 *
 * Each worker follows the log by sequence number: it is woken when another worker committed (the cluster's
 * primary relays a message, `cluster/workers.ts`) and at every heartbeat (500 ms), and applies every entry
 * after the last one it applied, so a lost message costs one heartbeat of lag and nothing else. It records
 * its applied position and heartbeat in `service_replicas`; a task is published once every live, ready
 * worker has applied its entry (`SqliteTasks.status`).
 *
 * Entries are pruned once every worker seen in the last hour applied them (`pruneLog`), and the same
 * transaction raises the pruned watermark (`service_log_pruned`). A worker stalled for longer (its heartbeat
 * over an hour old) may resume to find entries it never applied gone: catching up, it sees that the watermark
 * is past its position (`LogGap`, `checkNoGap` in `../log.ts`) and recovers as a new worker starts — not ready
 * again, registered at the head, its memory rebuilt from the tables (the `rebuild` given to `follow`), the log
 * replayed from there, ready.
 */
import type Database from 'better-sqlite3';
import type { StorageReplication } from '../storage.js';
import type { Change } from '../types.js';
import { checkNoGap, type LogFollower, type MemoryRebuild } from '../log.js';
import { ReplicationTurn } from '../replication-turn.js';
import { beginWhenUnlocked, commitWhenUnlocked, isBusy, WRITE_LOCK_WAIT_MS, withoutBusyWait } from './open.js';

export interface SqliteReplicationOptions {
  /** The worker's name in `service_replicas`; a replacement worker reuses the name of the one it replaces. */
  id: string;
  /** Told after each write this worker committed (the primary relays it to the others: their wake-up). */
  onCommitted?: (seq: number) => void;
  /** How often the worker says it is alive (default 500 ms). */
  heartbeatMs?: number;
  /** After how long without a heartbeat a worker no longer counts (default 3,000 ms). */
  staleMs?: number;
  /** How long applied log entries are kept (default 10 minutes). */
  keepLogMs?: number;
  /**
   * How long a write waits for SQLite's write lock while another process holds it, on a timer (this worker
   * answering meanwhile), before it is refused with a 503 (default {@link WRITE_LOCK_WAIT_MS}, 20 s).
   */
  writeLockWaitMs?: number;
}

/** Entries read per query when catching up. */
const BATCH = 500;

/**
 * Drops the log entries that every worker seen in the last hour (before `now`) has applied and that are
 * older than `before` (Unix ms), and raises the pruned watermark to the highest entry dropped, in one
 * transaction: a worker left out (stalled for over an hour) tells from the watermark that it missed entries.
 * Returns how many entries were dropped.
 *
 * @example
 * pruneLog(db, Date.now() - 600_000); // entries older than 10 minutes, applied by every live worker
 */
export function pruneLog(db: Database.Database, before: number, now = Date.now()): number {
  const prunable = `FROM service_log WHERE created_at < ? AND seq <= (
    SELECT MIN(applied_seq) FROM service_replicas WHERE heartbeat_at > ?)`;
  const mark = db.prepare(
    `INSERT INTO service_log_pruned (id, seq) SELECT 1, MAX(seq) ${prunable} HAVING COUNT(*) > 0
     ON CONFLICT (id) DO UPDATE SET seq = MAX(service_log_pruned.seq, excluded.seq)`,
  );
  const drop = db.prepare(`DELETE ${prunable}`);
  const oldest = now - 3_600_000;
  return db
    .transaction(() => {
      mark.run(before, oldest);
      return drop.run(before, oldest).changes;
    })
    .immediate();
}

/**
 * @example
 * const replication = new SqliteReplication(db, { id: 'w1' });
 * replication.register(); // recorded in `join`
 * replication.follow(async (changes) => applyToMemory(changes));
 * await replication.join();
 */
export class SqliteReplication implements StorageReplication {
  readonly id: string;
  readonly staleMs: number;
  readonly #db: Database.Database;
  readonly #options: SqliteReplicationOptions;
  /** Catch-ups and this worker's writes in turn, and the rebuild after a gap (shared with the replicas). */
  readonly #turns: ReplicationTurn;
  readonly #stmt;
  #applied = 0;
  #heartbeat: NodeJS.Timeout | undefined;
  #lastPrune = 0;
  /** Counted for publishing: from `join` on, except while it rebuilds after finding the log pruned past it. */
  #ready = false;
  /** The registration's row written (`register`). */
  #registered: Promise<void> = Promise.resolve();

  constructor(db: Database.Database, options: SqliteReplicationOptions) {
    this.#db = db;
    this.#options = options;
    this.id = options.id;
    this.staleMs = options.staleMs ?? 3000;
    this.#turns = new ReplicationTurn({
      who: `worker ${this.id}`,
      area: 'workers',
      registerAtHead: () => this.#registerAtHead(),
      catchUp: () => this.#catchUpNow(),
      becomeReady: () => this.#becomeReady(),
    });
    this.#stmt = {
      // The head is past the pruned watermark even when every entry was pruned (an empty log).
      head: db.prepare(
        `SELECT MAX((SELECT COALESCE(MAX(seq), 0) FROM service_log),
                    (SELECT COALESCE(MAX(seq), 0) FROM service_log_pruned)) AS head`,
      ),
      pruned: db.prepare('SELECT seq FROM service_log_pruned WHERE id = 1'),
      register: db.prepare(
        `INSERT INTO service_replicas (id, ready, applied_seq, started_at, heartbeat_at) VALUES (?, 0, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET ready = 0, applied_seq = excluded.applied_seq,
           started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`,
      ),
      ready: db.prepare('UPDATE service_replicas SET ready = 1, heartbeat_at = ? WHERE id = ?'),
      entries: db.prepare('SELECT seq, changes FROM service_log WHERE seq > ? ORDER BY seq LIMIT ?'),
      applied: db.prepare('UPDATE service_replicas SET applied_seq = ?, heartbeat_at = ? WHERE id = ?'),
      beat: db.prepare('UPDATE service_replicas SET heartbeat_at = ?, applied_seq = MAX(applied_seq, ?) WHERE id = ?'),
      others: db.prepare('SELECT 1 FROM service_replicas WHERE id <> ? AND heartbeat_at > ? LIMIT 1'),
      live: db.prepare('SELECT 1 FROM service_replicas WHERE id = ? AND heartbeat_at > ?'),
      leave: db.prepare('UPDATE service_replicas SET ready = 0, heartbeat_at = 0 WHERE id = ?'),
      job: db.prepare('SELECT holder FROM service_jobs WHERE name = ?'),
      takeJob: db.prepare('INSERT OR REPLACE INTO service_jobs (name, holder, since) VALUES (?, ?, ?)'),
      releaseJob: db.prepare('DELETE FROM service_jobs WHERE name = ? AND holder = ?'),
    };
  }

  /** The last log entry this worker applied. */
  get applied(): number {
    return this.#applied;
  }

  /** Whether the worker counts for publishing (false while it starts, or rebuilds its memory). */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Registers the worker (not ready) at the log's head: the log is kept from there while it builds. The head
   * is read now (before the memory is built from the tables); its row is written once the write lock is free,
   * on a timer (not SQLite's busy wait: a starting worker must not fail on another process's long hold), and
   * `join` waits for it.
   */
  register(): void {
    this.#registered = this.#registerAtHead();
    // Seen by `join`; not an unhandled rejection meanwhile.
    this.#registered.catch(() => undefined);
    this.#heartbeat = setInterval(() => this.#beat(), this.#options.heartbeatMs ?? 500);
    this.#heartbeat.unref();
  }

  async #registerAtHead(): Promise<void> {
    const head = (this.#stmt.head.get() as { head: number }).head;
    this.#applied = head;
    this.#ready = false;
    const now = Date.now();
    await commitWhenUnlocked(this.#db, () => this.#stmt.register.run(this.id, head, now, now));
  }

  /**
   * Sets what applies the log's changes to memory (before the first write), and what rebuilds the memory from
   * the tables when the entries this worker needs next were pruned (without it, such a gap is an error).
   */
  follow(follower: LogFollower, rebuild?: MemoryRebuild): void {
    this.#turns.follow(follower, rebuild);
  }

  /** Catches up with the log and becomes ready (counted for publishing). */
  async join(): Promise<void> {
    await this.#registered;
    await this.catchUp();
    await this.#becomeReady();
    // An entry committed between the catch-up and `ready` woke nobody here: look once more.
    this.wake();
  }

  async #becomeReady(): Promise<void> {
    // Without SQLite's busy wait, as the registration (this worker may already answer searches: a rebuild).
    await commitWhenUnlocked(this.#db, () => this.#stmt.ready.run(Date.now(), this.id));
    this.#ready = true;
  }

  async othersLive(): Promise<boolean> {
    return this.#stmt.others.get(this.id, Date.now() - this.staleMs) !== undefined;
  }

  /** Applies every entry after the last one applied (one catch-up at a time, never during a write). */
  catchUp(): Promise<void> {
    return this.#turns.catchUp();
  }

  wake(): void {
    this.#turns.wake();
  }

  /**
   * Runs one write of this worker in its turn: SQLite's write lock held (`BEGIN IMMEDIATE`), memory caught
   * up with the log first (most of it before the lock is taken: every other worker's writes, log batches and
   * heartbeats wait for the lock). `write` must COMMIT (the task store does, with the log entry); whatever it
   * leaves open is rolled back.
   */
  exclusive<T>(write: () => Promise<T>): Promise<T> {
    return this.#turns.exclusive(() => this.#underLock(write));
  }

  async #underLock<T>(write: () => Promise<T>): Promise<T> {
    // Not in SQLite's busy wait, which blocked this worker's event loop — every search it would answer — for
    // up to the busy timeout while another process held the lock: a timer between tries, the turn (this
    // worker's mutex) held meanwhile, so its writes stay one at a time and in order. Nothing another process
    // needs to end its own hold waits for this mutex (the primary's wake-ups are queued, not awaited), and this
    // process's log batches and heartbeats take the lock without the mutex (and are refused inside the turn's
    // transaction, not while it waits for it): the wait cannot deadlock.
    await beginWhenUnlocked(this.#db, this.#options.writeLockWaitMs ?? WRITE_LOCK_WAIT_MS);
    try {
      await this.#catchUpNow();
      return await write();
    } finally {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    }
  }

  /** The write of this worker committed as entry `seq` (its memory has it already). */
  committed(seq: number): void {
    this.#applied = Math.max(this.#applied, seq);
    this.#options.onCommitted?.(seq);
  }

  /**
   * Runs a job that must run in one worker at a time: false, without running it, while another live worker
   * holds it (a lease in `service_jobs`; a holder whose heartbeat stopped no longer holds it). The lease is
   * taken and given back without SQLite's busy wait (on a timer, this worker answering meanwhile): a lease
   * still not taken after a minute of another process's hold is not taken this time (false, a warning).
   */
  async runOnce(name: string, job: () => Promise<void>): Promise<boolean> {
    const take = this.#db.transaction(() => {
      const row = this.#stmt.job.get(name) as { holder: string } | undefined;
      const held = row && row.holder !== this.id && this.#stmt.live.get(row.holder, Date.now() - this.staleMs);
      if (held) return false;
      this.#stmt.takeJob.run(name, this.id, Date.now());
      return true;
    });
    let taken: boolean;
    try {
      taken = await commitWhenUnlocked(this.#db, () => take.immediate());
    } catch (error) {
      if (!isBusy(error)) throw error;
      console.warn(`[svc-search] workers: ${this.id} skipped ${name} (the write lock stayed held)`);
      return false;
    }
    if (!taken) return false;
    try {
      await job();
      return true;
    } finally {
      if (this.#db.open) await this.#release(name);
    }
  }

  /** Gives the lease back (a lease left held is this worker's: it takes it again, the others once it stops). */
  async #release(name: string): Promise<void> {
    try {
      await commitWhenUnlocked(this.#db, () => this.#stmt.releaseJob.run(name, this.id));
    } catch (error) {
      // Closed meanwhile (the process is leaving): the lease ends with its heartbeat.
      if (!this.#db.open) return;
      if (!isBusy(error)) throw error;
      console.warn(`[svc-search] workers: ${this.id} could not give ${name} back (the write lock stayed held)`);
    }
  }

  async close(): Promise<void> {
    this.#turns.close();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    // Leaving: no longer counted for publishing.
    if (this.#db.open) this.#stmt.leave.run(this.id);
  }

  async #catchUpNow(): Promise<void> {
    const before = this.#applied;
    for (;;) {
      const from = this.#applied;
      const rows = this.#stmt.entries.all(from, BATCH) as Array<{ seq: number; changes: string }>;
      await checkNoGap(from, rows[0]?.seq, () => (this.#stmt.pruned.get() as { seq: number } | undefined)?.seq ?? 0);
      for (const row of rows) {
        const follower = this.#turns.follower;
        if (follower) await follower(JSON.parse(row.changes) as Change[]);
        this.#applied = row.seq;
      }
      if (rows.length < BATCH) break;
    }
    // Said at once (not at the next heartbeat), so the writer's task is published as soon as it can be. In the
    // write turn, with its transaction; outside, without SQLite's busy wait (a catch-up must not block this
    // worker's searches while another process holds the write lock): then the next heartbeat that gets it says it.
    if (this.#applied === before) return;
    if (this.#db.inTransaction) {
      this.#stmt.applied.run(this.#applied, Date.now(), this.id);
      return;
    }
    try {
      withoutBusyWait(this.#db, () => this.#stmt.applied.run(this.#applied, Date.now(), this.id));
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
  }

  #beat(): void {
    if (this.#turns.closed || !this.#db.open) return;
    try {
      // Without SQLite's busy wait: while another worker holds the write lock, this beat is skipped (the
      // next one tries again) rather than blocking this worker's event loop up to the busy timeout.
      withoutBusyWait(this.#db, () => {
        const now = Date.now();
        this.#stmt.beat.run(now, this.#applied, this.id);
        if (now - this.#lastPrune > 30_000) {
          this.#lastPrune = now;
          pruneLog(this.#db, now - (this.#options.keepLogMs ?? 600_000), now);
        }
      });
    } catch (error) {
      if (!isBusy(error)) console.error('[svc-search] workers: heartbeat failed', error);
    }
    // A missed wake-up costs at most one heartbeat of lag.
    this.wake();
  }
}
