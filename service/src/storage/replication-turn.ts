/**
 * What a process following the ordered task log does the same way on both backends (PostgreSQL replicas,
 * `postgres/replication.ts`; SQLite workers, `sqlite/replication.ts`): its catch-ups and its own writes take
 * turns, one at a time, so its memory never applies another process's entry in the middle of its own write;
 * a write catches up (or rebuilds) before it takes the cluster's write turn; and a follower that finds the
 * entries it needs pruned (`LogGap`) rebuilds its memory from the tables, not ready meanwhile, then carries
 * on. What differs — the write turn itself (an advisory transaction lock, `BEGIN IMMEDIATE`), how the log is
 * read and where the position is recorded — is the backend's ({@link ReplicationBackend}).
 */
import { gapWarning, LogGap, type LogFollower, type MemoryRebuild, Mutex } from './log.js';

/** The backend's part of following the log. */
export interface ReplicationBackend {
  /** Who follows, in messages: "worker w1", "replica a". */
  readonly who: string;
  /** The area a failed wake-up is logged under: "workers", "replication". */
  readonly area: string;
  /** Registers again at the log's head, not ready (before the memory is rebuilt from the tables). */
  registerAtHead(): void | Promise<void>;
  /** Applies every entry after the last one applied; throws a {@link LogGap} when they were pruned. */
  catchUp(): Promise<void>;
  /** Counted for publishing again (after a rebuild). */
  becomeReady(): void | Promise<void>;
}

/**
 * @example
 * const turns = new ReplicationTurn(backend);
 * turns.follow(async (changes) => applyToMemory(changes), rebuildMemory);
 * await turns.exclusive(() => writeUnderTheLock());
 */
export class ReplicationTurn {
  readonly #backend: ReplicationBackend;
  readonly #mutex = new Mutex();
  #follower: LogFollower | undefined;
  #rebuild: MemoryRebuild | undefined;
  #closed = false;
  #catchUpQueued = false;
  /** Entries it needed were pruned: the memory must be rebuilt from the tables before it applies more. */
  #mustRebuild = false;
  /** The memory was rebuilt after a gap: ready again once caught up. */
  #rebuilt = false;

  constructor(backend: ReplicationBackend) {
    this.#backend = backend;
  }

  /** What applies the log's changes to memory (undefined before `follow`). */
  get follower(): LogFollower | undefined {
    return this.#follower;
  }

  /** Whether the follower is closing (no more catch-ups). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sets what applies the log's changes to memory (before the first write), and what rebuilds the memory from
   * the tables when the entries needed next were pruned (without it, such a gap is an error).
   */
  follow(follower: LogFollower, rebuild?: MemoryRebuild): void {
    this.#follower = follower;
    this.#rebuild = rebuild;
  }

  /** Applies every entry after the last one applied (one catch-up at a time, never during a write). */
  catchUp(): Promise<void> {
    return this.#mutex.run(() => this.#catchUpOrRebuild());
  }

  /** Wakes a catch-up (several wake-ups while one runs make one more). */
  wake(): void {
    // Not before `follow`: the memory is still being built from the tables, and an entry read now would count
    // as applied without reaching it.
    if (this.#catchUpQueued || this.#closed || !this.#follower) return;
    this.#catchUpQueued = true;
    this.#mutex
      .run(async () => {
        this.#catchUpQueued = false;
        if (!this.#closed) await this.#catchUpOrRebuild();
      })
      .catch((error: unknown) => console.error(`[svc-search] ${this.#backend.area}: catching up failed`, error));
  }

  /**
   * Runs one write of this process in its turn: caught up (or rebuilt) first, then `inTurn` (the backend takes
   * the cluster's write turn, applies what was committed in between and runs the write). A gap found in the
   * turn is found before the write was built (nothing of it exists yet): rebuild, then take the turn again.
   */
  exclusive<T>(inTurn: () => Promise<T>): Promise<T> {
    return this.#mutex.run(async () => {
      for (;;) {
        // Caught up (or rebuilt) before the write turn is taken: applying the log can be long (an index rebuilt
        // after another process changed its settings: seconds at a million records; the whole memory after a
        // gap), and every other process's writes wait for the turn. In the turn, only what was committed in
        // between is applied.
        await this.#catchUpOrRebuild();
        try {
          return await inTurn();
        } catch (error) {
          if (!(error instanceof LogGap) || !this.#rebuild || this.#closed) throw error;
          this.#gapFound(error);
        }
      }
    });
  }

  /** Runs `fn` after the catch-up or write under way (in the same one-at-a-time order). */
  afterTurns<T>(fn: () => Promise<T>): Promise<T> {
    return this.#mutex.run(fn);
  }

  /** No more catch-ups (the process is leaving). */
  close(): void {
    this.#closed = true;
  }

  /**
   * Catches up with the log; when the entries it needs were pruned, rebuilds the memory from the tables (not
   * ready meanwhile: registered again at the head) and catches up from there. A rebuild that fails is tried
   * again at the next catch-up or write; the follower stays not ready until one ends.
   */
  async #catchUpOrRebuild(): Promise<void> {
    for (;;) {
      if (this.#mustRebuild) {
        await this.#backend.registerAtHead();
        await this.#rebuild!();
        this.#mustRebuild = false;
        this.#rebuilt = true;
      }
      try {
        await this.#backend.catchUp();
        break;
      } catch (error) {
        if (!(error instanceof LogGap) || !this.#rebuild || this.#closed) throw error;
        this.#gapFound(error);
      }
    }
    if (this.#rebuilt && !this.#closed) {
      this.#rebuilt = false;
      await this.#backend.becomeReady();
      console.warn(`[svc-search] replication: ${this.#backend.who} rebuilt from the tables, ready again`);
    }
  }

  #gapFound(gap: LogGap): void {
    console.warn(gapWarning(this.#backend.who, gap));
    this.#mustRebuild = true;
  }
}
