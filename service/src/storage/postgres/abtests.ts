/** A/B tests in PostgreSQL (`abtests_tests`); their metrics come from the Analytics searches. */
import type { Pool, PoolClient } from 'pg';
import { type AbTestRow, abTestOf } from '../rows.js';
import type { AbTestChange, AbTestStore, StoredAbTest } from '../types.js';

export class PgAbTests implements AbTestStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async all(): Promise<StoredAbTest[]> {
    const { rows } = await this.#pool.query<AbTestRow>(
      'SELECT id, name, status, created_at, end_at, stopped_at, variants FROM abtests_tests ORDER BY id',
    );
    return rows.map(abTestOf);
  }

  async apply(client: PoolClient, change: AbTestChange): Promise<unknown> {
    switch (change.type) {
      case 'insert': {
        const { test } = change;
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO abtests_tests (name, status, created_at, end_at, stopped_at, variants)
           VALUES ($1, $2, $3, $4, NULL, $5) RETURNING id`,
          [test.name, test.status, test.createdAt, test.endAt, JSON.stringify(test.variants)],
        );
        return rows[0]!.id;
      }
      case 'status':
        await client.query('UPDATE abtests_tests SET status = $1, stopped_at = $2 WHERE id = $3', [
          change.status,
          change.stoppedAt ?? null,
          change.abTestID,
        ]);
        return undefined;
      case 'remove':
        await client.query('DELETE FROM abtests_tests WHERE id = $1', [change.abTestID]);
        await client.query(
          'UPDATE analytics_searches SET ab_test_id = NULL, ab_test_variant = NULL WHERE ab_test_id = $1',
          [change.abTestID],
        );
        return undefined;
    }
  }
}
