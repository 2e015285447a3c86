import type { Hit } from '../client/types.js';
import type { SearchResults, SearchStore, StoreSnapshot } from '../store/types.js';
import { HitsController, type HitItem } from './hits-controller.js';

/** A hit of the accumulated list, with the page it came from. */
export interface InfiniteHitItem<T = Record<string, unknown>> extends HitItem<T> {
  /** The page (0-based) whose answer holds the hit; `ref.queryID` and `ref.position` are that answer's. */
  page: number;
}

/**
 * Headless logic of `<svc-infinite-hits>`: the hits of consecutive pages accumulated in one list, each with
 * the queryID of its own page's answer and its absolute position (`page × hitsPerPage + index + 1`), and
 * `showMore()` / `showPrevious()`, which ask the store for the page after the last one loaded or before the
 * first one (the store's `page` is the page last asked for, so routing writes it into the URL).
 *
 * The list starts over when anything but the page changes — query, refinements, index (sort), hits per
 * page, another store — and also when a page that does not touch the loaded ones arrives (a pagination
 * elsewhere jumping ahead), so the list never has a gap. An answer is taken only once no newer search is
 * pending: the store's state is then the one that produced it. Pages are kept as the store gave them, so
 * each hit object (and the DOM rendered for it) stays the same while more pages are added.
 *
 * @example
 * ```ts
 * class MoreResults extends LitElement {
 *   private results = new InfiniteHitsController(this, { store, insights });
 *   render() {
 *     return html`<ol>${this.results.items.map(({ hit, ref }) => html`<li>${ref.position}. ${hit.name}</li>`)}</ol>
 *       <button ?hidden=${!this.results.canShowMore} @click=${() => this.results.showMore()}>Show more</button>`;
 *   }
 * }
 * ```
 */
export class InfiniteHitsController<T = Record<string, unknown>> extends HitsController<T> {
  /** Answers of the pages loaded, by page; always consecutive. */
  #pages = new Map<number, SearchResults<T>>();
  /** What the loaded pages share: the state without its page, the page size, the store. */
  #key = '';
  #storeOfPages: SearchStore | undefined;
  #taken: unknown;

  protected override onSnapshot(snapshot: StoreSnapshot): void {
    const results = snapshot.results as SearchResults<T> | null;
    // Wait for the newest answer: while a search is pending, the state is ahead of the results shown.
    if (!results || results === this.#taken || /^(loading|stalled)$/.test(snapshot.status)) return;
    this.#taken = results;
    const key = JSON.stringify([{ ...snapshot.state, page: 0 }, results.hitsPerPage]);
    const page = results.page;
    const store = this.store;
    if (
      key !== this.#key ||
      store !== this.#storeOfPages ||
      !(this.#pages.has(page - 1) || this.#pages.has(page + 1) || this.#pages.has(page))
    ) {
      this.#pages = new Map();
      this.#key = key;
      this.#storeOfPages = store;
    }
    this.#pages.set(page, results);
  }

  /** The pages loaded, in order (empty before the first answer). */
  get pages(): number[] {
    return [...this.#pages.keys()].sort((a, b) => a - b);
  }

  /** The first page loaded (undefined before the first answer). */
  get firstPage(): number | undefined {
    return this.pages[0];
  }

  /** The last page loaded (undefined before the first answer). */
  get lastPage(): number | undefined {
    return this.pages.at(-1);
  }

  /** Every hit of the pages loaded, in order. */
  override get hits(): Array<Hit<T>> {
    return this.items.map((item) => item.hit);
  }

  /** The hits of the pages loaded, each with its page, index within the page, absolute position and queryID. */
  override get items(): Array<InfiniteHitItem<T>> {
    const indexName = this.snapshot?.state.indexName ?? '';
    return this.pages.flatMap((page) => {
      const results = this.#pages.get(page)!;
      const { hitsPerPage, queryID } = results;
      return results.hits.map((hit, index) => ({
        hit,
        index,
        page,
        ref: {
          objectID: hit.objectID,
          queryID,
          position: page * hitsPerPage + index + 1,
          indexName: results.index ?? indexName,
        },
      }));
    });
  }

  /** True when the search has no hits at all (not merely a page past the last one). */
  override get isEmpty(): boolean {
    return this.snapshot?.results?.nbHits === 0;
  }

  /** Whether there are pages after the last one loaded. */
  get canShowMore(): boolean {
    const last = this.lastPage;
    return last !== undefined && last < this.#pages.get(last)!.nbPages - 1;
  }

  /** Whether the list starts after the first page (e.g. a URL with a page). */
  get canShowPrevious(): boolean {
    return (this.firstPage ?? 0) > 0;
  }

  /**
   * Asks for the page after the last one loaded; returns it (undefined when there is none). Asking again
   * while it loads changes nothing; asking again after it failed searches again.
   */
  showMore(): number | undefined {
    return this.canShowMore ? this.#load(this.lastPage! + 1) : undefined;
  }

  /** Asks for the page before the first one loaded; returns it (undefined when the first page is loaded). */
  showPrevious(): number | undefined {
    return this.canShowPrevious ? this.#load(this.firstPage! - 1) : undefined;
  }

  #load(page: number): number | undefined {
    const store = this.store;
    if (!store) return undefined;
    const { state, status } = store.getSnapshot();
    // The same page again after an error: the store only searches a changed state, so search it again.
    if (state.page === page && status === 'error') store.refresh();
    else store.setPage(page);
    this.host.requestUpdate();
    return page;
  }
}
