/**
 * The bytes that request bodies hold in memory, across every connection of one service process: each body
 * is bounded by its path's limit, and their sum by this budget, so memory stays bounded however many
 * clients send at once.
 */

/** (Its ceiling: the `maxBodyBytesInFlight` option, 64 MB by default, `config.ts`.) */

/**
 * A counter of the bytes request bodies hold, with a ceiling: `take` refuses what would go above it (the
 * caller answers 503), `release` gives bytes back when the request's answer is done.
 *
 * @example
 * const budget = new BodyBudget(64 * 1024 * 1024);
 * if (!budget.take(chunk.byteLength)) throw new ServiceError(503, '…');
 * budget.release(chunk.byteLength); // once the answer is written
 */
export class BodyBudget {
  /** The ceiling, in bytes. */
  readonly limit: number;
  #held = 0;
  #taken = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes held now by the bodies of requests in flight. */
  get held(): number {
    return this.#held;
  }

  /** Bytes ever taken (a counter that only grows): what was buffered, as opposed to drained and dropped. */
  get taken(): number {
    return this.#taken;
  }

  /** Takes `bytes` if they fit under the ceiling; false (nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    this.#taken += bytes;
    return true;
  }

  /** Gives back bytes taken earlier. */
  release(bytes: number): void {
    this.#held -= bytes;
  }
}
