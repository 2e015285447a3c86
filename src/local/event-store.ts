/**
 * Insights events kept in the browser when there is no Insights host: IndexedDB database
 * `svc-search-local`, object store `events` (auto-incremented keys, so oldest first). The `svc-insights`
 * DOM events show them as they are queued; this store keeps them across page loads for the page's own use.
 */
import type { InsightsEvent } from '../client/types.js';

const DATABASE = 'svc-search-local';
const STORE = 'events';
/** The store keeps the newest events only (memory and disk stay bounded whatever a page sends). */
export const MAX_STORED_EVENTS = 10_000;

export interface LocalEventStore {
  add(events: InsightsEvent[]): Promise<void>;
  all(): Promise<InsightsEvent[]>;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * Opens (creating it the first time) the local event store.
 *
 * @example
 * const store = openLocalEventStore();
 * await store.add([{ eventType: 'click', eventName: 'Hit clicked', index: 'products', userToken: 'u1', objectIDs: ['1'], queryID, positions: [1] }]);
 */
export function openLocalEventStore(): LocalEventStore {
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return {
    async add(events) {
      const db = await opening;
      const transaction = db.transaction(STORE, 'readwrite');
      const store = transaction.objectStore(STORE);
      for (const event of events) store.add(event);
      const count = await done(store.count());
      if (count > MAX_STORED_EVENTS) {
        const oldest = await done(store.getAllKeys(null, count - MAX_STORED_EVENTS));
        for (const key of oldest) store.delete(key);
      }
      await finished(transaction);
    },
    async all() {
      const db = await opening;
      return (await done(db.transaction(STORE).objectStore(STORE).getAll())) as InsightsEvent[];
    },
  };
}
