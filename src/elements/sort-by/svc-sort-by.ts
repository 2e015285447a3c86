import { html, type PropertyDeclarations } from 'lit';
import { SortByController, type SortByItem } from '../../controllers/sort-by-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of `svc-sort-change`. */
export interface SvcSortChangeEventDetail {
  /** The index (or replica) now searched. */
  value: string;
}

let sequence = 0;

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
 * @event svc-sort-change - The user chose a sort order. `detail: { value }` (the index name).
 */
export class SvcSortBy extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    items: { attribute: false },
    hideLabel: { type: Boolean, attribute: 'hide-label' },
    optionItems: { state: true, attribute: false },
  };
  static override defaultTranslations = {
    label: 'Sort by',
  };

  /** The sort orders; when unset, the `<option>` children give them. */
  declare items: SortByItem[] | undefined;
  /** Keep the label for screen readers only. */
  declare hideLabel: boolean;
  private declare optionItems: SortByItem[];

  private readonly sort = new SortByController(this, { store: () => this.store });
  private readonly selectId = `svc-sort-by-${++sequence}`;
  private readonly observer = new MutationObserver(() => this.readOptions());

  constructor() {
    super();
    this.hideLabel = false;
    this.optionItems = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.readOptions();
    this.observer.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer.disconnect();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    this.sort.items = this.items ?? this.optionItems;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    // The state may change elsewhere (routing, another element): show it even after the user used the select.
    const select = this.renderRoot.querySelector('select');
    if (select && select.value !== this.sort.currentIndex) select.value = this.sort.currentIndex;
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

  private readOptions(): void {
    const items = [...this.querySelectorAll(':scope > option')].map((option) => ({
      value: (option as HTMLOptionElement).value,
      label: option.textContent?.trim() || (option as HTMLOptionElement).value,
    }));
    // The observer also sees the host's own attributes: only a real change of the options re-renders.
    if (JSON.stringify(items) !== JSON.stringify(this.optionItems)) this.optionItems = items;
  }

  private onChange(event: Event): void {
    const value = (event.target as HTMLSelectElement).value;
    this.sort.refine(value);
    this.dispatchEvent(
      new CustomEvent<SvcSortChangeEventDetail>('svc-sort-change', { detail: { value }, bubbles: true, composed: true }),
    );
  }

  override render() {
    const current = this.sort.currentIndex;
    return html`<div part="base">
      <label part="label" for=${this.selectId} class=${this.hideLabel ? 'visually-hidden' : ''}>${this.t('label')}</label>
      <select part="select" id=${this.selectId} @change=${this.onChange}>
        ${this.sort.items.map(
          (item) => html`<option value=${item.value} ?selected=${item.value === current}>${item.label}</option>`,
        )}
      </select>
    </div>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-sort-change': CustomEvent<SvcSortChangeEventDetail>;
  }
}
