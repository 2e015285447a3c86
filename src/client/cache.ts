/**
 * A small LRU cache with a time to live, used for responses (client) and for seen search states (store).
 * Entries are bounded by count (`maxEntries`); a read refreshes recency, not age.
 */

/** Defaults of the response caches: 2 minutes, 100 entries. */
export const DEFAULT_CACHE_TTL_MS = 2 * 60_000;
export const DEFAULT_CACHE_MAX_ENTRIES = 100;

/**
 * LRU + TTL map. `now` is injectable for tests.
 *
 * @example
 * const cache = new LruCache<string>({ ttlMs: 1000, maxEntries: 2 });
 * cache.set('a', 'x'); cache.get('a'); // 'x'
 */
export class LruCache<V> {
  readonly ttlMs: number;
  readonly maxEntries: number;
  #map = new Map<string, { value: V; expires: number }>();
  #now: () => number;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES;
    if (!(this.ttlMs > 0)) throw new RangeError(`cache ttlMs must be > 0, got ${this.ttlMs}`);
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) throw new RangeError(`cache maxEntries must be an integer ≥ 1, got ${this.maxEntries}`);
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#now()) {
      this.#map.delete(key);
      return undefined;
    }
    // Re-insert: Map iteration order is insertion order, so the first key is the least recently used.
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expires: this.#now() + this.ttlMs });
    while (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next().value as string;
      this.#map.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
