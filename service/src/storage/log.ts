/**
 * What the two replication backends share (`postgres/replication.ts`, `sqlite/replication.ts`): the text a
 * write's changes take in the ordered task log, the one-at-a-time runner that keeps a process's own write
 * and its catch-up with the log from interleaving, and how a follower tells that the entries it needs next
 * were pruned (the pruned watermark past its position).
 */
import type { Change } from './types.js';

/** Applies one log entry's changes to a replica's memory (wired by the services, which own the memory). */
export type LogFollower = (changes: readonly Change[]) => Promise<void>;

/** Rebuilds a follower's memory from the tables (as at its start), after it found the log pruned past it. */
export type MemoryRebuild = () => Promise<void>;

/**
 * The log no longer holds the entries after `applied`: they were pruned (up to `pruned`) while this follower
 * was stalled, so replaying the log cannot bring its memory up to date.
 */
export class LogGap extends Error {
  readonly applied: number;
  readonly pruned: number;

  constructor(applied: number, pruned: number) {
    super(`the task log was pruned up to entry ${pruned}, past entry ${applied} this process applied last`);
    this.applied = applied;
    this.pruned = pruned;
  }
}

/**
 * Throws a {@link LogGap} when entries this follower needs were pruned. `next` is the first entry read after
 * `applied`: when it is `applied + 1`, nothing was pruned past the follower. Otherwise (no entry, or a later
 * one: a rolled-back write may leave a hole in the sequence, so a jump alone proves nothing) the watermark,
 * read after the entries, decides: past `applied`, the entries in between are gone.
 *
 * @example
 * await checkNoGap(applied, rows[0]?.seq, () => prunedThrough(db)); // throws LogGap after a gap
 */
export async function checkNoGap(
  applied: number,
  next: number | undefined,
  prunedThrough: () => number | Promise<number>,
): Promise<void> {
  if (next === applied + 1) return;
  const pruned = await prunedThrough();
  if (pruned > applied) throw new LogGap(applied, pruned);
}

/**
 * The warning a follower logs when it found a gap and starts rebuilding (`who`: "replica a", "worker w2").
 *
 * @example
 * console.warn(gapWarning('worker w2', gap));
 */
export function gapWarning(who: string, gap: LogGap): string {
  return (
    `[svc-search] replication: ${who} stalled past the log's pruning (${gap.message}); ` +
    'rebuilding its memory from the tables, not ready meanwhile'
  );
}

/**
 * The changes as the log keeps them (JSON): a record put reuses the JSON the writer made of each item
 * (`texts`, which the log does not keep twice).
 *
 * @example
 * logText([{ area: 'catalog', type: 'dropIndex', name: 'old' }]) // '[{"area":"catalog","type":"dropIndex","name":"old"}]'
 */
export function logText(changes: readonly Change[]): string {
  const parts = changes.map((change) => {
    if (change.area !== 'catalog' || change.type !== 'putItems' || !change.texts) return JSON.stringify(change);
    const { texts, items: _items, ...rest } = change;
    return `${JSON.stringify(rest).slice(0, -1)},"items":[${texts.join(',')}]}`;
  });
  return `[${parts.join(',')}]`;
}

/**
 * Runs functions one at a time, in call order.
 *
 * @example
 * const mutex = new Mutex();
 * await mutex.run(async () => catchUp());
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.#tail.then(fn);
    this.#tail = turn.catch(() => undefined);
    return turn;
  }
}
