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
 */
import { randomUUID } from 'node:crypto';
import pg, { type Pool, type PoolClient } from 'pg';
import type { Change } from '../types.js';

/** Applies one log entry's changes to a replica's memory (wired by the services, which own the memory). */
export type LogFollower = (changes: readonly Change[]) => Promise<void>;

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
/** Entries read per query when catching up. */
const BATCH = 500;

/** Runs functions one at a time, in call order. */
class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.#tail.then(fn);
    this.#tail = turn.catch(() => undefined);
    return turn;
  }
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
  readonly #mutex = new Mutex();
  #applied = 0;
  #follower: LogFollower | undefined;
  #listener: pg.Client | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** Heartbeats under way (`close` waits for them: one landing after it would say this replica is alive). */
  readonly #beats = new Set<Promise<void>>();
  #lastPrune = 0;
  #closed = false;
  #catchUpQueued = false;

  constructor(pool: Pool, connectionString: string, options: ReplicationOptions = {}) {
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.#options = options;
    this.id = options.id ?? `replica-${randomUUID().slice(0, 8)}`;
    this.staleMs = options.staleMs ?? 3000;
  }

  /** The last log entry this replica applied. */
  get applied(): number {
    return this.#applied;
  }

  /** Registers the replica (not ready) at the log's head: the log is kept from there while it builds. */
  async register(): Promise<void> {
    const { rows } = await this.#pool.query<{ head: number }>('SELECT COALESCE(MAX(seq), 0) AS head FROM service_log');
    this.#applied = rows[0]!.head;
    await this.#pool.query(
      `INSERT INTO service_replicas (id, url, ready, applied_seq, started_at, heartbeat_at)
       VALUES ($1, $2, FALSE, $3, now(), now())
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, ready = FALSE, applied_seq = excluded.applied_seq,
         started_at = now(), heartbeat_at = now()`,
      [this.id, this.#options.url ?? null, this.#applied],
    );
    this.#startHeartbeat();
  }

  /** Sets what applies the log's changes to memory (before the first write). */
  follow(follower: LogFollower): void {
    this.#follower = follower;
  }

  /** Catches up with the log, becomes ready (counted for publishing) and listens for new entries. */
  async join(): Promise<void> {
    await this.catchUp();
    await this.#pool.query('UPDATE service_replicas SET ready = TRUE, heartbeat_at = now() WHERE id = $1', [this.id]);
    await this.#listen();
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
    return this.#mutex.run(() => this.#catchUpWith(this.#pool));
  }

  /**
   * Runs one write of this replica in the cluster's write turn: a transaction holding the write lock, the
   * memory caught up with the log first. `write` receives the transaction; it must COMMIT it (the task store
   * does, with the log entry); whatever it leaves open is rolled back.
   */
  exclusive<T>(write: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.#mutex.run(async () => {
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
    });
  }

  /** The write of this replica committed as entry `seq` (its memory has it already). */
  committed(seq: number): void {
    this.#applied = Math.max(this.#applied, seq);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => undefined);
    // A heartbeat, a catch-up or a write under way writes a fresh heartbeat: let them land first, or the
    // replica would look alive for `staleMs` after leaving (and a replica starting then would think it is
    // not alone: crawls interrupted by this stop would not be ended).
    await Promise.allSettled([...this.#beats]);
    await this.#mutex.run(async () => undefined);
    // Leaving: no longer counted for publishing.
    await this.#pool
      .query('UPDATE service_replicas SET ready = FALSE, heartbeat_at = to_timestamp(0) WHERE id = $1', [this.id])
      .catch(() => undefined);
  }

  async #catchUpWith(queryable: Pool | PoolClient): Promise<void> {
    const before = this.#applied;
    for (;;) {
      const { rows } = await queryable.query<{ seq: number; changes: string }>(
        'SELECT seq, changes FROM service_log WHERE seq > $1 ORDER BY seq LIMIT $2',
        [this.#applied, BATCH],
      );
      for (const row of rows) {
        if (this.#follower) await this.#follower(JSON.parse(row.changes) as Change[]);
        this.#applied = row.seq;
      }
      if (rows.length < BATCH) break;
    }
    // Said at once (not at the next heartbeat), so the writer's task is published as soon as it can be.
    if (this.#applied !== before) {
      await queryable.query('UPDATE service_replicas SET applied_seq = $2, heartbeat_at = now() WHERE id = $1', [
        this.id,
        this.#applied,
      ]);
    }
  }

  /** Wakes a catch-up (several notifications while one runs make one more). */
  #wake(): void {
    if (this.#catchUpQueued || this.#closed) return;
    this.#catchUpQueued = true;
    void this.#mutex
      .run(async () => {
        this.#catchUpQueued = false;
        if (!this.#closed) await this.#catchUpWith(this.#pool);
      })
      .catch((error: unknown) => console.error('[svc-search] replication: catching up failed', error));
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const listener = new pg.Client({ connectionString: this.#connectionString });
    listener.on('notification', () => this.#wake());
    listener.on('error', () => undefined);
    listener.on('end', () => {
      if (this.#listener !== listener || this.#closed) return;
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
    this.#wake();
  }

  #startHeartbeat(): void {
    const every = this.#options.heartbeatMs ?? 500;
    this.#heartbeat = setInterval(() => {
      const beat = this.#beat().catch(() => undefined);
      this.#beats.add(beat);
      void beat.then(() => this.#beats.delete(beat));
    }, every);
    this.#heartbeat.unref();
  }

  async #beat(): Promise<void> {
    if (this.#closed) return;
    await this.#pool.query(
      'UPDATE service_replicas SET heartbeat_at = now(), applied_seq = GREATEST(applied_seq, $2) WHERE id = $1',
      [this.id, this.#applied],
    );
    // A missed notification costs at most one heartbeat of lag.
    this.#wake();
    const now = Date.now();
    if (now - this.#lastPrune > 30_000) {
      this.#lastPrune = now;
      await this.#prune(now);
    }
  }

  /** Drops log entries every replica seen in the last hour has applied, once older than `keepLogMs`. */
  async #prune(now: number): Promise<void> {
    await this.#pool.query(
      `DELETE FROM service_log WHERE created_at < $1 AND seq <= (
         SELECT MIN(applied_seq) FROM service_replicas WHERE heartbeat_at > now() - interval '1 hour')`,
      [now - (this.#options.keepLogMs ?? 600_000)],
    );
  }
}
