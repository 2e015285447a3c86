/**
 * What the two replication backends share (`postgres/replication.ts`, `sqlite/replication.ts`): the text a
 * write's changes take in the ordered task log, and the one-at-a-time runner that keeps a process's own write
 * and its catch-up with the log from interleaving.
 */
import type { Change } from './types.js';

/** Applies one log entry's changes to a replica's memory (wired by the services, which own the memory). */
export type LogFollower = (changes: readonly Change[]) => Promise<void>;

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
