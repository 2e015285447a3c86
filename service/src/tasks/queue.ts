/**
 * The one path of every state write: the task queue. A write runs its `build` function when its turn comes
 * (one write at a time, in arrival order); `build` reads and changes the in-memory state and records what
 * storage must keep as {@link Change}s on its {@link Write}; the queue then commits the changes with the
 * write's task rows in one transaction (`TaskStore.commit`). So a task is published exactly when its write is
 * durable, and a storage backend with replicas can put an ordered task log under `commit` (each replica
 * applying the same changes in log order).
 *
 * If the commit fails, the write's `onFailure` hooks run (the catalog rebuilds the indices the write touched
 * from storage) and the error reaches the caller; memory never stays ahead of storage.
 */
import type { Change, TaskHeader, TaskStore } from '../storage/types.js';

/** What one write records while it runs. */
export class Write {
  readonly changes: Change[] = [];
  readonly #beforeCommit: Array<() => void> = [];
  readonly #afterCommit: Array<(results: readonly unknown[]) => void> = [];
  readonly #onFailure: Array<() => Promise<void> | void> = [];

  /** Records a change; returns its position (its result is `results[position]` after the commit). */
  change(change: Change): number {
    this.changes.push(change);
    return this.changes.length - 1;
  }

  /** Runs once `build` is done, before the commit (the catalog records each touched index's row once, here). */
  beforeCommit(hook: () => void): void {
    this.#beforeCommit.push(hook);
  }

  /** Runs once the changes are durable (memory that must not run ahead of storage is changed here). */
  afterCommit(hook: (results: readonly unknown[]) => void): void {
    this.#afterCommit.push(hook);
  }

  /** Runs when `build` or the commit failed, to put memory back as storage has it. */
  onFailure(hook: () => Promise<void> | void): void {
    this.#onFailure.push(hook);
  }

  /** @internal the queue's */
  runBeforeCommit(): void {
    for (const hook of this.#beforeCommit.splice(0)) hook();
  }

  /** @internal the queue's */
  runAfterCommit(results: readonly unknown[]): void {
    for (const hook of this.#afterCommit) hook(results);
  }

  /** @internal the queue's */
  async runOnFailure(): Promise<void> {
    for (const hook of this.#onFailure) await hook();
  }
}

export interface Committed<T> {
  /** The task of the first header (most writes have one). */
  taskID: number;
  /** One task per header, in order. */
  taskIDs: number[];
  /** What `build` returned. */
  result: T;
  /** One result per change (an A/B test insert's id). */
  results: readonly unknown[];
}

/**
 * @example
 * const { taskID } = await services.tasks.run({ indexName: 'products', kind: 'addObject' }, (write) =>
 *   services.catalog.saveObjects(write, 'products', [record]),
 * );
 */
export class TaskQueue {
  readonly #store: TaskStore;
  readonly #now: () => number;
  /** The end of the last write queued: the next one starts after it. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(store: TaskStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Runs one write in its turn; resolves once it is committed (its tasks published). */
  run<T>(tasks: TaskHeader | readonly TaskHeader[], build: (write: Write) => T): Promise<Committed<T>> {
    const headers = Array.isArray(tasks) ? (tasks as readonly TaskHeader[]) : [tasks as TaskHeader];
    const turn = this.#tail.then(() => this.#runNow(headers, build));
    // The next write waits for this one, whether it succeeds or not.
    this.#tail = turn.catch(() => undefined);
    return turn;
  }

  async #runNow<T>(headers: readonly TaskHeader[], build: (write: Write) => T): Promise<Committed<T>> {
    const write = new Write();
    try {
      const result = build(write);
      write.runBeforeCommit();
      const { taskIDs, results } = await this.#store.commit(headers, write.changes, this.#now());
      write.runAfterCommit(results);
      return { taskID: taskIDs[0] ?? 0, taskIDs, result, results };
    } catch (error) {
      await write.runOnFailure();
      throw error;
    }
  }
}
