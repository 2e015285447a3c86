import { StoreController } from './store-controller.js';

/** One sort order: the index (or replica) that implements it, and its label. */
export interface SortByItem {
  /** Name of the index or replica searched for this order. */
  value: string;
  label: string;
}

/**
 * Headless logic of `<svc-sort-by>`: the sort orders (one index or replica each), the one in effect, and
 * `refine(indexName)`, which switches the store to that index (the refinements and query are kept, the
 * page goes back to the first).
 *
 * @example
 * ```ts
 * class SortSelect extends LitElement {
 *   private sort = new SortByController(this, { store });
 *   constructor() {
 *     super();
 *     this.sort.items = [
 *       { value: 'products', label: 'Most popular' },
 *       { value: 'products_price_asc', label: 'Lowest price' },
 *     ];
 *   }
 *   render() {
 *     return html`<select @change=${(e) => this.sort.refine(e.target.value)}>
 *       ${this.sort.items.map((item) => html`<option value=${item.value} ?selected=${item.value === this.sort.currentIndex}>${item.label}</option>`)}
 *     </select>`;
 *   }
 * }
 * ```
 */
export class SortByController extends StoreController {
  /** The sort orders offered, usually the main index first. */
  items: SortByItem[] = [];

  /** The index searched now (the main index until a replica is chosen). */
  get currentIndex(): string {
    return this.snapshot?.state.indexName ?? this.store?.baseIndex ?? '';
  }

  /** The item of the index searched now (undefined when it is not among `items`). */
  get currentItem(): SortByItem | undefined {
    return this.items.find((item) => item.value === this.currentIndex);
  }

  /** Searches `indexName` from now on; it must be one of `items`. */
  refine(indexName: string): void {
    if (!this.items.some((item) => item.value === indexName)) {
      throw new RangeError(
        `svc-sort-by: "${indexName}" is not one of the sort orders (${this.items.map((item) => item.value).join(', ') || 'none given'})`,
      );
    }
    if (indexName !== this.currentIndex) this.store?.setIndex(indexName);
  }
}
