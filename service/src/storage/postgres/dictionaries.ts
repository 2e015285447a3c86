/**
 * Custom dictionary entries in PostgreSQL (`service_dictionary_entries`, in the order written) and the
 * languages whose standard stop words are disabled (`service_dictionary_disabled`).
 */
import type { Pool, PoolClient } from 'pg';
import type { DictionaryName, EntryOf } from '../../engine/index.js';
import type { DictionaryChange, DictionaryStore } from '../types.js';

export class PgDictionaries implements DictionaryStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async entries<N extends DictionaryName>(dictionary: N): Promise<Array<EntryOf[N]>> {
    const { rows } = await this.#pool.query<{ body: string }>(
      'SELECT body FROM service_dictionary_entries WHERE dictionary = $1 ORDER BY seq',
      [dictionary],
    );
    return rows.map((row) => JSON.parse(row.body) as EntryOf[N]);
  }

  async disabledStopwords(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ language: string }>(
      "SELECT language FROM service_dictionary_disabled WHERE dictionary = 'stopwords' ORDER BY language",
    );
    return rows.map((row) => row.language);
  }

  async apply(client: PoolClient, change: DictionaryChange): Promise<void> {
    if (change.type === 'stopwords') {
      if (change.change === null) {
        await client.query("DELETE FROM service_dictionary_disabled WHERE dictionary = 'stopwords'");
        return;
      }
      for (const [language, off] of Object.entries(change.change)) {
        if (off) {
          await client.query(
            `INSERT INTO service_dictionary_disabled (dictionary, language) VALUES ('stopwords', $1)
             ON CONFLICT DO NOTHING`,
            [language],
          );
        } else {
          await client.query(
            "DELETE FROM service_dictionary_disabled WHERE dictionary = 'stopwords' AND language = $1",
            [language],
          );
        }
      }
      return;
    }
    if (change.clear)
      await client.query('DELETE FROM service_dictionary_entries WHERE dictionary = $1', [change.dictionary]);
    const removed = [...change.delete, ...change.put.map((entry) => entry.objectID)];
    if (removed.length > 0) {
      await client.query('DELETE FROM service_dictionary_entries WHERE dictionary = $1 AND object_id = ANY($2)', [
        change.dictionary,
        removed,
      ]);
    }
    // Deleted then inserted: a replaced entry takes a new seq and moves to the end, as in memory.
    for (const entry of change.put) {
      await client.query('DELETE FROM service_dictionary_entries WHERE dictionary = $1 AND object_id = $2', [
        change.dictionary,
        entry.objectID,
      ]);
      await client.query('INSERT INTO service_dictionary_entries (dictionary, object_id, body) VALUES ($1, $2, $3)', [
        change.dictionary,
        entry.objectID,
        JSON.stringify(entry),
      ]);
    }
  }
}
