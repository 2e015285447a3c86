/** The Usage call log in PostgreSQL (`usage_calls`). */
import type { Pool } from 'pg';
import type { UsageRow, UsageStore } from '../types.js';

export class PgUsage implements UsageStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async append(rows: readonly UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <K extends keyof UsageRow>(key: K) => rows.map((row) => row[key]);
    // One statement for the batch: a column per array.
    await this.#pool.query(
      `INSERT INTO usage_calls (ts, idx, op, app, n, ms, status, qs)
       SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::int[], $5::int[], $6::float8[], $7::int[], $8::int[])`,
      [
        column('ts'),
        column('idx'),
        column('op'),
        column('app'),
        column('n'),
        column('ms'),
        column('status'),
        column('qs'),
      ],
    );
  }

  async rows(start: number, end: number, indexName?: string): Promise<UsageRow[]> {
    const columns = 'ts, idx, op, app, n, ms, status, qs';
    if (indexName === undefined) {
      const { rows } = await this.#pool.query<UsageRow>(
        `SELECT ${columns} FROM usage_calls WHERE ts >= $1 AND ts < $2 ORDER BY ts`,
        [start, end],
      );
      return rows;
    }
    const { rows } = await this.#pool.query<UsageRow>(
      `SELECT ${columns} FROM usage_calls WHERE idx = $1 AND ts >= $2 AND ts < $3 ORDER BY ts`,
      [indexName, start, end],
    );
    return rows;
  }
}
