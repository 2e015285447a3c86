import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { RefinementListController, type RefinementItem } from '../../controllers/refinement-list-controller.js';
import { REFINEMENT_LIST_DEFAULTS } from '../../controllers/first-search-needs.js';
import { DEFAULT_REFINEMENT_SORT, type RefinementSortCriterion } from '../../controllers/value-sort.js';
import { SvcElement } from '../base/svc-element.js';
import { renderHighlight } from '../base/highlight.js';
import { styles } from './styles.js';

/** `detail` of `svc-refine`. */
export interface SvcRefineEventDetail {
  attribute: string;
  value: string;
  /** Whether the value is now refined (checked). */
  refined: boolean;
}

/**
 * @tagname svc-refinement-list
 * @summary Checkboxes for the values of one facet with their counts: refine by any (`operator="or"`, the
 * default) or all (`and`) of them, show more/less, and an optional search among the values.
 *
 * Refined values come first, then by count, then by name (`sort-by` changes it). With `searchable`, the
 * attribute must be declared `searchable(attribute)` in the index's `attributesForFaceting`.
 *
 * @csspart search-input - The field searching the values (with `searchable`).
 * @csspart list - The `ul` of values.
 * @csspart item - Each value's `li`; refined values also have the part `selected-item`.
 * @csspart label - The `label` wrapping checkbox, text and count.
 * @csspart checkbox - The checkbox.
 * @csspart label-text - The value (with `mark part="highlighted"` around matches while searching).
 * @csspart highlighted - Matched part of a value found by the search.
 * @csspart count - The count.
 * @csspart no-results - The message when the search matches no value.
 * @csspart show-more - The show more/less button.
 *
 * @cssproperty --svc-accent - Checkbox and show-more colour.
 * @cssproperty --svc-count-background - Background of the counts.
 * @cssproperty --svc-border-color - Border of the search field.
 * @cssproperty --svc-muted-color - Colour of counts and messages.
 * @cssproperty --svc-gap - Space between items.
 *
 * @event svc-refine - The user turned a value on or off. `detail: { attribute, value, refined }`.
 *
 * Translations: `listLabel` ("Filter by {attribute}"), `searchPlaceholder` ("Search {attribute}…"),
 * `searchLabel` ("Search the values of {attribute}"), `noValues` ("No values match “{query}”."),
 * `showMore` ("Show more"), `showLess` ("Show less"), `count` ("{count}").
 */
export class SvcRefinementList extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    operator: {},
    limit: { type: Number },
    showMore: { type: Boolean, attribute: 'show-more' },
    showMoreLimit: { type: Number, attribute: 'show-more-limit' },
    searchable: { type: Boolean },
    sortBy: {
      attribute: 'sort-by',
      converter: (value: string | null) => value?.split(',').map((criterion) => criterion.trim()),
    },
  };
  static override defaultTranslations = {
    listLabel: 'Filter by {attribute}',
    searchPlaceholder: 'Search {attribute}…',
    searchLabel: 'Search the values of {attribute}',
    noValues: 'No values match “{query}”.',
    showMore: 'Show more',
    showLess: 'Show less',
    count: '{count}',
  };

  /** The facet attribute. */
  attribute = '';
  /** `or` (default): hits with any checked value; `and`: hits with all of them. */
  // The defaults written out for the element reference; REFINEMENT_LIST_DEFAULTS (what the first-paint script
  // assumes) is checked equal by test/prepaint/page.browser.test.ts.
  operator: 'or' | 'and' = 'or';
  /** Values shown (default 10). */
  limit = 10;
  /** Show a button revealing up to `show-more-limit` values. */
  showMore = false;
  /** Values shown after "Show more" (default 20). */
  showMoreLimit = 20;
  /** Show a field searching the values (search for facet values). */
  searchable = false;
  /** Comma-separated criteria: `isRefined`, `count[:asc|:desc]`, `name[:asc|:desc]` (default `isRefined,count:desc,name:asc`). */
  declare sortBy: RefinementSortCriterion[] | undefined;

  #list = new RefinementListController(this, { store: () => this.store, insights: () => this.insights });
  #items: RefinementItem[] = [];
  #focused: string | undefined;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (this.operator !== 'or' && this.operator !== 'and') {
      console.error(`<svc-refinement-list>: operator must be "or" or "and", not "${this.operator}"; using "or".`);
      this.operator = 'or';
    }
    Object.assign(this.#list, {
      attribute: this.attribute,
      operator: this.operator,
      limit: this.limit > 0 ? this.limit : REFINEMENT_LIST_DEFAULTS.limit,
      showMore: this.showMore,
      showMoreLimit: this.showMoreLimit,
      sortBy: this.sortBy ?? DEFAULT_REFINEMENT_SORT,
    });
    // The list is not keyed: remember which value has the focus, to keep it there when values move.
    const active = this.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
    this.#focused = active?.type === 'checkbox' ? active.value : undefined;
  }

  protected override firstUpdated(): void {
    if (!this.attribute)
      console.error('<svc-refinement-list>: the `attribute` attribute is required (the facet to list).');
  }

  protected override updated(): void {
    // Each checkbox shows the store's state (also when a click did not refine) and the focus follows its value.
    this.renderRoot.querySelectorAll<HTMLInputElement>('[part~=checkbox]').forEach((box, i) => {
      box.checked = this.#items[i]!.isRefined;
      if (box.value === this.#focused) box.focus();
    });
  }

  /** The values shown. */
  get items(): RefinementItem[] {
    return this.#list.items;
  }

  /** Whether there is anything to choose (a value, or a refined one to turn off): `<svc-panel>` reads it. */
  get canRefine(): boolean {
    return this.#list.canRefine;
  }

  /** Turns a value on or off as if the user clicked it (fires no event). */
  refine(value: string): boolean {
    return this.#list.refine(value);
  }

  #change(value: string): void {
    const refined = this.#list.refine(value);
    this.requestUpdate();
    this.emit<SvcRefineEventDetail>('svc-refine', { attribute: this.attribute, value, refined });
  }

  #onSearchKeydown(event: KeyboardEvent, found: boolean, items: RefinementItem[]): void {
    const input = event.target as HTMLInputElement;
    if (event.key === 'Escape' && input.value) {
      event.stopPropagation();
      input.value = '';
      void this.#list.searchForItems('');
    } else if (event.key === 'Enter') {
      // Enter picks the first match, as in InstantSearch.
      if (found && items[0]) this.#change(items[0].value);
    } else {
      return;
    }
    event.preventDefault();
  }

  #renderSearch(found: boolean, items: RefinementItem[]) {
    const { attribute } = this;
    const list = this.#list;
    return html`
      <input
        part="search-input"
        type="search"
        autocomplete="off"
        spellcheck="false"
        maxlength="512"
        aria-label=${this.t('searchLabel', { attribute })}
        placeholder=${this.t('searchPlaceholder', { attribute })}
        .value=${list.facetQuery}
        @input=${(event: Event) => list.searchForItems((event.target as HTMLInputElement).value)}
        @keydown=${(event: KeyboardEvent) => this.#onSearchKeydown(event, found, items)}
      />
    `;
  }

  #renderItem(item: RefinementItem) {
    return html`
      <li part=${item.isRefined ? 'item selected-item' : 'item'}>
        <label part="label">
          <input
            part="checkbox"
            type="checkbox"
            .value=${item.value}
            ?checked=${item.isRefined}
            @change=${() => this.#change(item.value)} />
          <span part="label-text">${item.highlighted ? renderHighlight(item.highlighted) : item.label}</span>
          <span part="count">${this.t('count', { count: item.count })}</span>
        </label>
      </li>
    `;
  }

  override render() {
    const { attribute } = this;
    const list = this.#list;
    const items = list.items;
    this.#items = items;
    const found = list.isFromSearch && !list.isSearching;
    return html`
      ${this.searchable ? this.#renderSearch(found, items) : nothing}
      <ul part="list" id="list" aria-label=${this.t('listLabel', { attribute })} ?hidden=${!items.length}>
        ${items.map((item) => this.#renderItem(item))}
      </ul>
      <div role="status">
        ${
          found && !items.length
            ? html`<p part="no-results">${this.t('noValues', { query: list.facetQuery })}</p>`
            : nothing
        }
      </div>
      <button
        part="show-more"
        type="button"
        aria-controls="list"
        aria-expanded=${list.isShowingMore}
        ?hidden=${!list.canToggleShowMore}
        @click=${() => list.toggleShowMore()}
      >${this.t(list.isShowingMore ? 'showLess' : 'showMore')}</button>
    `;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-refine': CustomEvent<SvcRefineEventDetail>;
  }
}
