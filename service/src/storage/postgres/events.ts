/**
 * Insights events in PostgreSQL (`insights_events`) and the demo's order history (`recommend_demo_seed`): the
 * same tables and rules as SQLite's (`../sqlite/events.ts`).
 */
import type { Pool, PoolClient } from 'pg';
import { type EventTableRow as Row, eventOf } from '../rows.js';
import type { EventFilter, EventRow, EventStore, NewEvent } from '../types.js';

function where(filter: EventFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, operator: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    clauses.push(`${column} ${operator} $${params.length}`);
  };
  add('index_name', '=', filter.index);
  add('event_type', '=', filter.eventType);
  add('event_name', '=', filter.eventName);
  add('user_token', '=', filter.userToken);
  add('query_id', '=', filter.queryID);
  add('timestamp', '>=', filter.since);
  add('timestamp', '<', filter.until);
  return { sql: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The seeded demo events of an index: conversions received at the seed time (which no HTTP event has). */
const SEEDED = `FROM insights_events WHERE index_name = $1 AND event_type = 'conversion' AND event_name = $2 AND query_id IS NULL
  AND received_at = (SELECT seeded_at FROM recommend_demo_seed WHERE index_name = $1)`;

async function insert(client: PoolClient, events: readonly NewEvent[]): Promise<Array<number | undefined>> {
  const ids: Array<number | undefined> = [];
  for (const event of events) {
    // A re-sent event (same fingerprint) is stored once.
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO insights_events
         (event_type, event_name, index_name, user_token, timestamp, received_at, query_id, object_ids, filters,
          positions, search_index, search_query, search_at, search_positions, fingerprint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (fingerprint) DO NOTHING RETURNING id`,
      [
        event.eventType,
        event.eventName,
        event.index,
        event.userToken,
        event.timestamp,
        event.receivedAt,
        event.queryID ?? null,
        event.objectIDs ? JSON.stringify(event.objectIDs) : null,
        event.filters ? JSON.stringify(event.filters) : null,
        event.positions ? JSON.stringify(event.positions) : null,
        event.search?.indexName ?? null,
        event.search?.query ?? null,
        event.search?.at ?? null,
        event.search ? JSON.stringify(event.search.positions) : null,
        event.fingerprint,
      ],
    );
    ids.push(rows[0]?.id);
  }
  return ids;
}

export class PgEvents implements EventStore {
  readonly #pool: Pool;
  readonly #transaction: <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>;

  constructor(pool: Pool, transaction: <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>) {
    this.#pool = pool;
    this.#transaction = transaction;
  }

  append(events: readonly NewEvent[]): Promise<Array<number | undefined>> {
    return this.#transaction((client) => insert(client, events));
  }

  async query(filter: EventFilter): Promise<EventRow[]> {
    const { sql, params } = where(filter);
    const limit = filter.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
    const { rows } = await this.#pool.query<Row>(
      `SELECT * FROM insights_events${sql} ORDER BY timestamp, id${limit}`,
      params,
    );
    return rows.map(eventOf);
  }

  async count(filter: Omit<EventFilter, 'limit'>): Promise<number> {
    const { sql, params } = where(filter);
    const { rows } = await this.#pool.query<{ n: number }>(`SELECT COUNT(*) AS n FROM insights_events${sql}`, params);
    return rows[0]!.n;
  }

  async deleteUser(userToken: string): Promise<number> {
    const { rowCount } = await this.#pool.query('DELETE FROM insights_events WHERE user_token = $1', [userToken]);
    return rowCount ?? 0;
  }

  async latestOf(userToken: string, after: number): Promise<{ count: number; latest: number | undefined }> {
    const { rows } = await this.#pool.query<{ n: number; latest: number | null }>(
      'SELECT COUNT(*) AS n, MAX(timestamp) AS latest FROM insights_events WHERE user_token = $1 AND timestamp > $2',
      [userToken, after],
    );
    return { count: rows[0]!.n, latest: rows[0]!.latest ?? undefined };
  }

  async demoSeed(indexName: string): Promise<{ seededAt: number } | undefined> {
    const { rows } = await this.#pool.query<{ seeded_at: number }>(
      'SELECT seeded_at FROM recommend_demo_seed WHERE index_name = $1',
      [indexName],
    );
    return rows[0] && { seededAt: rows[0].seeded_at };
  }

  seedDemo(indexName: string, events: readonly NewEvent[], at: number): Promise<number> {
    return this.#transaction(async (client) => {
      // Replicas starting together: the first to mark the seed stores the events; the others store nothing.
      const marked = await client.query(
        'INSERT INTO recommend_demo_seed (index_name, seeded_at, events) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING',
        [indexName, at],
      );
      if (marked.rowCount === 0) return 0;
      const stored = (await insert(client, events)).filter((id) => id !== undefined).length;
      await client.query('UPDATE recommend_demo_seed SET events = $2 WHERE index_name = $1', [indexName, stored]);
      return stored;
    });
  }

  async demoEvents(indexName: string, eventName: string): Promise<EventRow[]> {
    const { rows } = await this.#pool.query<Row>(`SELECT * ${SEEDED} ORDER BY id`, [indexName, eventName]);
    return rows.map(eventOf);
  }

  replaceDemoEvents(indexName: string, eventName: string, events: readonly NewEvent[]): Promise<void> {
    return this.#transaction(async (client) => {
      // Replicas moving the history together: one at a time (each move is computed from the seeded events).
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`demo-history:${indexName}`]);
      await client.query(`DELETE ${SEEDED}`, [indexName, eventName]);
      await insert(client, events);
    });
  }
}
