/**
 * `maxQueriesPerIPPerHour` (document 1, "API keys", Limits): calls per hour per key and per caller (the user
 * token the call carries, else its IP). The counters are memory: they are kept for the current hour only
 * (the previous hour's go as soon as a call of the new hour comes) and their number is bounded whatever callers
 * send: past {@link DEFAULT_MAX_COUNTERS} callers in one hour, every new caller of a key shares one counter of
 * that key — so sending a new `X-Service-UserToken` with each call neither grows memory nor escapes the limit.
 */
import { ServiceError } from '../errors.js';

/** Distinct (key, caller) counters kept in one hour before new callers share their key's overflow counter. */
export const DEFAULT_MAX_COUNTERS = 100_000;
const HOUR_MS = 3_600_000;

/**
 * @example
 * const limiter = new RateLimiter(() => Date.now());
 * limiter.count('key-value', 3, 'user-42'); // throws ServiceError(429) on the 4th call of the hour
 */
export class RateLimiter {
  readonly #now: () => number;
  readonly #maxCounters: number;
  #hour = Number.NaN;
  readonly #counters = new Map<string, number>();

  constructor(now: () => number = Date.now, maxCounters = DEFAULT_MAX_COUNTERS) {
    this.#now = now;
    this.#maxCounters = maxCounters;
  }

  /** Counters kept now (the callers of this hour, at most the bound plus one overflow counter per key). */
  get size(): number {
    return this.#counters.size;
  }

  /** Counts one call of `caller` with `key` (limited to `limit` per hour); 429 above it. */
  count(key: string, limit: number, caller: string): void {
    const hour = Math.floor(this.#now() / HOUR_MS);
    if (hour !== this.#hour) {
      // A new hour: the previous hour's counters mean nothing any more.
      this.#counters.clear();
      this.#hour = hour;
    }
    let id = `${key}\u0000${caller}`;
    if (!this.#counters.has(id) && this.#counters.size >= this.#maxCounters) id = `${key}\u0000\u0000overflow`;
    const count = (this.#counters.get(id) ?? 0) + 1;
    this.#counters.set(id, count);
    if (count > limit) {
      throw new ServiceError(429, 'Too many requests: maxQueriesPerIPPerHour of this API key is exceeded');
    }
  }
}
