/**
 * Typed errors of the search client.
 *
 * A 4xx answer becomes an {@link ApiError} at once (it is never retried: the same request would fail on
 * every host). When every host failed with a network error, a timeout or a 5xx, the call ends with a
 * {@link RetryError} that lists what happened on each host.
 */

/**
 * The service refused the call: `status` is the HTTP status, `message` the server's `message` field.
 *
 * @example
 * try { await client.search('nope') } catch (e) { if (e instanceof ApiError && e.status === 404) … }
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** What went wrong on one host during a call. */
export interface HostAttempt {
  host: string;
  /** `network`, `timeout` or `status` (a 5xx answer). */
  reason: 'network' | 'timeout' | 'status';
  status?: number;
  message: string;
}

/**
 * Every host failed (network error, timeout or 5xx). `status` is the last 5xx status seen, or 0 when no
 * host answered at all; `attempts` has one entry per host tried, in order.
 *
 * @example
 * catch (e) { if (e instanceof RetryError) console.warn(e.attempts.map((a) => a.host)) }
 */
export class RetryError extends ApiError {
  override name = 'RetryError';
  constructor(readonly attempts: HostAttempt[]) {
    super(
      'Unreachable hosts: ' +
        (attempts.map((a) => `${a.host} (${a.reason}${a.status ? ` ${a.status}` : ''}: ${a.message})`).join(', ') ||
          'none accepts the call'),
      attempts.findLast((a) => a.status)?.status ?? 0,
    );
  }
}
