import { html, nothing, type PropertyDeclarations } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  DEFAULT_REFINEMENT_SORT,
  RefinementListController,
  type RefinementItem,
  type RefinementSortCriterion,
} from '../../controllers/refinement-list-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { renderHighlight } from '../base/highlight.js';
import { formatNumber } from '../base/translate.js';
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
      converter: (value: string | null) => (value ? value.split(',').map((criterion) => criterion.trim()) : undefined),
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
  declare attribute: string;
  /** `or` (default): hits with any checked value; `and`: hits with all of them. */
  declare operator: 'or' | 'and';
  /** Values shown (default 10). */
  declare limit: number;
  /** Show a button revealing up to `show-more-limit` values. */
  declare showMore: boolean;
  /** Values shown after "Show more" (default 20). */
  declare showMoreLimit: number;
  /** Show a field searching the values (search for facet values). */
  declare searchable: boolean;
  /** Comma-separated criteria: `isRefined`, `count[:asc|:desc]`, `name[:asc|:desc]` (default `isRefined,count:desc,name:asc`). */
  declare sortBy: RefinementSortCriterion[] | undefined;

  private readonly list = new RefinementListController(this, { store: () => this.store, insights: () => this.insights });

  constructor() {
    super();
    this.attribute = '';
    this.operator = 'or';
    this.limit = 10;
    this.showMore = false;
    this.showMoreLimit = 20;
    this.searchable = false;
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (this.operator !== 'or' && this.operator !== 'and') {
      console.error(`<svc-refinement-list>: operator must be "or" or "and", not "${this.operator}"; using "or".`);
      this.operator = 'or';
    }
    Object.assign(this.list, {
      attribute: this.attribute,
      operator: this.operator,
      limit: this.limit > 0 ? this.limit : 10,
      showMore: this.showMore,
      showMoreLimit: this.showMoreLimit,
      sortBy: this.sortBy ?? DEFAULT_REFINEMENT_SORT,
    });
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-refinement-list>: the `attribute` attribute is required (the facet to list).');
  }

  /** The values shown. */
  get items(): RefinementItem[] {
    return this.list.items;
  }

  /** Turns a value on or off as if the user clicked it (fires no event). */
  refine(value: string): boolean {
    return this.list.refine(value);
  }

  private onChange(item: RefinementItem, event?: Event): void {
    const refined = this.list.refine(item.value);
    // The box shows the store's state even if the refinement did not happen (no store yet).
    if (event) (event.target as HTMLInputElement).checked = refined;
    this.dispatchEvent(
      new CustomEvent<SvcRefineEventDetail>('svc-refine', {
        detail: { attribute: this.attribute, value: item.value, refined },
        bubbles: true,
        composed: true,
      }),
    );
  }

  private onSearchKeyDown(event: KeyboardEvent): void {
    const input = event.target as HTMLInputElement;
    if (event.key === 'Escape' && input.value) {
      event.preventDefault();
      event.stopPropagation();
      input.value = '';
      void this.list.searchForItems('');
    } else if (event.key === 'Enter') {
      // Enter picks the first match, as in InstantSearch.
      event.preventDefault();
      const first = this.list.isFromSearch && !this.list.isSearching ? this.list.items[0] : undefined;
      if (first) this.onChange(first);
    }
  }

  private renderItem(item: RefinementItem) {
    return html`<li part="item${item.isRefined ? ' selected-item' : ''}">
      <label part="label">
        <input part="checkbox" type="checkbox" .checked=${item.isRefined} @change=${(event: Event) => this.onChange(item, event)} />
        <span part="label-text">${item.highlighted ? renderHighlight(item.highlighted) : item.label}</span>
        <span part="count">${this.t('count', { count: formatNumber(item.count, this.language) })}</span>
      </label>
    </li>`;
  }

  override render() {
    const attribute = this.attribute;
    const items = this.list.items;
    const noMatch = this.list.isFromSearch && !this.list.isSearching && items.length === 0;
    return html`${this.searchable
        ? html`<input
            part="search-input"
            type="search"
            autocomplete="off"
            spellcheck="false"
            maxlength="512"
            aria-label=${this.t('searchLabel', { attribute })}
            placeholder=${this.t('searchPlaceholder', { attribute })}
            .value=${this.list.facetQuery}
            @input=${(event: InputEvent) => this.list.searchForItems((event.target as HTMLInputElement).value)}
            @keydown=${this.onSearchKeyDown}
          />`
        : nothing}
      <ul part="list" id="list" aria-label=${this.t('listLabel', { attribute })} ?hidden=${!items.length}>
        ${repeat(items, (item) => item.value, (item) => this.renderItem(item))}
      </ul>
      <div role="status">${noMatch ? html`<p part="no-results">${this.t('noValues', { query: this.list.facetQuery })}</p>` : nothing}</div>
      <button
        part="show-more"
        type="button"
        aria-controls="list"
        aria-expanded=${this.list.isShowingMore}
        ?hidden=${!this.list.canToggleShowMore}
        @click=${() => this.list.toggleShowMore()}
      >
        ${this.list.isShowingMore ? this.t('showLess') : this.t('showMore')}
      </button>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-refine': CustomEvent<SvcRefineEventDetail>;
  }
}
