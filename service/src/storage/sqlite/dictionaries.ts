/**
 * Custom dictionary entries in SQLite (`service_dictionary_entries`, one row per entry, the entry as JSON,
 * in the order written) and the languages whose standard stop words are disabled
 * (`service_dictionary_disabled`).
 */
import type Database from 'better-sqlite3';
import type { DictionaryName, EntryOf } from '../../engine/index.js';
import type { DictionaryChange, DictionaryStore } from '../types.js';

export class SqliteDictionaries implements DictionaryStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#stmt = {
      entries: db.prepare('SELECT body FROM service_dictionary_entries WHERE dictionary = ? ORDER BY seq'),
      insert: db.prepare('INSERT INTO service_dictionary_entries (dictionary, object_id, body) VALUES (?, ?, ?)'),
      delete: db.prepare('DELETE FROM service_dictionary_entries WHERE dictionary = ? AND object_id = ?'),
      clear: db.prepare('DELETE FROM service_dictionary_entries WHERE dictionary = ?'),
      disabled: db.prepare(
        "SELECT language FROM service_dictionary_disabled WHERE dictionary = 'stopwords' ORDER BY language",
      ),
      disable: db.prepare(
        "INSERT OR IGNORE INTO service_dictionary_disabled (dictionary, language) VALUES ('stopwords', ?)",
      ),
      enable: db.prepare("DELETE FROM service_dictionary_disabled WHERE dictionary = 'stopwords' AND language = ?"),
      enableAll: db.prepare("DELETE FROM service_dictionary_disabled WHERE dictionary = 'stopwords'"),
    };
  }

  async entries<N extends DictionaryName>(dictionary: N): Promise<Array<EntryOf[N]>> {
    return (this.#stmt.entries.all(dictionary) as Array<{ body: string }>).map(
      (row) => JSON.parse(row.body) as EntryOf[N],
    );
  }

  async disabledStopwords(): Promise<string[]> {
    return (this.#stmt.disabled.all() as Array<{ language: string }>).map((row) => row.language);
  }

  apply(change: DictionaryChange): void {
    if (change.type === 'stopwords') {
      if (change.change === null) this.#stmt.enableAll.run();
      else {
        for (const [language, off] of Object.entries(change.change)) {
          if (off) this.#stmt.disable.run(language);
          else this.#stmt.enable.run(language);
        }
      }
      return;
    }
    if (change.clear) this.#stmt.clear.run(change.dictionary);
    for (const objectID of change.delete) this.#stmt.delete.run(change.dictionary, objectID);
    for (const entry of change.put) {
      // delete + insert: the row takes a new seq, so a replaced entry moves to the end, as in memory
      this.#stmt.delete.run(change.dictionary, entry.objectID);
      this.#stmt.insert.run(change.dictionary, entry.objectID, JSON.stringify(entry));
    }
  }
}
