/**
 * The durable store of Insights events (table `insights_events`): every accepted event with what it
 * refers to — the search of its queryID (index, query, the objects' positions in that answer) — for
 * Recommend, analytics and personalisation. Recommend reads through `query`, and seeds demo history
 * through `append`.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ServiceContext } from '../context.js';
import { EVENT_LIMITS, validateEvent, type EventType, type ValidEvent } from './validate.js';

/** The search an event's queryID refers to (from the search log), if the service answered it. */
export interface EventSearch {
  /** The index the search ran on (a replica when sorted). */
  indexName: string;
  query: string;
  /** When the search was answered (ms). */
  at: number;
  /** Position of each objectID in that answer (1-based, across pages), `null` when not among its hits. */
  positions: Array<number | null>;
  /** Whether the event fell within one hour of its search (the conversion window). */
  withinWindow: boolean;
}

export interface StoredEvent extends ValidEvent {
  id: number;
  /** The event's time: its own timestamp, else the time of receipt. */
  timestamp: number;
  receivedAt: number;
  search?: EventSearch;
}

export interface EventQuery {
  index?: string;
  eventType?: EventType;
  eventName?: string;
  userToken?: string;
  queryID?: string;
  /** Events with `timestamp >= since` (ms). */
  since?: number;
  /** Events with `timestamp < until` (ms). */
  until?: number;
  /** At most this many (oldest first); all when omitted. */
  limit?: number;
}

export interface AppendOptions {
  /** Time of receipt (default now). */
  receivedAt?: number;
  /** Check each event's shape first (default true; the age rules are the endpoint's, not applied here). */
  validate?: boolean;
  /** Emit `'events'` on the context after storing (default true). */
  emit?: boolean;
}

interface Row {
  id: number;
  event_type: EventType;
  event_name: string;
  index_name: string;
  user_token: string;
  timestamp: number;
  received_at: number;
  query_id: string | null;
  object_ids: string | null;
  filters: string | null;
  positions: string | null;
  search_index: string | null;
  search_query: string | null;
  search_at: number | null;
  search_positions: string | null;
}

function toStored(row: Row): StoredEvent {
  const event: StoredEvent = {
    id: row.id,
    eventType: row.event_type,
    eventName: row.event_name,
    index: row.index_name,
    userToken: row.user_token,
    timestamp: row.timestamp,
    receivedAt: row.received_at,
  };
  if (row.query_id !== null) event.queryID = row.query_id;
  if (row.object_ids !== null) event.objectIDs = JSON.parse(row.object_ids) as string[];
  if (row.filters !== null) event.filters = JSON.parse(row.filters) as string[];
  if (row.positions !== null) event.positions = JSON.parse(row.positions) as number[];
  if (row.search_index !== null) {
    event.search = {
      indexName: row.search_index,
      query: row.search_query ?? '',
      at: row.search_at ?? 0,
      positions: JSON.parse(row.search_positions ?? '[]') as Array<number | null>,
      // "Within one hour of its search", on either side (a client's clock may run behind the service's).
      withinWindow:
        event.eventType === 'view' || Math.abs(row.timestamp - (row.search_at ?? 0)) <= EVENT_LIMITS.conversionWindowMs,
    };
  }
  return event;
}

/**
 * @example
 * const events = getEventStore(ctx);
 * events.append([{ eventType: 'conversion', eventName: 'Order', index: 'products', userToken: 'u1', objectIDs: ['42'] }]);
 * events.query({ index: 'products', eventType: 'conversion', since: Date.now() - 86_400_000 });
 */
export class EventStore {
  private readonly insert: Database.Statement;

  constructor(private readonly ctx: ServiceContext) {
    ctx.db.exec(`
      CREATE TABLE IF NOT EXISTS insights_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_type TEXT NOT NULL,
        event_name TEXT NOT NULL,
        index_name TEXT NOT NULL,
        user_token TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        query_id TEXT,
        object_ids TEXT,
        filters TEXT,
        positions TEXT,
        search_index TEXT,
        search_query TEXT,
        search_at INTEGER,
        search_positions TEXT,
        fingerprint TEXT UNIQUE
      );
      CREATE INDEX IF NOT EXISTS insights_events_index_time ON insights_events (index_name, timestamp);
      CREATE INDEX IF NOT EXISTS insights_events_user_time ON insights_events (user_token, timestamp);
      CREATE INDEX IF NOT EXISTS insights_events_query ON insights_events (query_id);
    `);
    // A re-sent event (same fields and the same client timestamp, e.g. a request re-sent by a page that
    // never read the answer) is stored once: INSERT OR IGNORE on its fingerprint.
    this.insert = ctx.db.prepare(`
      INSERT OR IGNORE INTO insights_events
        (event_type, event_name, index_name, user_token, timestamp, received_at, query_id, object_ids, filters,
         positions, search_index, search_query, search_at, search_positions, fingerprint)
      VALUES (@eventType, @eventName, @index, @userToken, @timestamp, @receivedAt, @queryID, @objectIDs, @filters,
         @positions, @searchIndex, @searchQuery, @searchAt, @searchPositions, @fingerprint)
    `);
  }

  /**
   * Stores events in one transaction and returns the rows stored (re-sent duplicates are skipped).
   * @throws EventValidationError when `validate` is on and an event breaks a rule of the event table.
   */
  append(events: ReadonlyArray<ValidEvent>, options: AppendOptions = {}): StoredEvent[] {
    const receivedAt = options.receivedAt ?? Date.now();
    const valid = options.validate === false ? events : events.map((e, i) => validateEvent(e, i, { checkAge: false }));
    const stored: StoredEvent[] = [];
    // The events of one request mostly share a few queryIDs: look each search up once.
    const searches = new Map<string, ReturnType<ServiceContext['searchLog']['get']>>();
    const searchOf = (queryID: string) => {
      if (!searches.has(queryID)) searches.set(queryID, this.ctx.searchLog.get(queryID));
      return searches.get(queryID);
    };
    this.ctx.db.transaction(() => {
      for (const event of valid) {
        const timestamp = event.timestamp ?? receivedAt;
        const search = event.queryID ? searchOf(event.queryID) : undefined;
        let searchPositions: Array<number | null> | null = null;
        if (search && event.objectIDs) {
          searchPositions = event.objectIDs.map((id) => {
            const at = search.objectIDs.indexOf(id);
            return at < 0 ? null : search.page * search.hitsPerPage + at + 1;
          });
        }
        const fingerprint =
          event.timestamp === undefined
            ? null
            : createHash('sha256')
                .update(
                  JSON.stringify([
                    event.eventType,
                    event.eventName,
                    event.index,
                    event.userToken,
                    event.timestamp,
                    event.queryID ?? null,
                    event.objectIDs ?? null,
                    event.filters ?? null,
                    event.positions ?? null,
                  ]),
                )
                .digest('base64url');
        const result = this.insert.run({
          eventType: event.eventType,
          eventName: event.eventName,
          index: event.index,
          userToken: event.userToken,
          timestamp,
          receivedAt,
          queryID: event.queryID ?? null,
          objectIDs: event.objectIDs ? JSON.stringify(event.objectIDs) : null,
          filters: event.filters ? JSON.stringify(event.filters) : null,
          positions: event.positions ? JSON.stringify(event.positions) : null,
          searchIndex: search?.indexName ?? null,
          searchQuery: search?.query ?? null,
          searchAt: search?.createdAt ?? null,
          searchPositions: searchPositions ? JSON.stringify(searchPositions) : search ? '[]' : null,
          fingerprint,
        });
        if (result.changes === 0) continue;
        stored.push(
          toStored({
            id: Number(result.lastInsertRowid),
            event_type: event.eventType,
            event_name: event.eventName,
            index_name: event.index,
            user_token: event.userToken,
            timestamp,
            received_at: receivedAt,
            query_id: event.queryID ?? null,
            object_ids: event.objectIDs ? JSON.stringify(event.objectIDs) : null,
            filters: event.filters ? JSON.stringify(event.filters) : null,
            positions: event.positions ? JSON.stringify(event.positions) : null,
            search_index: search?.indexName ?? null,
            search_query: search?.query ?? null,
            search_at: search?.createdAt ?? null,
            search_positions: searchPositions ? JSON.stringify(searchPositions) : search ? '[]' : null,
          }),
        );
      }
    })();
    if (stored.length && options.emit !== false) this.ctx.emit('events', stored);
    return stored;
  }

  /** Stored events matching every given criterion, oldest first. */
  query(filter: EventQuery = {}): StoredEvent[] {
    const { where, params } = this.where(filter);
    const limit = filter.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
    const rows = this.ctx.db
      .prepare(`SELECT * FROM insights_events${where} ORDER BY timestamp, id${limit}`)
      .all(params) as Row[];
    return rows.map(toStored);
  }

  /**
   * Deletes every stored event of a user token (the privacy request, `DELETE /1/usertokens/{userToken}`) and
   * emits `'usertoken-deleted'` `{userToken, events}` so that what was built on them forgets them
   * (Recommend's models, Personalization's profile, the Analytics log's user; see docs/notes/insights.md).
   * Returns how many events were deleted.
   */
  deleteUserToken(userToken: string): number {
    const { changes } = this.ctx.db.prepare('DELETE FROM insights_events WHERE user_token = ?').run(userToken);
    this.ctx.searchLog.forgetUser(userToken);
    this.ctx.emit('usertoken-deleted', { userToken, events: changes });
    return changes;
  }

  /** How many stored events match. */
  count(filter: Omit<EventQuery, 'limit'> = {}): number {
    const { where, params } = this.where(filter);
    return (this.ctx.db.prepare(`SELECT COUNT(*) AS n FROM insights_events${where}`).get(params) as { n: number }).n;
  }

  private where(filter: EventQuery): { where: string; params: Record<string, unknown> } {
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
    return { where: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params };
  }
}

const stores = new WeakMap<ServiceContext, EventStore>();

/**
 * The event store of a service (one per context; creates the table on first use).
 * @example getEventStore(ctx).query({ userToken: 'u1' })
 */
export function getEventStore(ctx: ServiceContext): EventStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new EventStore(ctx);
    stores.set(ctx, store);
  }
  return store;
}
