/**
 * Personalization in SQLite: the strategy (one per application, `personalization_strategy`) and each deleted
 * profile's `deletedUntil` (`personalization_deletions`). Profiles themselves are derived from the stored
 * events, the strategy and these deletions.
 */
import type Database from 'better-sqlite3';
import type { PersonalizationChange, PersonalizationStore, PersonalizationStrategy } from '../types.js';

export class SqlitePersonalization implements PersonalizationStore {
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#stmt = {
      strategy: db.prepare('SELECT body FROM personalization_strategy WHERE id = 1'),
      setStrategy: db.prepare(
        `INSERT INTO personalization_strategy (id, body, updated_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
      ),
      deletions: db.prepare('SELECT user_token, deleted_until FROM personalization_deletions'),
      setDeletion: db.prepare(
        `INSERT INTO personalization_deletions (user_token, deleted_until) VALUES (?, ?)
         ON CONFLICT (user_token) DO UPDATE SET deleted_until = excluded.deleted_until`,
      ),
    };
  }

  async strategy(): Promise<PersonalizationStrategy | undefined> {
    const row = this.#stmt.strategy.get() as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as PersonalizationStrategy) : undefined;
  }

  async deletions(): Promise<Map<string, number>> {
    const rows = this.#stmt.deletions.all() as Array<{ user_token: string; deleted_until: number }>;
    return new Map(rows.map((row) => [row.user_token, row.deleted_until]));
  }

  apply(change: PersonalizationChange): void {
    if (change.type === 'strategy') this.#stmt.setStrategy.run(JSON.stringify(change.strategy), change.at);
    else this.#stmt.setDeletion.run(change.userToken, change.until);
  }
}
