import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { DEFAULT_MENU_SORT, MenuController } from '../../controllers/menu-controller.js';
import type { RefinementItem } from '../../controllers/refinement-list-controller.js';
import type { RefinementSortCriterion } from '../../controllers/value-sort.js';
import type { SvcRefineEventDetail } from '../refinement-list/svc-refinement-list.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/**
 * Pressing a value ("Furniture 375") selects it in place of the value selected; pressing the selected
 * value clears it.
 *
 * Each value is a toggle button (`aria-pressed="true"` on the selected one) in a labelled list, so Tab
 * reaches every value and Enter or Space toggles it; the focus stays on the value pressed when the selected
 * value moves to the top. Every value keeps the count it has without the selection (the facet is queried as
 * an OR facet, without its own refinement), so the alternatives stay readable. The attribute must be in the
 * index's `attributesForFaceting`. Turning a value on sends `Filter Applied` to Insights, as
 * `<svc-refinement-list>` does; record values are shown as text only.
 *
 * Translations: `listLabel` ("Filter by {attribute}"), `count` ("{count}"), `showMore` ("Show more"),
 * `showLess` ("Show less").
 *
 * @tagname svc-menu
 * @summary A single-select list of a facet's values with their counts: one value selected at a time,
 * pressing it again clears it; show more/less.
 *
 * @example
 * ```html
 * <svc-menu attribute="category"></svc-menu>
 * <svc-menu attribute="brand" limit="5" show-more show-more-limit="15" sort-by="count:desc,name:asc"></svc-menu>
 * ```
 *
 * @csspart list - The `ul` of values.
 * @csspart item - Each value's `li`; the selected one also has the part `selected-item`.
 * @csspart button - The toggle button of a value (`aria-pressed`), holding its text and count.
 * @csspart label-text - The value.
 * @csspart count - The count.
 * @csspart show-more - The show more/less button.
 *
 * @cssproperty --svc-menu-selected-background - Background of the selected value (default: the accent at 12 %).
 * @cssproperty --svc-count-background - Background of the counts.
 * @cssproperty --svc-accent - Selected background, focus ring and show-more colour.
 * @cssproperty --svc-muted-color - Colour of the counts.
 * @cssproperty --svc-radius - Corner radius of the buttons.
 * @cssproperty --svc-gap - Space between text and count, and before show more.
 *
 * @event {CustomEvent<SvcRefineEventDetail>} svc-refine - The user selected a value or cleared it. `detail: { attribute, value, refined }` (`refined` false when cleared).
 */
export class SvcMenu extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    limit: { type: Number },
    showMore: { type: Boolean, attribute: 'show-more' },
    showMoreLimit: { type: Number, attribute: 'show-more-limit' },
    sortBy: {
      attribute: 'sort-by',
      converter: (value: string | null) => value?.split(',').map((criterion) => criterion.trim()),
    },
  };
  static override defaultTranslations = {
    listLabel: 'Filter by {attribute}',
    count: '{count}',
    showMore: 'Show more',
    showLess: 'Show less',
  };

  /** The facet attribute. */
  attribute = '';
  /** Values shown (default 10). */
  limit = 10;
  /** Show a button revealing up to `show-more-limit` values. */
  showMore = false;
  /** Values shown after "Show more" (default 20). */
  showMoreLimit = 20;
  /** Comma-separated criteria: `isRefined`, `count[:asc|:desc]`, `name[:asc|:desc]` (default `isRefined,name:asc`). */
  declare sortBy: RefinementSortCriterion[] | undefined;

  #menu = new MenuController(this, { store: () => this.store, insights: () => this.insights });
  /** The value whose button has the focus before an update: the list is not keyed, the focus follows the value. */
  #focused: string | undefined;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#menu, {
      attribute: this.attribute,
      limit: this.limit > 0 ? this.limit : 10,
      showMore: this.showMore,
      showMoreLimit: this.showMoreLimit,
      sortBy: this.sortBy ?? DEFAULT_MENU_SORT,
    });
    const active = this.shadowRoot?.activeElement as HTMLButtonElement | null | undefined;
    this.#focused = active?.matches('[part~="button"]') ? active.value : undefined;
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-menu>: the `attribute` attribute is required (the facet to list).');
  }

  protected override updated(): void {
    if (this.#focused === undefined) return;
    for (const button of this.renderRoot.querySelectorAll<HTMLButtonElement>('[part~="button"]')) {
      if (button.value === this.#focused) button.focus();
    }
  }

  /** The values shown. */
  get items(): RefinementItem[] {
    return this.#menu.items;
  }

  /** The value selected (undefined when none). */
  get selected(): string | undefined {
    return this.#menu.selected;
  }

  /** Whether there is anything to choose (a value, or the selected one to clear): `<svc-panel>` reads it. */
  get canRefine(): boolean {
    return this.#menu.canRefine;
  }

  /** Selects a value, or clears it when it is the one selected, as if the user pressed it (fires no event); returns whether it is now selected. */
  refine(value: string): boolean {
    return this.#menu.refine(value);
  }

  #press(value: string): void {
    const refined = this.#menu.refine(value);
    this.emit<SvcRefineEventDetail>('svc-refine', { attribute: this.attribute, value, refined });
  }

  override render() {
    const menu = this.#menu;
    const items = menu.items;
    return html`
      <ul part="list" id="list" aria-label=${this.t('listLabel', { attribute: this.attribute })} ?hidden=${!items.length}>
        ${items.map(
          (item) => html`
            <li part=${item.isRefined ? 'item selected-item' : 'item'}>
              <button
                part="button"
                type="button"
                .value=${item.value}
                aria-pressed=${item.isRefined ? 'true' : 'false'}
                @click=${() => this.#press(item.value)}
              >
                <span part="label-text">${item.label}</span>
                <span part="count">${this.t('count', { count: item.count })}</span>
              </button>
            </li>
          `,
        )}
      </ul>
      <button
        part="show-more"
        type="button"
        aria-controls="list"
        aria-expanded=${menu.isShowingMore}
        ?hidden=${!menu.canToggleShowMore}
        @click=${() => menu.toggleShowMore()}
      >${this.t(menu.isShowingMore ? 'showLess' : 'showMore')}</button>
    `;
  }
}
