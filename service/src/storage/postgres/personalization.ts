/** Personalization in PostgreSQL: the strategy and each deleted profile's `deletedUntil`. */
import type { Pool, PoolClient } from 'pg';
import type { PersonalizationChange, PersonalizationStore, PersonalizationStrategy } from '../types.js';

export class PgPersonalization implements PersonalizationStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async strategy(): Promise<PersonalizationStrategy | undefined> {
    const { rows } = await this.#pool.query<{ body: string }>('SELECT body FROM personalization_strategy WHERE id = 1');
    return rows[0] ? (JSON.parse(rows[0].body) as PersonalizationStrategy) : undefined;
  }

  async deletions(): Promise<Map<string, number>> {
    const { rows } = await this.#pool.query<{ user_token: string; deleted_until: number }>(
      'SELECT user_token, deleted_until FROM personalization_deletions',
    );
    return new Map(rows.map((row) => [row.user_token, row.deleted_until]));
  }

  async apply(client: PoolClient, change: PersonalizationChange): Promise<void> {
    if (change.type === 'strategy') {
      await client.query(
        `INSERT INTO personalization_strategy (id, body, updated_at) VALUES (1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
        [JSON.stringify(change.strategy), change.at],
      );
    } else {
      await client.query(
        `INSERT INTO personalization_deletions (user_token, deleted_until) VALUES ($1, $2)
         ON CONFLICT (user_token) DO UPDATE SET deleted_until = excluded.deleted_until`,
        [change.userToken, change.until],
      );
    }
  }
}
