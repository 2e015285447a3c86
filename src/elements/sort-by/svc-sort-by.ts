import type { PropertyDeclarations } from 'lit';
import { SortByController, type SortByItem } from '../../controllers/sort-by-controller.js';
import { SvcSelectElement } from '../base/select-element.js';

/** `detail` of `svc-sort-change`. */
export interface SvcSortChangeEventDetail {
  /** The index (or replica) now searched. */
  value: string;
}

/**
 * A labelled select of sort orders, each an index replica ("Most popular", "Lowest price"…).
 *
 * The orders come from the `items` property (`[{ value: 'products_price_asc', label: 'Lowest price' }]`)
 * or, without JavaScript, from `<option value="replica">Label</option>` children (read again when they
 * change). Choosing one searches that replica with the same query and refinements, from the first page.
 *
 * Translations: `label` ("Sort by").
 *
 * @tagname svc-sort-by
 * @summary A labelled select of sort orders, each an index replica ("Most popular", "Lowest price"…).
 *
 * @example
 * ```html
 * <svc-sort-by>
 *   <option value="products">Most popular</option>
 *   <option value="products_price_asc">Lowest price</option>
 *   <option value="products_price_desc">Highest price</option>
 * </svc-sort-by>
 * ```
 *
 * @csspart base - The wrapper of label and select.
 * @csspart label - The visible label (visually hidden with `hide-label`).
 * @csspart select - The `select`.
 *
 * @cssproperty --svc-select-height - Height of the select (default `2.25rem`).
 * @cssproperty --svc-select-background - Background of the select.
 * @cssproperty --svc-border-color - Border of the select.
 * @cssproperty --svc-muted-color - Colour of the label.
 * @cssproperty --svc-accent - Focus ring.
 *
 * @event {CustomEvent<SvcSortChangeEventDetail>} svc-sort-change - The user chose a sort order. `detail: { value }` (the index name).
 */
export class SvcSortBy extends SvcSelectElement<string, SortByItem> {
  static override properties: PropertyDeclarations = { items: { attribute: false } };
  static override defaultTranslations = {
    label: 'Sort by',
  };

  /**
   * The sort orders; when unset, the `<option>` children give them.
   */
  declare items: SortByItem[] | undefined;
  protected readonly changeEvent = 'svc-sort-change';
  private readonly sort = new SortByController(this, { store: () => this.store });

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    this.sort.items = this.items ?? this.optionItems;
  }

  protected current() {
    return this.sort.currentIndex;
  }

  protected get choices(): readonly SortByItem[] {
    return this.sort.items;
  }

  /** The index searched now. */
  get value(): string {
    return this.sort.currentIndex;
  }

  /** Switches to a sort order (one of the items) as if the user chose it (fires no event). */
  refine(indexName: string): void {
    this.sort.items = this.items ?? this.optionItems;
    this.sort.refine(indexName);
  }

  protected itemOf(option: HTMLOptionElement): SortByItem {
    return { value: option.value, label: option.textContent?.trim() || option.value };
  }

  protected parse(value: string): string {
    return value;
  }

  protected choose(value: string): void {
    this.sort.refine(value);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-sort-change': CustomEvent<SvcSortChangeEventDetail>;
  }
}
