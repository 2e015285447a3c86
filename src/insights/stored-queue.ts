/** The stored queue of Insights: its entries, its parts per page, and the part a page hands over as it leaves. */
import { type KeptValues, randomId } from './storage.js';

/** Storage key of the queue (one per application: `svc-insights-queue:<appId>`). */
export const QUEUE_KEY_PREFIX = 'svc-insights-queue:';

/** One queued event and its id (an event leaves the queue by id once the service accepted it). */
export interface QueueEntry<E = unknown> {
  id: string;
  event: E;
}

/**
 * The stored queue of an application: each page (instance) owns its part under a lease it renews; a part whose
 * lease ran out (or was released: lease 0) is adopted by the next page load or another tab.
 */
export type StoredQueue<E = unknown> = { owners: Record<string, { lease: number; entries: Array<QueueEntry<E>> }> };

/**
 * Adds `entries` to the stored queue as a released part: the next page load (or another tab) sends them.
 * What a page hands over when it leaves before its Insights module could send them.
 *
 * @example
 * storeReleased(keptValues(), 'svc-insights-queue:SVCLOCAL', [{ id, event }]);
 */
export function storeReleased(kept: KeptValues, queueKey: string, entries: QueueEntry[]): void {
  if (!entries.length) return;
  const stored = kept.read<Partial<StoredQueue>>(queueKey)?.owners;
  const owners: StoredQueue['owners'] = stored && typeof stored === 'object' ? stored : {};
  owners[randomId()] = { lease: 0, entries };
  kept.write(queueKey, { owners });
}
