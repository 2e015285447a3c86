/**
 * The Insights events of the service: every accepted event is stored with what it refers to — the search of
 * its queryID (index, query, the objects' positions in that answer) — for Recommend, Analytics and
 * Personalization, and announced on the `'insights:events'` event. A re-sent event (same fields and the
 * same client timestamp, e.g. a request re-sent by a page that never read the answer) is stored once.
 */
import { createHash } from 'node:crypto';
import type { EventBus, ServiceEvents, StoredEvent } from '../events.js';
import type { EventFilter, EventRow, EventStore, NewEvent, SearchLogEntry, SearchLogStore } from '../storage/types.js';
import { EVENT_LIMITS, type ValidEvent, validateEvent } from './validate.js';

export type EventQuery = EventFilter;

export interface AppendOptions {
  /** Time of receipt (default now). */
  receivedAt?: number;
  /** Check each event's shape first (default true; the age rules are the endpoint's, not applied here). */
  validate?: boolean;
  /** Emit `'insights:events'` after storing (default true). */
  emit?: boolean;
}

/** The stored form of an event: the conversion window decided from its search's time. */
export function storedEvent(row: EventRow): StoredEvent {
  const { search, ...event } = row;
  if (!search) return event;
  // "Within one hour of its search", on either side (a client's clock may run behind the service's).
  const withinWindow =
    event.eventType === 'view' || Math.abs(event.timestamp - search.at) <= EVENT_LIMITS.conversionWindowMs;
  return { ...event, search: { ...search, withinWindow } };
}

/** The fingerprint of an event that carries its own timestamp (an event without one is never a duplicate). */
function fingerprintOf(event: ValidEvent): string | null {
  if (event.timestamp === undefined) return null;
  return createHash('sha256')
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
}

/**
 * An event as storage keeps it: its time, its fingerprint, and the search its queryID refers to.
 *
 * @example
 * newEvent(event, Date.now(), searchLogEntry)
 */
export function newEvent(event: ValidEvent, receivedAt: number, search: SearchLogEntry | undefined): NewEvent {
  const stored: NewEvent = {
    eventType: event.eventType,
    eventName: event.eventName,
    index: event.index,
    userToken: event.userToken,
    timestamp: event.timestamp ?? receivedAt,
    receivedAt,
    fingerprint: fingerprintOf(event),
  };
  if (event.queryID !== undefined) stored.queryID = event.queryID;
  if (event.objectIDs !== undefined) stored.objectIDs = event.objectIDs;
  if (event.filters !== undefined) stored.filters = event.filters;
  if (event.positions !== undefined) stored.positions = event.positions;
  if (search) {
    stored.search = {
      indexName: search.indexName,
      query: search.query,
      at: search.createdAt,
      positions: (event.objectIDs ?? []).map((id) => {
        const at = search.objectIDs.indexOf(id);
        return at < 0 ? null : search.page * search.hitsPerPage + at + 1;
      }),
    };
  }
  return stored;
}

/**
 * @example
 * const events = services.insights;
 * await events.append([{ eventType: 'conversion', eventName: 'Order', index: 'products', userToken: 'u1', objectIDs: ['42'] }]);
 * await events.query({ index: 'products', eventType: 'conversion', since: Date.now() - 86_400_000 });
 */
export class InsightsEvents {
  readonly #store: EventStore;
  readonly #searchLog: SearchLogStore;
  readonly #bus: EventBus<ServiceEvents>;
  /** Appends between their first step and their `'insights:events'` (what a build must wait for: `buildFrom`). */
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(store: EventStore, searchLog: SearchLogStore, bus: EventBus<ServiceEvents>) {
    this.#store = store;
    this.#searchLog = searchLog;
    this.#bus = bus;
  }

  /**
   * Stores events in one transaction and returns the ones stored (re-sent duplicates are skipped).
   * @throws EventValidationError when `validate` is on and an event breaks a rule of the event table.
   */
  append(events: ReadonlyArray<ValidEvent>, options: AppendOptions = {}): Promise<StoredEvent[]> {
    const appending = this.#append(events, options);
    this.#inFlight.add(appending);
    const done = () => {
      this.#inFlight.delete(appending);
    };
    appending.then(done, done);
    return appending;
  }

  /**
   * Builds something kept up to date by `'insights:events'` (Recommend's models, Personalization's profiles)
   * from every stored event, each event counted once: `apply` gets the stored events plus those an append
   * running during the read stored and announced while the builder was not listening yet (the read may
   * not see them), and runs synchronously before this resolves, so that every later announcement finds the
   * builder's new state. Appends still between their commit and their announcement when the read ends are
   * waited for (their events may be in the read, and are announced once: the read's copy is the one kept).
   * Resolves with how many events `apply` got.
   *
   * @example
   * await insights.buildFrom((events) => {
   *   models = buildModels(events); // the listener of 'insights:events' adds to `models` from now on
   * });
   */
  async buildFrom(apply: (events: readonly StoredEvent[]) => void): Promise<number> {
    const announced: StoredEvent[] = [];
    const off = this.#bus.on('insights:events', (stored) => {
      announced.push(...stored);
    });
    try {
      const read = await this.query();
      await Promise.allSettled([...this.#inFlight]);
      const ids = new Set(read.map((event) => event.id));
      const events = [...read, ...announced.filter((event) => !ids.has(event.id))];
      apply(events);
      return events.length;
    } finally {
      off();
    }
  }

  async #append(events: ReadonlyArray<ValidEvent>, options: AppendOptions): Promise<StoredEvent[]> {
    const receivedAt = options.receivedAt ?? Date.now();
    const valid = options.validate === false ? events : events.map((e, i) => validateEvent(e, i, { checkAge: false }));
    // The events of one request mostly share a few queryIDs: look each search up once.
    // Looked up together: with workers a missed queryID may wait for another worker's pending row.
    const queryIDs = [...new Set(valid.map((event) => event.queryID))].filter((id) => id !== undefined);
    const found = await Promise.all(queryIDs.map((queryID) => this.#searchLog.get(queryID)));
    const searches = new Map(queryIDs.map((queryID, i) => [queryID, found[i]]));
    const rows = valid.map((event) =>
      newEvent(event, receivedAt, event.queryID === undefined ? undefined : searches.get(event.queryID)),
    );
    const ids = await this.#store.append(rows);
    const stored: StoredEvent[] = [];
    ids.forEach((id, i) => {
      if (id !== undefined) stored.push(storedEvent({ id, ...withoutFingerprint(rows[i]!) }));
    });
    if (stored.length > 0 && options.emit !== false) await this.#bus.emit('insights:events', stored);
    return stored;
  }

  /** Stored events matching every given criterion, oldest first. */
  async query(filter: EventQuery = {}): Promise<StoredEvent[]> {
    return (await this.#store.query(filter)).map(storedEvent);
  }

  /** How many stored events match. */
  count(filter: Omit<EventQuery, 'limit'> = {}): Promise<number> {
    return this.#store.count(filter);
  }

  /**
   * Deletes every stored event of a user token (the privacy request, `DELETE /1/usertokens/{userToken}`) and
   * emits `'insights:usertoken-deleted'` `{userToken, events}` so that what was built on them forgets them
   * (Recommend's models, Personalization's profile, the Analytics log's user). Returns how many events were
   * deleted.
   */
  async deleteUserToken(userToken: string): Promise<number> {
    const events = await this.#store.deleteUser(userToken);
    await this.#searchLog.forgetUser(userToken);
    await this.#bus.emit('insights:usertoken-deleted', { userToken, events });
    return events;
  }

  /** How many events of a user are later than `after` (ms), and the latest one's timestamp. */
  latestOf(userToken: string, after: number): Promise<{ count: number; latest: number | undefined }> {
    return this.#store.latestOf(userToken, after);
  }
}

function withoutFingerprint(event: NewEvent): Omit<EventRow, 'id'> {
  const { fingerprint: _fingerprint, ...rest } = event;
  return rest;
}
