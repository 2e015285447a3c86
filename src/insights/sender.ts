/**
 * Sending the queue to `POST /1/events`: one request per flush (batches of ≤ 1,000 events and under 2 MB),
 * network errors, timeouts, 5xx, 408 and 429 retried with exponential backoff (±25 % jitter), other 4xx dropped
 * with a console warning (a 422 drops only the event it names). On page unload every event not in flight goes to
 * `navigator.sendBeacon` (credentials as URL parameters), falling back to a keepalive `fetch`.
 */
import type { SearchClient } from '../client/types.js';
import { INSIGHTS_LIMITS } from '../protocol/insights-limits.js';
import { type Entry, type Queue, batches } from './queue.js';
import type { InsightsErrorDetail, InsightsSentDetail, QueueStats } from './types.js';

/** Beacon bodies share the browser's 64 KiB keepalive quota. */
const BEACON_BYTES = 60_000;

export interface SenderOptions {
  client: SearchClient;
  queue: Queue;
  stats: QueueStats;
  /** Whether the user agreed to analytics now. */
  consent(): boolean;
  /** Whether the Insights instance was disposed. */
  disposed(): boolean;
  flushDelayMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Says what became of events: `svc-insights-sent` (accepted, or handed to a beacon) or `svc-insights-error`. */
  announce<K extends 'svc-insights-sent' | 'svc-insights-error'>(
    type: K,
    detail: HTMLElementEventMap[K]['detail'],
  ): void;
}

export interface Sender {
  /** Sends the queue after `delay` (default `flushDelayMs`) unless a flush or a retry is already planned. */
  schedule(delay?: number): void;
  /** Sends everything queued now; resolves when the requests were answered (or a retry is scheduled). */
  flush(): Promise<void>;
  /** Cancels the planned flush or retry. */
  stop(): void;
  /** Page unload: hands the queue to beacons and releases what stays stored to the next page load. */
  pageHide(): void;
  /** The page came back (back/forward cache, visible again): takes the stored part back. */
  pageShow(event?: Event): void;
}

/**
 * The sender of one Insights instance.
 *
 * @example
 * const sender = createSender({ client, queue, stats, consent: () => true, disposed: () => false, flushDelayMs: 1000, retryBaseMs: 1000, retryMaxMs: 60_000 });
 * sender.schedule();
 */
export function createSender(options: SenderOptions): Sender {
  const { client, queue, stats, consent, disposed, flushDelayMs, retryBaseMs, retryMaxMs, announce } = options;
  /** The next flush: after `flushDelayMs`, or the next retry. */
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let sending: Promise<void> | null = null;

  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  /** `batch` was accepted (or handed to a beacon): it leaves the queue, and `svc-insights-sent` says so. */
  function sent(batch: Entry[], transport: InsightsSentDetail['transport']) {
    queue.remove(batch);
    stats.eventsSent += batch.length;
    announce('svc-insights-sent', { events: batch.map((entry) => entry.event), transport });
  }

  function schedule(delay = flushDelayMs) {
    if (!disposed() && consent() && !timer) timer = setTimeout(flush, delay);
  }

  function flush(): Promise<void> {
    stop();
    if (consent()) sending ??= drain().finally(() => (sending = null));
    return sending ?? Promise.resolve();
  }

  async function drain(): Promise<void> {
    while (!disposed()) {
      const batch = batches(queue.ready(), INSIGHTS_LIMITS.bodyBytes - 1024)[0];
      if (!batch) return;
      for (const entry of batch) queue.inFlight.add(entry.id);
      stats.requests++;
      try {
        await client.sendEvents(batch.map((entry) => entry.event));
        sent(batch, 'fetch');
        attempt = 0;
        queue.persistSoon();
      } catch (error) {
        const { status = 0, message = '' } = error as { status?: number; message?: string };
        if (status > 399 && status < 500 && status !== 408 && status !== 429) {
          // A 4xx will not change on retry. A 422 names the first invalid event (`events[i]…`): only that one
          // is dropped and the rest go again; any other 4xx drops the whole request.
          const index = /events\[(\d+)\]/.exec(message)?.[1];
          const invalid = status === 422 && index !== undefined ? batch[Number(index)] : undefined;
          const dropped = invalid ? [invalid] : batch;
          console.warn(`svc-insights: the service refused ${dropped.length} event(s) (${status}): ${message}`);
          queue.remove(dropped);
          stats.eventsDropped += dropped.length;
          const detail: InsightsErrorDetail = { events: dropped.map((entry) => entry.event), status, reason: message };
          announce('svc-insights-error', detail);
          if (!disposed()) queue.persist();
          continue;
        }
        // After `dispose`, a request that failed gives its events back to storage for the next instance.
        if (disposed()) {
          queue.persist({ release: true, mine: [...queue.stored(), ...batch] });
          return;
        }
        stats.retries++;
        // Jitter (±25 %) keeps the pages of one outage from retrying in step.
        const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** attempt++) * (0.75 + Math.random() / 2);
        stats.retryDelaysMs = [...(stats.retryDelaysMs ?? []).slice(-9), delay];
        timer = setTimeout(flush, delay);
        return;
      } finally {
        for (const entry of batch) queue.inFlight.delete(entry.id);
      }
    }
  }

  function pageHide() {
    if (!consent()) return;
    stop();
    for (const batch of batches(queue.ready(), BEACON_BYTES)) {
      const events = batch.map((entry) => entry.event);
      let handed = false;
      try {
        handed = navigator.sendBeacon(
          client.eventsBeaconUrl(),
          new Blob([JSON.stringify({ events })], { type: 'text/plain;charset=UTF-8' }),
        );
      } catch {
        // A browser without beacons, or one refusing this one: the keepalive request below.
      }
      stats.beacons++;
      if (handed) {
        sent(batch, 'beacon');
        continue;
      }
      for (const entry of batch) queue.inFlight.add(entry.id);
      client
        .sendEvents(events, { keepalive: true })
        .then(() => {
          sent(batch, 'keepalive');
          if (!disposed()) queue.persist();
        })
        .catch(() => {
          // Stays stored: the next page load sends it.
        })
        .finally(() => {
          for (const entry of batch) queue.inFlight.delete(entry.id);
        });
    }
    queue.persist({ release: true });
  }

  function pageShow(event?: Event) {
    if (disposed() || (event as PageTransitionEvent | undefined)?.persisted === false) return;
    queue.persist();
    if (queue.entries.length) schedule();
  }

  return { schedule, flush, stop, pageHide, pageShow };
}
