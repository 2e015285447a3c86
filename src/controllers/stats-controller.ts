import type { SearchStatus } from '../store/types.js';
import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-stats>`: the number of hits, the processing time and the state of the search,
 * from the latest results of the store.
 *
 * @example
 * ```ts
 * class ResultCount extends LitElement {
 *   private stats = new StatsController(this, { store });
 *   render() {
 *     return this.stats.hasResults ? html`${this.stats.nbHits} hits in ${this.stats.processingTimeMS} ms` : nothing;
 *   }
 * }
 * ```
 * Without Lit, any object with `addController`, `removeController` and `requestUpdate` is a host; call
 * `hostConnected()` to start and `hostDisconnected()` to stop listening.
 */
export class StatsController extends StoreController {
  /** True once the first results arrived. */
  get hasResults(): boolean {
    return !!this.snapshot?.results;
  }

  /** Number of hits of the latest results (0 before the first). */
  get nbHits(): number {
    return this.snapshot?.results?.nbHits ?? 0;
  }

  /** Whether `nbHits` is exact (the service may estimate very large counts). */
  get exhaustiveNbHits(): boolean {
    return this.snapshot?.results?.exhaustiveNbHits ?? true;
  }

  /** Server-side processing time of the latest results, in milliseconds. */
  get processingTimeMS(): number {
    return this.snapshot?.results?.processingTimeMS ?? 0;
  }

  /** The query the latest results answer (not the one being typed). */
  get query(): string {
    return this.snapshot?.results?.query ?? '';
  }

  /** Page (0-based), number of pages and hits per page of the latest results. */
  get page(): number {
    return this.snapshot?.results?.page ?? 0;
  }
  get nbPages(): number {
    return this.snapshot?.results?.nbPages ?? 0;
  }
  get hitsPerPage(): number {
    return this.snapshot?.results?.hitsPerPage ?? 0;
  }

  /** The store's status: `idle`, `loading`, `stalled` or `error`. */
  get status(): SearchStatus {
    return this.snapshot?.status ?? 'idle';
  }
}
