/**
 * Replicas on one PostgreSQL database. Every write is one entry of the ordered task log (`service_log`),
 * committed with its changes and task rows in one transaction while the writer holds the cluster's write
 * lock (an advisory transaction lock), after it caught its memory up with the log: so the log's order is the
 * order every replica applies, and the writer's memory never holds a write the others apply in another order.
 *
 * Each replica follows the log: `LISTEN svc_log` wakes it when a write commits (the writer's `pg_notify` is
 * delivered at commit), and it reads every entry after the last one it applied (`seq > applied`), so a lost
 * notification, a dropped connection or a restart loses nothing. It records its applied position and a
 * heartbeat in `service_replicas`; a task is published once every live, ready replica has applied it
 * (`PgTasks.status`). A replica is live while its heartbeat is fresher than `staleMs`.
 *
 * A new replica registers (not ready) at the log's head, builds its memory from the tables, replays the log
 * from the position it registered at (replaying an entry whose effect the tables already showed converges to
 * the same state: records are put or deleted whole, other areas are reloaded), then becomes ready.
 *
 * Entries are pruned once every replica seen in the last hour applied them (`pruneLog`), and the highest
 * entry pruned is kept (`service_log_pruned`). A replica stalled for longer (its heartbeat over an hour old)
 * may resume to find entries it never applied gone: catching up, it sees that the watermark is past its
 * position (`LogGap`) and recovers as a new replica starts — not ready again, registered at the head,
 * its memory rebuilt from the tables (the `rebuild` given to `follow`), the log replayed from there, ready.
 */
import { randomUUID } from 'node:crypto';
import pg, { type Pool, type PoolClient } from 'pg';
import { checkNoGap, type LogFollower, type MemoryRebuild } from '../log.js';
import { ReplicationTurn } from '../replication-turn.js';
import type { Change } from '../types.js';

export interface ReplicationOptions {
  /** The replica's name in `service_replicas` (default: a random one); a restarted replica may reuse its name. */
  id?: string;
  /** The address clients reach it at, for the operator's view of the table. */
  url?: string;
  /** How often the replica says it is alive (default 500 ms). */
  heartbeatMs?: number;
  /** After how long without a heartbeat a replica no longer counts (default 3,000 ms). */
  staleMs?: number;
  /** How long applied log entries are kept (default 10 minutes). */
  keepLogMs?: number;
}

/** The advisory lock every write holds (within its transaction). */
export const WRITE_LOCK = 7_240_002;
const CHANNEL = 'svc_log';
/**
 * Entries read per query when catching up. (Sequence numbers are `BIGINT`: read through `Number()`, so that
 * a pool without the storage's INT8 parser, a tool's or a test's, still compares them as numbers.)
 */
const BATCH = 500;

/** The highest entry pruned from the log (0 when none was). */
async function prunedThrough(queryable: Pool | PoolClient): Promise<number> {
  const { rows } = await queryable.query<{ seq: number }>('SELECT seq FROM service_log_pruned WHERE id = 1');
  return Number(rows[0]?.seq ?? 0);
}

/**
 * Drops the log entries that every replica seen in the last hour has applied and that are older than
 * `before` (Unix ms), and raises the pruned watermark to the highest entry dropped, in one statement: a
 * replica left out (stalled for over an hour) tells from the watermark that it missed entries.
 *
 * @example
 * await pruneLog(pool, Date.now() - 600_000); // entries older than 10 minutes, applied by every live replica
 */
export async function pruneLog(queryable: Pool | PoolClient, before: number): Promise<number> {
  const { rows } = await queryable.query<{ dropped: number }>(
    `WITH dropped AS (
       DELETE FROM service_log WHERE created_at < $1 AND seq <= (
         SELECT MIN(applied_seq) FROM service_replicas WHERE heartbeat_at > now() - interval '1 hour')
       RETURNING seq
     ), mark AS (
       INSERT INTO service_log_pruned (id, seq) SELECT 1, MAX(seq) FROM dropped HAVING COUNT(*) > 0
       ON CONFLICT (id) DO UPDATE SET seq = GREATEST(service_log_pruned.seq, excluded.seq)
     )
     SELECT COUNT(*) AS dropped FROM dropped`,
    [before],
  );
  return Number(rows[0]!.dropped);
}

/**
 * @example
 * const replication = new PgReplication(pool, connectionString, { id: 'a' });
 * await replication.register();
 * replication.follow(async (changes) => applyToMemory(changes));
 * await replication.join();
 */
export class PgReplication {
  readonly id: string;
  readonly staleMs: number;
  readonly #pool: Pool;
  readonly #connectionString: string;
  readonly #options: ReplicationOptions;
  /** Catch-ups and this replica's writes in turn, and the rebuild after a gap (shared with the workers). */
  readonly #turns: ReplicationTurn;
  #applied = 0;
  /** Counted for publishing: from `join` on, except while it rebuilds after finding the log pruned past it. */
  #ready = false;
  #listener: pg.Client | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** The heartbeat under way, if any: one at a time, and `close` waits for it. */
  #beating: Promise<void> | undefined;
  #lastPrune = 0;

  constructor(pool: Pool, connectionString: string, options: ReplicationOptions = {}) {
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.#options = options;
    this.id = options.id ?? `replica-${randomUUID().slice(0, 8)}`;
    this.staleMs = options.staleMs ?? 3000;
    this.#turns = new ReplicationTurn({
      who: `replica ${this.id}`,
      area: 'replication',
      registerAtHead: () => this.#registerAtHead(),
      catchUp: () => this.#catchUpWith(this.#pool),
      becomeReady: () => this.#becomeReady(),
    });
  }

  /** The last log entry this replica applied. */
  get applied(): number {
    return this.#applied;
  }

  /** Whether the replica counts for publishing (false while it starts, or rebuilds its memory). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Registers the replica (not ready) at the log's head: the log is kept from there while it builds. */
  async register(): Promise<void> {
    await this.#registerAtHead();
    this.#startHeartbeat();
  }

  async #registerAtHead(): Promise<void> {
    // The head is past the pruned watermark even when every entry was pruned (an empty log).
    const { rows } = await this.#pool.query<{ head: number }>(
      `SELECT GREATEST((SELECT COALESCE(MAX(seq), 0) FROM service_log),
                       (SELECT COALESCE(MAX(seq), 0) FROM service_log_pruned)) AS head`,
    );
    this.#applied = Number(rows[0]!.head);
    this.#ready = false;
    await this.#pool.query(
      `INSERT INTO service_replicas (id, url, ready, applied_seq, started_at, heartbeat_at)
       VALUES ($1, $2, FALSE, $3, now(), now())
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, ready = FALSE, applied_seq = excluded.applied_seq,
         started_at = now(), heartbeat_at = now()`,
      [this.id, this.#options.url ?? null, this.#applied],
    );
  }

  /**
   * Sets what applies the log's changes to memory (before the first write), and what rebuilds the memory from
   * the tables when the entries this replica needs next were pruned (without it, such a gap is an error).
   */
  follow(follower: LogFollower, rebuild?: MemoryRebuild): void {
    this.#turns.follow(follower, rebuild);
  }

  /** Catches up with the log, becomes ready (counted for publishing) and listens for new entries. */
  async join(): Promise<void> {
    await this.catchUp();
    await this.#becomeReady();
    await this.#listen();
  }

  async #becomeReady(): Promise<void> {
    await this.#pool.query('UPDATE service_replicas SET ready = TRUE, heartbeat_at = now() WHERE id = $1', [this.id]);
    this.#ready = true;
  }

  /** Whether another replica is live (its heartbeat is fresh). */
  async othersLive(): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `SELECT 1 FROM service_replicas WHERE id <> $1 AND heartbeat_at > now() - make_interval(secs => $2)`,
      [this.id, this.staleMs / 1000],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Applies every entry after the last one applied (one catch-up at a time, never during a write). */
  catchUp(): Promise<void> {
    return this.#turns.catchUp();
  }

  /**
   * Runs one write of this replica in the cluster's write turn: a transaction holding the write lock, the
   * memory caught up with the log first (most of it before the turn is taken). `write` receives the
   * transaction; it must COMMIT it (the task store does, with the log entry); whatever it leaves open is
   * rolled back.
   */
  exclusive<T>(write: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.#turns.exclusive(() => this.#inWriteTurn(write));
  }

  async #inWriteTurn<T>(write: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let open = false;
    try {
      await client.query('BEGIN');
      open = true;
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      await this.#catchUpWith(client);
      const result = await write(client);
      open = false;
      return result;
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  /** The write of this replica committed as entry `seq` (its memory has it already). */
  committed(seq: number): void {
    this.#applied = Math.max(this.#applied, seq);
  }

  async close(): Promise<void> {
    this.#turns.close();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => undefined);
    // Leaving: no longer counted for publishing, nor as live by a service that starts next (it would not end
    // what this one left unfinished). A heartbeat, catch-up or write already under way refreshes
    // `heartbeat_at`: they end first (catch-ups and writes run in turn), or one committing after this update
    // would make the replica look live again for `staleMs`.
    await this.#beating;
    await this.#turns.afterTurns(() =>
      this.#pool
        .query('UPDATE service_replicas SET ready = FALSE, heartbeat_at = to_timestamp(0) WHERE id = $1', [this.id])
        .catch(() => undefined),
    );
  }

  async #catchUpWith(queryable: Pool | PoolClient): Promise<void> {
    const before = this.#applied;
    for (;;) {
      const from = this.#applied;
      const { rows } = await queryable.query<{ seq: number; changes: string }>(
        'SELECT seq, changes FROM service_log WHERE seq > $1 ORDER BY seq LIMIT $2',
        [from, BATCH],
      );
      await checkNoGap(from, rows[0] === undefined ? undefined : Number(rows[0].seq), () => prunedThrough(queryable));
      for (const row of rows) {
        const follower = this.#turns.follower;
        if (follower) await follower(JSON.parse(row.changes) as Change[]);
        this.#applied = Number(row.seq);
      }
      if (rows.length < BATCH) break;
    }
    // Said at once (not at the next heartbeat), so the writer's task is published as soon as it can be; not
    // once closing (a write that was waiting for its turn), which would make a leaving replica look live.
    if (this.#applied !== before && !this.#turns.closed) {
      await queryable.query('UPDATE service_replicas SET applied_seq = $2, heartbeat_at = now() WHERE id = $1', [
        this.id,
        this.#applied,
      ]);
    }
  }

  /** Wakes a catch-up (several notifications while one runs make one more). */
  wake(): void {
    this.#turns.wake();
  }

  async #listen(): Promise<void> {
    if (this.#turns.closed) return;
    const listener = new pg.Client({ connectionString: this.#connectionString });
    listener.on('notification', () => this.wake());
    listener.on('error', () => undefined);
    listener.on('end', () => {
      if (this.#listener !== listener || this.#turns.closed) return;
      // The connection dropped: listen again, then catch up by sequence number (nothing is missed).
      this.#listener = undefined;
      setTimeout(() => void this.#listen().catch(() => undefined), 200).unref();
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
    } catch {
      await listener.end().catch(() => undefined);
      setTimeout(() => void this.#listen().catch(() => undefined), 500).unref();
      return;
    }
    this.#listener = listener;
    this.wake();
  }

  #startHeartbeat(): void {
    const every = this.#options.heartbeatMs ?? 500;
    this.#heartbeat = setInterval(() => {
      // A slow database gets no pile of overlapping heartbeats; the next tick beats again.
      if (this.#beating) return;
      this.#beating = this.#beat()
        .catch(() => undefined)
        .finally(() => {
          this.#beating = undefined;
        });
    }, every);
    this.#heartbeat.unref();
  }

  async #beat(): Promise<void> {
    if (this.#turns.closed) return;
    await this.#pool.query(
      'UPDATE service_replicas SET heartbeat_at = now(), applied_seq = GREATEST(applied_seq, $2) WHERE id = $1',
      [this.id, this.#applied],
    );
    // A missed notification costs at most one heartbeat of lag.
    this.wake();
    const now = Date.now();
    if (now - this.#lastPrune > 30_000) {
      this.#lastPrune = now;
      await pruneLog(this.#pool, now - (this.#options.keepLogMs ?? 600_000));
    }
  }
}
