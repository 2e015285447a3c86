/**
 * The events one part of the service sends to others, as a typed map: the name says who sends, the payload
 * type what it carries, and `createServices` (`services.ts`) is where every listener is attached — so a
 * reader sees that stored Insights events feed the recommender and the personalizer.
 *
 * Listeners are called in the order they were attached when the event is emitted, and `emit` resolves once
 * every listener has finished (a listener may be async); a listener that fails is logged and does not stop
 * the others (a failing consumer never fails the request that stored the events).
 */
import type { EventRow } from './storage/types.js';

/** The search an event's queryID refers to, with whether the event fell within its conversion window. */
export interface EventSearch {
  /** The index the search ran on (a replica when sorted). */
  indexName: string;
  query: string;
  /** When the search was answered (ms). */
  at: number;
  /** Position of each objectID in that answer (1-based, across pages), `null` when not among its hits. */
  positions: Array<number | null>;
  /** Whether the event fell within one hour of its search (the conversion window). */
  withinWindow: boolean;
}

export interface StoredEvent extends Omit<EventRow, 'search'> {
  search?: EventSearch;
}

export interface ServiceEvents {
  /** Insights events just stored (`POST /1/events`, the demo's order history): oldest first. */
  'insights:events': readonly StoredEvent[];
  /** `DELETE /1/usertokens/{userToken}` deleted this many stored events of the token. */
  'insights:usertoken-deleted': { userToken: string; events: number };
}

type Listener<T> = (payload: T) => Promise<void> | void;

/**
 * A typed publish/subscribe bus.
 *
 * @example
 * const bus = new EventBus<ServiceEvents>();
 * const off = bus.on('insights:events', (events) => console.log(events.length));
 * await bus.emit('insights:events', stored);
 * off();
 */
export class EventBus<M extends object> {
  readonly #listeners = new Map<keyof M, Set<Listener<never>>>();

  /** Calls `listener` for every `type` event from now on; returns the function that detaches it. */
  on<K extends keyof M>(type: K, listener: Listener<M[K]>): () => void {
    let listeners = this.#listeners.get(type);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(type, listeners);
    }
    listeners.add(listener as Listener<never>);
    return () => {
      listeners.delete(listener as Listener<never>);
    };
  }

  async emit<K extends keyof M>(type: K, payload: M[K]): Promise<void> {
    const running: Array<Promise<void> | void> = [];
    for (const listener of [...(this.#listeners.get(type) ?? [])]) {
      try {
        running.push((listener as Listener<M[K]>)(payload));
      } catch (error) {
        running.push(Promise.reject(error));
      }
    }
    for (const outcome of await Promise.allSettled(running)) {
      if (outcome.status === 'rejected')
        console.error(`[svc-search] a listener of ${String(type)} failed`, outcome.reason);
    }
  }
}
