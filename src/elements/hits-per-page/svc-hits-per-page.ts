import type { PropertyDeclarations } from 'lit';
import { HitsPerPageController, type HitsPerPageItem } from '../../controllers/hits-per-page-controller.js';
import { SvcSelectElement } from '../base/select-element.js';

/** `detail` of `svc-hits-per-page-change`. */
export interface SvcHitsPerPageChangeEventDetail {
  /** The number of hits per page now used. */
  value: number;
}

/**
 * A labelled select of page sizes ("20 per page", "40 per page"…).
 *
 * The sizes come from the `items` property (`[{ value: 20, label: '20 per page', default: true }]`) or,
 * without JavaScript, from `<option value="20" selected>20 per page</option>` children (`selected` marks
 * the default; the first option when none is). The default size is used from the first search on;
 * choosing a size goes back to the first page. A size that is not a positive integer is a clear error.
 *
 * Translations: `label` ("Results per page"), `item` ("{count} per page", the label of an item given
 * without one).
 *
 * @tagname svc-hits-per-page
 * @summary A labelled select of page sizes ("20 per page", "40 per page"…).
 *
 * @example
 * ```html
 * <svc-hits-per-page>
 *   <option value="12" selected>12 per page</option>
 *   <option value="24">24 per page</option>
 *   <option value="48">48 per page</option>
 * </svc-hits-per-page>
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
 * @event {CustomEvent<SvcHitsPerPageChangeEventDetail>} svc-hits-per-page-change - The user chose a page size. `detail: { value }`.
 */
export class SvcHitsPerPage extends SvcSelectElement<number, HitsPerPageItem> {
  static override properties: PropertyDeclarations = { items: { attribute: false } };
  static override defaultTranslations = {
    label: 'Results per page',
    item: '{count} per page',
  };

  /**
   * The sizes offered; when unset, the `<option>` children give them.
   */
  declare items: HitsPerPageItem[] | undefined;
  protected readonly changeEvent = 'svc-hits-per-page-change';
  private readonly size = new HitsPerPageController(this, { store: () => this.store });

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const items = this.items ?? this.optionItems;
    try {
      this.size.items = items;
    } catch (error) {
      // A page author's mistake (e.g. `<option value="ten">`): say which, and keep the valid sizes.
      console.error(`<svc-hits-per-page>: ${(error as Error).message}`);
      let seenDefault = false;
      this.size.items = items
        .filter((item) => Number.isInteger(item.value) && item.value >= 1 && item.value <= 1000)
        .map((item) => {
          const isDefault = !!item.default && !seenDefault;
          seenDefault ||= isDefault;
          return { ...item, default: isDefault };
        });
    }
  }

  protected current() {
    return this.size.current;
  }

  protected get choices(): readonly HitsPerPageItem[] {
    return this.size.items;
  }

  /** The page size in effect. */
  get value(): number | undefined {
    return this.size.current;
  }

  /** Uses a page size (one of the items) as if the user chose it (fires no event). */
  refine(hitsPerPage: number): void {
    this.size.refine(hitsPerPage);
  }

  protected override labelOf(item: HitsPerPageItem): string {
    return item.label || this.t('item', { count: item.value });
  }

  protected itemOf(option: HTMLOptionElement): HitsPerPageItem {
    return {
      value: Number(option.getAttribute('value') ?? option.textContent),
      label: option.textContent?.trim() ?? '', // empty: the `item` translation at render time
      ...(option.hasAttribute('selected') ? { default: true } : {}),
    };
  }

  protected parse(value: string): number {
    return Number(value);
  }

  protected choose(value: number): void {
    this.size.refine(value);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-hits-per-page-change': CustomEvent<SvcHitsPerPageChangeEventDetail>;
  }
}
