/**
 * Durability of the language dictionaries (document 1, Dictionaries): the custom entries of each
 * dictionary (`service_dictionary_entries`, one row per entry, the entry as JSON) and the languages whose
 * standard stop words are disabled (`service_dictionary_disabled`). The engine reads them from the
 * shared {@link Dictionaries} object, which this store keeps in step with the database: every change is
 * written inside the caller's transaction (`catalog.write`, which also publishes the task), then applied
 * in memory.
 */
import type Database from 'better-sqlite3';
import { Dictionaries, DICTIONARY_NAMES, type DictionaryName, type EntryOf } from '../engine/index.js';
import { HttpError } from '../http/errors.js';

/**
 * Custom entries one dictionary may hold (all languages together). The document says a quota exists
 * (403 above it) without giving its size; this is the local service's choice.
 */
export const DEFAULT_MAX_CUSTOM_ENTRIES = 100_000;

export type DictionaryOperation<N extends DictionaryName> =
  | { action: 'addEntry'; entry: EntryOf[N] }
  | { action: 'deleteEntry'; objectID: string };

export class DictionaryStore {
  readonly dictionaries: Dictionaries;
  readonly maxCustomEntries: number;
  readonly #stmt;

  /**
   * @example
   * const store = new DictionaryStore(db);
   * store.load();
   * const index = new Index('products', { dictionaries: store.dictionaries });
   */
  constructor(db: Database.Database, dictionaries = new Dictionaries(), maxCustomEntries = DEFAULT_MAX_CUSTOM_ENTRIES) {
    this.dictionaries = dictionaries;
    this.maxCustomEntries = maxCustomEntries;
    this.#stmt = {
      entries: db.prepare('SELECT body FROM service_dictionary_entries WHERE dictionary = ? ORDER BY seq'),
      upsert: db.prepare(
        `INSERT INTO service_dictionary_entries (dictionary, object_id, body) VALUES (?, ?, ?)
         ON CONFLICT (dictionary, object_id) DO UPDATE SET body = excluded.body`,
      ),
      delete: db.prepare('DELETE FROM service_dictionary_entries WHERE dictionary = ? AND object_id = ?'),
      clear: db.prepare('DELETE FROM service_dictionary_entries WHERE dictionary = ?'),
      disabled: db.prepare('SELECT language FROM service_dictionary_disabled WHERE dictionary = ? ORDER BY language'),
      disable: db.prepare('INSERT OR IGNORE INTO service_dictionary_disabled (dictionary, language) VALUES (?, ?)'),
      enable: db.prepare('DELETE FROM service_dictionary_disabled WHERE dictionary = ? AND language = ?'),
      enableAll: db.prepare('DELETE FROM service_dictionary_disabled WHERE dictionary = ?'),
    };
  }

  /** Reads every dictionary from the database (service start; before the indices are built). */
  load(): void {
    for (const name of DICTIONARY_NAMES) {
      const rows = this.#stmt.entries.all(name) as Array<{ body: string }>;
      this.dictionaries.replace(
        name,
        rows.map((row) => JSON.parse(row.body) as EntryOf[typeof name]),
      );
    }
    const disabled = this.#stmt.disabled.all('stopwords') as Array<{ language: string }>;
    this.dictionaries.setDisabledStandardStopwords(disabled.map((row) => row.language));
  }

  /**
   * Applies a validated batch: `clearExisting` removes every custom entry first, then the operations in
   * order (addEntry replaces an entry with the same objectID; deleteEntry of a missing entry does
   * nothing). The whole batch is refused with 403 when the dictionary would exceed the quota.
   * Call it inside a transaction.
   */
  batch<N extends DictionaryName>(name: N, operations: Array<DictionaryOperation<N>>, clearExisting: boolean): void {
    const next = new Map<string, EntryOf[N]>(clearExisting ? [] : this.dictionaries.entries(name));
    for (const operation of operations) {
      if (operation.action === 'addEntry') {
        next.delete(operation.entry.objectID); // a replaced entry goes to the end, as its row is rewritten
        next.set(operation.entry.objectID, operation.entry);
      } else next.delete(operation.objectID);
    }
    if (next.size > this.maxCustomEntries) {
      throw new HttpError(
        403,
        `Custom dictionary entries quota exceeded: the ${name} dictionary would hold ${next.size} custom entries, the limit is ${this.maxCustomEntries}`,
      );
    }
    if (clearExisting) this.#stmt.clear.run(name);
    for (const operation of operations) {
      if (operation.action === 'addEntry') {
        // delete + insert: the row takes a new seq, so the stored order matches the memory order above
        this.#stmt.delete.run(name, operation.entry.objectID);
        this.#stmt.upsert.run(name, operation.entry.objectID, JSON.stringify(operation.entry));
      } else this.#stmt.delete.run(name, operation.objectID);
    }
    this.dictionaries.replace(name, next.values());
  }

  /**
   * `disableStandardEntries.stopwords`: `true` disables a language's standard stop words, `false`
   * re-enables them, other languages keep their state; `null` re-enables every language. Call it inside
   * a transaction.
   */
  setDisabledStopwords(change: Record<string, boolean> | null): void {
    const disabled = new Set(change === null ? [] : this.dictionaries.disabledStandardStopwords());
    if (change === null) this.#stmt.enableAll.run('stopwords');
    else {
      for (const [language, off] of Object.entries(change)) {
        if (off) {
          this.#stmt.disable.run('stopwords', language);
          disabled.add(language);
        } else {
          this.#stmt.enable.run('stopwords', language);
          disabled.delete(language);
        }
      }
    }
    this.dictionaries.setDisabledStandardStopwords(disabled);
  }
}
