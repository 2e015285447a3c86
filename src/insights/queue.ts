/**
 * The queue of events waiting to be sent, mirrored in local storage until the service accepted them.
 *
 * Each page (instance) owns its part of the stored queue under a 15 s lease that it renews while alive; a
 * part whose lease ran out or was released (pagehide, `dispose`) is adopted by the next page load or another
 * tab. An event leaves the queue only once its request succeeded or its beacon was accepted.
 */
import { INSIGHTS_LIMITS } from '../protocol/insights-limits.js';
import type { InsightsEvent } from '../protocol/types.js';
import { type KeptValues, randomId } from './storage.js';
import type { QueueEntry, StoredQueue } from './stored-queue.js';

export type Entry = QueueEntry<InsightsEvent>;

/** How long a page's stored part of the queue stays its own without renewal. */
const LEASE_MS = 15_000;

const utf8 = new TextEncoder();

/**
 * Splits entries into requests of ≤ 1,000 events and at most `maxBytes` of JSON body.
 *
 * @example
 * batches(queue.ready(), 60_000)[0] // the first beacon's events
 */
export function batches(entries: Entry[], maxBytes: number): Entry[][] {
  const out: Entry[][] = [];
  // 12 bytes: {"events":[]}
  let bytes = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const size = utf8.encode(JSON.stringify(entry.event)).length + 1;
    if (bytes + size > maxBytes || out.at(-1)!.length >= INSIGHTS_LIMITS.eventsPerRequest) {
      out.push([]);
      bytes = 12;
    }
    out.at(-1)!.push(entry);
    bytes += size;
  }
  return out;
}

export interface Queue {
  /** Every queued event (including those in flight), oldest first. */
  readonly entries: Entry[];
  /** Ids of the entries in a request that has not answered yet. */
  readonly inFlight: Set<string>;
  /** Queues an event (stored within the task). */
  add(event: InsightsEvent): void;
  /** Takes entries out of the queue (sent, or dropped after a 4xx); the caller stores the queue after. */
  remove(batch: Entry[]): void;
  /** Stores the queue at the end of the task (one write however many changes the task makes). */
  persistSoon(): void;
  /** The entries not in flight. */
  ready(): Entry[];
  /**
   * Writes this page's part of the stored queue (`release`: the next page load may adopt it at once; `mine`:
   * the entries to write, default all) and, with `adopt`, takes over the parts of pages that are gone.
   */
  persist(options?: { release?: boolean; adopt?: boolean; mine?: Entry[] }): void;
  /** This page's part as stored now. */
  stored(): Entry[];
  /** Forgets every entry (consent withdrawn: the stored queue is forgotten elsewhere). */
  clear(): void;
  /** Stops renewing the lease. */
  dispose(): void;
}

/**
 * The queue of one Insights instance, stored under `queueKey`; `onAdopted` runs when entries of other pages
 * were taken over (they are to be sent).
 *
 * @example
 * const queue = createQueue(keptValues(), 'svc-insights-queue:SVCLOCAL', () => sender.schedule());
 */
export function createQueue(kept: KeptValues, queueKey: string, onAdopted: () => void): Queue {
  const instance = randomId();
  let entries: Entry[] = [];
  let disposed = false;
  let persistQueued = false;
  const inFlight = new Set<string>();

  function persist({ release = false, adopt = false, mine = entries } = {}) {
    const stored = kept.read<Partial<StoredQueue<InsightsEvent>>>(queueKey)?.owners;
    const owners: StoredQueue<InsightsEvent>['owners'] = stored && typeof stored === 'object' ? stored : {};
    let adopted = 0;
    for (const [owner, part] of Object.entries(owners)) {
      if (!adopt || owner === instance || part?.lease >= Date.now()) continue;
      for (const entry of Array.isArray(part.entries) ? part.entries : []) {
        if (entry?.event && typeof entry.id === 'string' && !entries.some((e) => e.id === entry.id)) {
          entries.push(entry);
          adopted++;
        }
      }
      delete owners[owner];
    }
    if (mine.length) owners[instance] = { lease: release ? 0 : Date.now() + LEASE_MS, entries: mine };
    else delete owners[instance];
    kept.write(queueKey, Object.keys(owners).length ? { owners } : null);
    if (adopted) onAdopted();
  }

  /** One storage write per task, however many events a task queues. */
  function persistSoon() {
    if (persistQueued) return;
    persistQueued = true;
    queueMicrotask(() => {
      persistQueued = false;
      if (!disposed) persist();
    });
  }

  const leaseTimer = setInterval(() => persist({ adopt: true }), LEASE_MS / 3);

  return {
    get entries() {
      return entries;
    },
    inFlight,
    add(event) {
      entries.push({ id: randomId(), event });
      persistSoon();
    },
    remove(batch) {
      entries = entries.filter((entry) => !batch.includes(entry));
    },
    persistSoon,
    ready: () => entries.filter((entry) => !inFlight.has(entry.id)),
    persist,
    stored: () => kept.read<StoredQueue<InsightsEvent>>(queueKey)?.owners?.[instance]?.entries ?? [],
    clear() {
      entries = [];
      inFlight.clear();
    },
    dispose() {
      disposed = true;
      clearInterval(leaseTimer);
    },
  };
}
