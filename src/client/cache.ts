/**
 * A small LRU cache with a time to live, used for responses (client) and for seen search states (store).
 * Entries are bounded by count (`maxEntries`); a read refreshes recency, not age.
 */
import { fail } from './errors.js';

/** Defaults of the response caches: 2 minutes, 100 entries. */
export const DEFAULT_CACHE_TTL_MS = 120_000;
export const DEFAULT_CACHE_MAX_ENTRIES = 100;

/**
 * LRU + TTL map.
 *
 * @example
 * const cache = new LruCache<string>({ ttlMs: 1000, maxEntries: 2 });
 * cache.set('a', 'x'); cache.get('a'); // 'x'
 */
export class LruCache<V> {
  #map = new Map<string, [V, number]>();
  #ttl: number;
  #max: number;

  constructor({
    ttlMs = DEFAULT_CACHE_TTL_MS,
    maxEntries = DEFAULT_CACHE_MAX_ENTRIES,
  }: { ttlMs?: number; maxEntries?: number } = {}) {
    if (!(ttlMs > 0 && maxEntries >= 1)) fail('cache: ttlMs and maxEntries must be > 0', RangeError);
    this.#ttl = ttlMs;
    this.#max = maxEntries;
  }

  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    this.#map.delete(key);
    // Re-inserted: Map iteration order is insertion order, so the first key is the least recently used.
    if (!entry || entry[1] <= Date.now()) return undefined;
    this.#map.set(key, entry);
    return entry[0];
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, [value, Date.now() + this.#ttl]);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value!);
  }

  clear(): void {
    this.#map.clear();
  }
}
