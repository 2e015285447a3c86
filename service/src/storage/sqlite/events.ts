/**
 * Insights events in SQLite (`insights_events`): every accepted event with the search its queryID refers to,
 * and the demo's order history (`recommend_demo_seed` remembers when it was seeded; its events keep that time
 * as their time of receipt, which no event received over HTTP has).
 */
import type Database from 'better-sqlite3';
import { type EventTableRow as Row, eventOf } from '../rows.js';
import type { EventFilter, EventRow, EventStore, NewEvent } from '../types.js';
import { commitWhenUnlocked } from './open.js';

function where(filter: EventFilter): { sql: string; params: Record<string, unknown> } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (clause: string, name: string, value: unknown) => {
    if (value === undefined) return;
    clauses.push(clause);
    params[name] = value;
  };
  add('index_name = @index', 'index', filter.index);
  add('event_type = @eventType', 'eventType', filter.eventType);
  add('event_name = @eventName', 'eventName', filter.eventName);
  add('user_token = @userToken', 'userToken', filter.userToken);
  add('query_id = @queryID', 'queryID', filter.queryID);
  add('timestamp >= @since', 'since', filter.since);
  add('timestamp < @until', 'until', filter.until);
  return { sql: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The seeded demo events of an index (see the file's comment). */
const SEEDED = `FROM insights_events WHERE index_name = @indexName AND event_type = 'conversion' AND event_name = @eventName AND query_id IS NULL
  AND received_at = (SELECT seeded_at FROM recommend_demo_seed WHERE index_name = @indexName)`;

export class SqliteEvents implements EventStore {
  readonly #db: Database.Database;
  readonly #stmt;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#stmt = {
      // A re-sent event (same fingerprint) is stored once.
      insert: db.prepare(`
        INSERT OR IGNORE INTO insights_events
          (event_type, event_name, index_name, user_token, timestamp, received_at, query_id, object_ids, filters,
           positions, search_index, search_query, search_at, search_positions, fingerprint)
        VALUES (@eventType, @eventName, @index, @userToken, @timestamp, @receivedAt, @queryID, @objectIDs, @filters,
           @positions, @searchIndex, @searchQuery, @searchAt, @searchPositions, @fingerprint)`),
      deleteUser: db.prepare('DELETE FROM insights_events WHERE user_token = ?'),
      latestOf: db.prepare(
        'SELECT COUNT(*) AS n, MAX(timestamp) AS latest FROM insights_events WHERE user_token = ? AND timestamp > ?',
      ),
      demoSeed: db.prepare('SELECT seeded_at FROM recommend_demo_seed WHERE index_name = ?'),
      markSeeded: db.prepare('INSERT INTO recommend_demo_seed (index_name, seeded_at, events) VALUES (?, ?, ?)'),
      demoEvents: db.prepare(`SELECT * ${SEEDED} ORDER BY id`),
      deleteDemoEvents: db.prepare(`DELETE ${SEEDED}`),
    };
  }

  #insert(events: readonly NewEvent[]): Array<number | undefined> {
    return events.map((event) => {
      const result = this.#stmt.insert.run({
        eventType: event.eventType,
        eventName: event.eventName,
        index: event.index,
        userToken: event.userToken,
        timestamp: event.timestamp,
        receivedAt: event.receivedAt,
        queryID: event.queryID ?? null,
        objectIDs: event.objectIDs ? JSON.stringify(event.objectIDs) : null,
        filters: event.filters ? JSON.stringify(event.filters) : null,
        positions: event.positions ? JSON.stringify(event.positions) : null,
        searchIndex: event.search?.indexName ?? null,
        searchQuery: event.search?.query ?? null,
        searchAt: event.search?.at ?? null,
        searchPositions: event.search ? JSON.stringify(event.search.positions) : null,
        fingerprint: event.fingerprint,
      });
      return result.changes === 0 ? undefined : Number(result.lastInsertRowid);
    });
  }

  /**
   * Stores events in one IMMEDIATE transaction (with its fsync), once the write lock is free
   * (`commitWhenUnlocked`: with workers another process may hold it past the busy timeout, and SQLite's busy
   * wait would block this worker's searches meanwhile and then fail).
   */
  async append(events: readonly NewEvent[]): Promise<Array<number | undefined>> {
    const insert = this.#db.transaction(() => this.#insert(events));
    return commitWhenUnlocked(this.#db, () => insert.immediate());
  }

  async query(filter: EventFilter): Promise<EventRow[]> {
    const { sql, params } = where(filter);
    const limit = filter.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
    const rows = this.#db.prepare(`SELECT * FROM insights_events${sql} ORDER BY timestamp, id${limit}`).all(params);
    return (rows as Row[]).map(eventOf);
  }

  async count(filter: Omit<EventFilter, 'limit'>): Promise<number> {
    const { sql, params } = where(filter);
    return (this.#db.prepare(`SELECT COUNT(*) AS n FROM insights_events${sql}`).get(params) as { n: number }).n;
  }

  /**
   * The privacy request's deletion, once the write lock is free (`commitWhenUnlocked`, as `append`): with
   * workers, SQLite's busy wait would block this worker's searches while another process holds the lock.
   */
  async deleteUser(userToken: string): Promise<number> {
    const remove = this.#db.transaction(() => this.#stmt.deleteUser.run(userToken).changes);
    return commitWhenUnlocked(this.#db, () => remove.immediate());
  }

  async latestOf(userToken: string, after: number): Promise<{ count: number; latest: number | undefined }> {
    const row = this.#stmt.latestOf.get(userToken, after) as { n: number; latest: number | null };
    return { count: row.n, latest: row.latest ?? undefined };
  }

  async demoSeed(indexName: string): Promise<{ seededAt: number } | undefined> {
    const row = this.#stmt.demoSeed.get(indexName) as { seeded_at: number } | undefined;
    return row && { seededAt: row.seeded_at };
  }

  /** The demo's history and its seed row in one transaction, once the write lock is free (as `append`). */
  async seedDemo(indexName: string, events: readonly NewEvent[], at: number): Promise<number> {
    const seed = this.#db.transaction(() => {
      const stored = this.#insert(events).filter((id) => id !== undefined).length;
      this.#stmt.markSeeded.run(indexName, at, stored);
      return stored;
    });
    return commitWhenUnlocked(this.#db, () => seed.immediate());
  }

  async demoEvents(indexName: string, eventName: string): Promise<EventRow[]> {
    return (this.#stmt.demoEvents.all({ indexName, eventName }) as Row[]).map(eventOf);
  }

  /**
   * Moves the demo's history (rows replaced in one transaction) once the write lock is free (as `append`): it
   * runs on a Recommend request, whose worker would otherwise stop answering in SQLite's busy wait.
   */
  async replaceDemoEvents(indexName: string, eventName: string, events: readonly NewEvent[]): Promise<void> {
    const replace = this.#db.transaction(() => {
      this.#stmt.deleteDemoEvents.run({ indexName, eventName });
      this.#insert(events);
    });
    await commitWhenUnlocked(this.#db, () => replace.immediate());
  }
}
