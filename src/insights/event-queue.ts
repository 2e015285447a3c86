/**
 * The Insights event queue: batches events into requests (≤ 1,000 events and under 2 MB each, the
 * documented limits), retries network errors and 5xx with exponential backoff, drops 4xx answers with a
 * console warning, and flushes with `navigator.sendBeacon` on page unload.
 *
 * Nothing is lost: every queued event is mirrored in local storage until the service has accepted it.
 * Each page (instance) owns its part of the stored queue under a lease that it renews while alive; a
 * later page load (or another tab) adopts the parts whose lease ran out or was released on `pagehide`.
 * An event leaves the queue only once its request succeeded or the beacon was accepted by the browser,
 * so a request is never sent twice from one page; every event carries its own millisecond timestamp, by
 * which the local service recognises the re-send of a request whose answer a dying page never read.
 */
import type { InsightsEvent, SearchClient } from '../client/types.js';
import { INSIGHTS_LIMITS } from './rules.js';
import type { safeStorage } from './user-token.js';

export interface QueueEntry {
  id: string;
  event: InsightsEvent;
}

interface StoredQueue {
  owners: Record<string, { lease: number; entries: QueueEntry[] }>;
}

export interface EventQueueOptions {
  client: Pick<SearchClient, 'sendEvents' | 'eventsBeaconUrl'>;
  storage: ReturnType<typeof safeStorage>;
  storageKey: string;
  /** Delay between the first queued event and the request (one request per flush, not per event). */
  flushDelayMs?: number;
  /** First retry delay; each further attempt doubles it up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long this page's stored part stays its own without renewal. */
  leaseMs?: number;
}

/** Counters read by tests and the benchmark. */
export interface QueueStats {
  /** `/1/events` requests made with `fetch` (through the client). */
  requests: number;
  /** Requests handed to `navigator.sendBeacon` (or keepalive fetch) on unload. */
  beacons: number;
  /** Events accepted by the service or handed to a beacon. */
  eventsSent: number;
  /** Events dropped after a 4xx answer. */
  eventsDropped: number;
  /** Failed attempts that were scheduled for a retry. */
  retries: number;
}

/** Beacon bodies share the browser's 64 KiB keepalive quota. */
const BEACON_BYTES = 60_000;
const encoder = new TextEncoder();

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** HTTP status of a failed `sendEvents` call, or undefined for a network error. */
function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  return status && status > 0 ? status : undefined;
}

export class EventQueue {
  readonly instanceId = randomId();
  readonly stats: QueueStats = { requests: 0, beacons: 0, eventsSent: 0, eventsDropped: 0, retries: 0 };

  private entries: QueueEntry[] = [];
  private readonly inFlight = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly leaseTimer: ReturnType<typeof setInterval>;
  private attempt = 0;
  private persistQueued = false;
  private paused = false;
  private sending: Promise<void> | null = null;
  private disposed = false;
  private readonly flushDelayMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: EventQueueOptions) {
    this.flushDelayMs = options.flushDelayMs ?? 1000;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.retryMaxMs = options.retryMaxMs ?? 60_000;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.adopt();
    this.leaseTimer = setInterval(() => this.adopt(), Math.max(50, this.leaseMs / 3));
  }

  /** Events waiting to be sent (including a request in flight). */
  get size(): number {
    return this.entries.length;
  }

  /** While paused (no consent) nothing is sent, not even events an earlier page left in storage. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused && this.entries.length) this.schedule(this.flushDelayMs);
  }

  enqueue(events: InsightsEvent[]): void {
    if (this.disposed || this.paused || events.length === 0) return;
    for (const event of events) this.entries.push({ id: randomId(), event });
    this.persistSoon();
    if (this.entries.length - this.inFlight.size >= INSIGHTS_LIMITS.eventsPerRequest) void this.flush();
    else this.schedule(this.flushDelayMs);
  }

  /**
   * Sends everything queued now (in as few requests as the limits allow); resolves when each batch was
   * answered, or when a failure scheduled a retry.
   */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.retryTimer !== undefined) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    if (this.paused) return Promise.resolve();
    if (!this.sending) this.sending = this.drain().finally(() => (this.sending = null));
    return this.sending;
  }

  /**
   * Page unload: hands every event not already in flight to `navigator.sendBeacon` (credentials in the
   * URL parameters), falling back to a keepalive `fetch`; whatever could not be handed over stays stored
   * and is released to the next page load.
   */
  flushOnUnload(): void {
    if (this.paused) return;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const ready = this.entries.filter((e) => !this.inFlight.has(e.id));
    for (const batch of this.batches(ready, BEACON_BYTES)) {
      const events = batch.map((e) => e.event);
      const body = JSON.stringify({ events });
      let handed = false;
      try {
        handed =
          typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' &&
          navigator.sendBeacon(this.options.client.eventsBeaconUrl(), new Blob([body], { type: 'text/plain;charset=UTF-8' }));
      } catch {
        handed = false;
      }
      this.stats.beacons++;
      if (handed) {
        this.remove(batch);
        this.stats.eventsSent += batch.length;
        continue;
      }
      for (const e of batch) this.inFlight.add(e.id);
      this.options.client
        .sendEvents(events, { keepalive: true })
        .then(() => {
          this.remove(batch);
          this.stats.eventsSent += batch.length;
          this.persist();
        })
        .catch(() => undefined)
        .finally(() => batch.forEach((e) => this.inFlight.delete(e.id)));
    }
    this.persist(true);
  }

  /** The page came back from the back/forward cache: take the stored part back. */
  resume(): void {
    if (this.disposed) return;
    this.persist();
    if (this.entries.length) this.schedule(this.flushDelayMs);
  }

  /** Drops every queued event, this page's and those stored by earlier pages (consent withdrawn). */
  clear(): void {
    this.entries = [];
    this.inFlight.clear();
    clearTimeout(this.flushTimer);
    clearTimeout(this.retryTimer);
    this.flushTimer = this.retryTimer = undefined;
    this.options.storage.removeItem(this.options.storageKey);
  }

  /** Stops timers; queued events stay stored, released to the next instance. */
  dispose(): void {
    if (this.disposed) return;
    clearTimeout(this.flushTimer);
    clearTimeout(this.retryTimer);
    clearInterval(this.leaseTimer);
    // A request in flight finishes on its own: its events are handed back only if it fails (see drain).
    this.persist(true, this.entries.filter((e) => !this.inFlight.has(e.id)));
    this.disposed = true;
  }

  private schedule(delay: number): void {
    if (this.disposed || this.paused || this.flushTimer !== undefined || this.retryTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, delay);
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.disposed) return;
      const [batch] = this.batches(this.entries.filter((e) => !this.inFlight.has(e.id)), INSIGHTS_LIMITS.bodyBytes - 1024);
      if (!batch) return;
      for (const e of batch) this.inFlight.add(e.id);
      this.stats.requests++;
      try {
        await this.options.client.sendEvents(batch.map((e) => e.event));
        this.remove(batch);
        this.stats.eventsSent += batch.length;
        this.attempt = 0;
        this.persistSoon();
      } catch (error) {
        const status = statusOf(error);
        if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
          this.drop(batch, status, error);
          continue;
        }
        if (this.disposed) {
          this.handBack(batch);
          return;
        }
        this.attempt++;
        this.stats.retries++;
        const delay = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (this.attempt - 1));
        if (!this.disposed) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            void this.flush();
          }, delay * (0.75 + Math.random() * 0.5));
        }
        return;
      } finally {
        for (const e of batch) this.inFlight.delete(e.id);
      }
    }
  }

  /**
   * A 4xx answer will not change on retry. A 422 names the first invalid event (`events[i]…`): only that
   * one is dropped and the rest go again; any other 4xx drops the whole request.
   */
  private drop(batch: QueueEntry[], status: number, error: unknown): void {
    const message = (error as { message?: string })?.message ?? String(error);
    const invalid = status === 422 ? /events\[(\d+)\]/.exec(message) : null;
    const dropped = invalid && batch[Number(invalid[1])] ? [batch[Number(invalid[1])]!] : batch;
    console.warn(`svc-insights: the service refused ${dropped.length} event(s) (${status}): ${message}`);
    this.remove(dropped);
    this.stats.eventsDropped += dropped.length;
    this.persist();
  }

  private remove(batch: QueueEntry[]): void {
    const ids = new Set(batch.map((e) => e.id));
    this.entries = this.entries.filter((e) => !ids.has(e.id));
  }

  /** Splits entries into requests of ≤ 1,000 events and at most `maxBytes` of JSON body. */
  private batches(entries: QueueEntry[], maxBytes: number): QueueEntry[][] {
    const out: QueueEntry[][] = [];
    let current: QueueEntry[] = [];
    let bytes = 12; // {"events":[]}
    for (const entry of entries) {
      const size = encoder.encode(JSON.stringify(entry.event)).length + 1;
      if (current.length && (current.length >= INSIGHTS_LIMITS.eventsPerRequest || bytes + size > maxBytes)) {
        out.push(current);
        current = [];
        bytes = 12;
      }
      current.push(entry);
      bytes += size;
    }
    if (current.length) out.push(current);
    return out;
  }

  private read(): StoredQueue {
    try {
      const parsed = JSON.parse(this.options.storage.getItem(this.options.storageKey) ?? 'null') as StoredQueue | null;
      if (parsed && typeof parsed.owners === 'object' && parsed.owners) return parsed;
    } catch {
      /* corrupted: start over */
    }
    return { owners: {} };
  }

  /** One storage write per task, however many events a task queues. */
  private persistSoon(): void {
    if (this.persistQueued) return;
    this.persistQueued = true;
    queueMicrotask(() => {
      this.persistQueued = false;
      this.persist();
    });
  }

  /** Writes this page's part of the stored queue; `release` lets the next page load adopt it at once. */
  private persist(release = false, entries = this.entries): void {
    if (this.disposed) return;
    const stored = this.read();
    if (entries.length) stored.owners[this.instanceId] = { lease: release ? 0 : Date.now() + this.leaseMs, entries };
    else delete stored.owners[this.instanceId];
    this.write(stored);
  }

  /** After `dispose`, a request that failed gives its events back to storage for the next instance. */
  private handBack(batch: QueueEntry[]): void {
    const stored = this.read();
    const part = stored.owners[this.instanceId] ?? { lease: 0, entries: [] };
    const known = new Set(part.entries.map((e) => e.id));
    part.entries.push(...batch.filter((e) => !known.has(e.id)));
    part.lease = 0;
    stored.owners[this.instanceId] = part;
    this.write(stored);
  }

  private write(stored: StoredQueue): void {
    if (Object.keys(stored.owners).length) this.options.storage.setItem(this.options.storageKey, JSON.stringify(stored));
    else this.options.storage.removeItem(this.options.storageKey);
  }

  /** Takes over the stored parts of pages that are gone (lease ran out or released), renews our lease. */
  private adopt(): void {
    if (this.disposed) return;
    const stored = this.read();
    const now = Date.now();
    const known = new Set(this.entries.map((e) => e.id));
    let adopted = 0;
    for (const [owner, part] of Object.entries(stored.owners)) {
      if (owner === this.instanceId || !(part.lease < now)) continue;
      for (const entry of Array.isArray(part.entries) ? part.entries : []) {
        if (entry && typeof entry.id === 'string' && entry.event && !known.has(entry.id)) {
          this.entries.push(entry);
          known.add(entry.id);
          adopted++;
        }
      }
      delete stored.owners[owner];
    }
    if (adopted || this.entries.length) {
      if (this.entries.length) stored.owners[this.instanceId] = { lease: now + this.leaseMs, entries: this.entries };
      this.options.storage.setItem(this.options.storageKey, JSON.stringify(stored));
    } else if (Object.keys(stored.owners).length === 0) {
      this.options.storage.removeItem(this.options.storageKey);
    }
    if (adopted) this.schedule(this.flushDelayMs);
  }
}
