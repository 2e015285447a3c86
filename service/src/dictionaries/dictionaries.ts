/**
 * The language dictionaries of the service (document 1, Dictionaries): the custom stop words, plurals and
 * compounds, and the languages whose standard stop words are disabled. The engine reads them from the shared
 * {@link EngineDictionaries} object (every index at once), which this module keeps in step with storage: a
 * change is written through the task queue, then applied in memory once durable.
 */
import {
  DICTIONARY_NAMES,
  type DictionaryName,
  Dictionaries as EngineDictionaries,
  type EntryOf,
} from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { DictionaryStore } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';

/**
 * Custom entries one dictionary may hold (all languages together). The document says a quota exists
 * (403 above it) without giving its size; this is the local service's choice.
 */
export const DEFAULT_MAX_CUSTOM_ENTRIES = 100_000;

export type DictionaryOperation<N extends DictionaryName> =
  | { action: 'addEntry'; entry: EntryOf[N] }
  | { action: 'deleteEntry'; objectID: string };

/**
 * @example
 * const dictionaries = await Dictionaries.load(storage.dictionaries, tasks);
 * const index = new Index('products', { dictionaries: dictionaries.engine });
 */
export class Dictionaries {
  /** What the engine reads. */
  readonly engine = new EngineDictionaries();
  readonly #tasks: TaskQueue;
  readonly #maxCustomEntries: number;

  private constructor(tasks: TaskQueue, maxCustomEntries: number) {
    this.#tasks = tasks;
    this.#maxCustomEntries = maxCustomEntries;
  }

  /** Reads every dictionary from storage (service start; before the indices are built). */
  static async load(
    store: DictionaryStore,
    tasks: TaskQueue,
    maxCustomEntries = DEFAULT_MAX_CUSTOM_ENTRIES,
  ): Promise<Dictionaries> {
    const dictionaries = new Dictionaries(tasks, maxCustomEntries);
    for (const name of DICTIONARY_NAMES) dictionaries.engine.replace(name, await store.entries(name));
    dictionaries.engine.setDisabledStandardStopwords(await store.disabledStopwords());
    return dictionaries;
  }

  /**
   * Applies a validated batch: `clearExisting` removes every custom entry first, then the operations in order
   * (addEntry replaces an entry with the same objectID, which moves to the end; deleteEntry of a missing entry
   * does nothing). The whole batch is refused with 403 when the dictionary would exceed the quota.
   * Resolves with the batch's task.
   */
  async batch<N extends DictionaryName>(
    name: N,
    operations: Array<DictionaryOperation<N>>,
    clearExisting: boolean,
  ): Promise<number> {
    const { taskID } = await this.#tasks.run({ indexName: '*', kind: `dictionaries:${name}` }, (write) => {
      const next = new Map<string, EntryOf[N]>(clearExisting ? [] : this.engine.entries(name));
      const put = new Map<string, EntryOf[N]>();
      const deleted = new Set<string>();
      for (const operation of operations) {
        if (operation.action === 'addEntry') {
          const { objectID } = operation.entry;
          next.delete(objectID); // a replaced entry goes to the end, as its row is rewritten
          next.set(objectID, operation.entry);
          put.delete(objectID);
          put.set(objectID, operation.entry);
          deleted.delete(objectID);
        } else {
          next.delete(operation.objectID);
          put.delete(operation.objectID);
          deleted.add(operation.objectID);
        }
      }
      if (next.size > this.#maxCustomEntries) {
        throw new ServiceError(
          403,
          `Custom dictionary entries quota exceeded: the ${name} dictionary would hold ${next.size} custom entries, the limit is ${this.#maxCustomEntries}`,
        );
      }
      write.change({
        area: 'dictionaries',
        type: 'batch',
        dictionary: name,
        clear: clearExisting,
        put: [...put.values()],
        delete: [...deleted],
      });
      write.afterCommit(() => this.engine.replace(name, next.values()));
    });
    return taskID;
  }

  /**
   * `disableStandardEntries.stopwords`: `true` disables a language's standard stop words, `false` re-enables
   * them, other languages keep their state; `null` re-enables every language; `undefined` changes nothing
   * (the write still has its task). Resolves with the task.
   */
  async setDisabledStopwords(change: Record<string, boolean> | null | undefined): Promise<number> {
    const { taskID } = await this.#tasks.run({ indexName: '*', kind: 'dictionaries:settings' }, (write) => {
      if (change === undefined) return;
      const disabled = new Set(change === null ? [] : this.engine.disabledStandardStopwords());
      for (const [language, off] of Object.entries(change ?? {})) {
        if (off) disabled.add(language);
        else disabled.delete(language);
      }
      write.change({ area: 'dictionaries', type: 'stopwords', change });
      write.afterCommit(() => this.engine.setDisabledStandardStopwords(disabled));
    });
    return taskID;
  }
}
