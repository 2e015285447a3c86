/** A/B tests in PostgreSQL (`abtests_tests`); their metrics come from the Analytics searches. */
import type { Pool, PoolClient } from 'pg';
import type { AbTestChange, AbTestStatus, AbTestStore, StoredAbTest } from '../types.js';

interface Row {
  id: number;
  name: string;
  status: AbTestStatus;
  created_at: number;
  end_at: number;
  stopped_at: number | null;
  variants: string;
}

function testOf(row: Row): StoredAbTest {
  const test: StoredAbTest = {
    abTestID: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at,
    endAt: row.end_at,
    variants: JSON.parse(row.variants) as StoredAbTest['variants'],
  };
  if (row.stopped_at !== null) test.stoppedAt = row.stopped_at;
  return test;
}

export class PgAbTests implements AbTestStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async all(): Promise<StoredAbTest[]> {
    const { rows } = await this.#pool.query<Row>(
      'SELECT id, name, status, created_at, end_at, stopped_at, variants FROM abtests_tests ORDER BY id',
    );
    return rows.map(testOf);
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
