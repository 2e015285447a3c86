import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-search-box>`: the current query, whether the search is stalled (slow enough to show
 * a loading indicator), and the actions that change the query.
 *
 * @example
 * ```ts
 * class MySearchBox extends LitElement {
 *   private box = new SearchBoxController(this, { store });
 *   render() {
 *     return html`<input .value=${this.box.query} @input=${(e) => this.box.refine(e.target.value)}>
 *       ${this.box.isStalled ? 'Searching…' : ''}`;
 *   }
 * }
 * ```
 */
export class SearchBoxController extends StoreController {
  /** The query of the store's state. */
  get query(): string {
    return this.snapshot?.state.query ?? '';
  }

  /** True while a search has taken longer than the stalled delay. */
  get isStalled(): boolean {
    return this.snapshot?.status === 'stalled';
  }

  /** True while a search is running. */
  get isLoading(): boolean {
    return this.snapshot?.status === 'loading' || this.isStalled;
  }

  /** Searches for `query` (the store goes back to the first page). */
  refine(query: string): void {
    if (query !== this.query) this.store?.setQuery(query);
  }

  /** Empties the query. */
  clear(): void {
    this.refine('');
  }
}
