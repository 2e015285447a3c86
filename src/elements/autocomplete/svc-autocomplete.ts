import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import {
  AutocompleteController,
  type Suggestion,
  type SuggestionsStatus,
} from '../../controllers/autocomplete-controller.js';
import { renderHighlight } from '../base/highlight.js';
import { type SearchFieldCombobox, SvcSearchField, type SvcSearchFieldEventDetail } from '../base/search-field.js';
import { styles } from './styles.js';
import type {} from '../search-box/svc-search-box.js'; // types svc-search-input / -submit / -reset, which it fires too

/** `detail` of `svc-suggestion-select` (and of the search-box events it shares). */
export type SvcAutocompleteEventDetail = SvcSearchFieldEventDetail;

/** Keeps the focus in the field when an option is pressed (the click then selects it). */
const keepFocus = (event: Event) => event.preventDefault();

/**
 * @tagname svc-autocomplete
 * @summary A search box with query suggestions: as the user types, the matching suggestions of the Query
 * Suggestions index appear in a listbox (ARIA 1.2 combobox); choosing one — or Enter on the typed text — searches.
 *
 * The field is a `role="combobox"` (`aria-expanded`, `aria-controls`, `aria-activedescendant`) inside the same
 * labelled search landmark as `<svc-search-box>` (reset button, Escape, spinner and `aria-busy` while the search is
 * stalled). Typing asks the suggestions index (`suggestions-index`, default `<index-name>_query_suggestions`)
 * for `max-suggestions` suggestions — one request per keystroke at most, batched and cached by the store (with
 * `search-as-you-type`, the suggestions go in the main search's request: still one per keystroke).
 * ArrowDown / ArrowUp move through the suggestions (wrapping; they open a closed list), Enter on a suggestion
 * makes it the query (one search, first page), Enter without one searches the typed text, Escape closes the
 * list and then clears, Tab and leaving the field close it; a click or tap on a suggestion selects it.
 *
 * The text and the results never disagree: with `search-as-you-type`, typing searches the main results too
 * (as `<svc-search-box>`; the list offers suggestions meanwhile); without it, typing does not search the main
 * index, and when the list closes without a choice or a submit (Escape, Tab, a click elsewhere — on a facet,
 * say) the text goes back to the query the results show. Suggestions show `_highlightResult.query` (record text escaped, matches in
 * `<mark>`), and with `category-attribute` the top value of that facet among the suggestion's hits
 * ("in Furniture"). No Insights event of its own; searches keep `clickAnalytics` and their `queryID`.
 *
 * @csspart form - The `form` with `role="search"`.
 * @csspart input - The search field (`role="combobox"`).
 * @csspart submit - The submit button (magnifier).
 * @csspart reset - The reset button (shown while there is text).
 * @csspart loading-indicator - The spinner shown while the search is stalled.
 * @csspart listbox - The popup list of suggestions (`role="listbox"`).
 * @csspart option - One suggestion (`role="option"`); the active one also has `option-active`.
 * @csspart option-active - The active suggestion (`aria-selected="true"`).
 * @csspart query - The suggested query, with `<mark part="highlighted">` around the matched part.
 * @csspart highlighted - The matched part of a suggestion.
 * @csspart category - The suggestion's category ("in Furniture").
 *
 * @cssproperty --svc-search-box-height - Height of the box (default `2.75rem`).
 * @cssproperty --svc-search-box-radius - Corner radius of the box (default `--svc-radius`).
 * @cssproperty --svc-search-box-background - Background of the box (default transparent: the page's).
 * @cssproperty --svc-search-box-font-size - Font size of the field (default `1rem`).
 * @cssproperty --svc-autocomplete-background - Background of the list (default `Canvas`).
 * @cssproperty --svc-autocomplete-color - Text colour of the list (default `CanvasText`).
 * @cssproperty --svc-autocomplete-active-background - Background of the active suggestion (default: the accent at 14 %).
 * @cssproperty --svc-autocomplete-max-height - Height of the list before it scrolls (default `22rem`).
 * @cssproperty --svc-autocomplete-z-index - Stacking of the list over the page (default `10`).
 * @cssproperty --svc-accent - Focus ring, spinner, active suggestion marker.
 *
 * @event svc-search-input - With `search-as-you-type`: the user changed the text, which is now the query. `detail.query`.
 * @event svc-suggestion-select - The user chose a suggestion (Enter on the active one, or a click): it is now the query. `detail.query`.
 * @event svc-search-submit - The user searched the typed text (Enter without an active suggestion, or the submit button). `detail.query`.
 * @event svc-search-reset - The user cleared the text and the query (reset button or Escape on a closed list). `detail.query` is `''`.
 *
 * Translations: `label` ("Search"), `placeholder` ("Search…"; the `placeholder` attribute wins), `submitTitle`
 * ("Submit the search"), `resetTitle` ("Clear the search"), `loadingLabel` ("Searching…"), `listLabel`
 * ("Suggestions"), `inCategory` ("in {category}"), `suggestionCount` ("{count} suggestions",
 * `suggestionCount.one` "1 suggestion"; announced in a polite status region when the list opens or changes).
 */
export class SvcAutocomplete extends SvcSearchField {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    suggestionsIndex: { attribute: 'suggestions-index' },
    maxSuggestions: { attribute: 'max-suggestions', type: Number },
    categoryAttribute: { attribute: 'category-attribute' },
    sourceIndex: { attribute: 'source-index' },
    searchAsYouType: { attribute: 'search-as-you-type', type: Boolean },
  };
  static override defaultTranslations = {
    ...SvcSearchField.defaultTranslations,
    listLabel: 'Suggestions',
    inCategory: 'in {category}',
    suggestionCount: '{count} suggestions',
    'suggestionCount.one': '{count} suggestion',
  };

  /** The Query Suggestions index (default: `<index-name>_query_suggestions`). */
  declare suggestionsIndex: string | undefined;
  /** Most suggestions shown. */
  maxSuggestions = 5;
  /** A facet of the suggestion records (the configuration's `facets`, e.g. `category`) shown with each suggestion. */
  declare categoryAttribute: string | undefined;
  /** The source index whose facets the records hold (default: the `<svc-search>`'s index). */
  declare sourceIndex: string | undefined;
  /**
   * Typing searches the main results too (the list offers suggestions meanwhile). Without it, typing asks for
   * suggestions only, and when the list closes without a choice or a submit the text goes back to the query
   * the results show.
   */
  searchAsYouType = false;

  #storeQuery: string | undefined;
  readonly #ac = new AutocompleteController(this, { store: () => this.store });
  protected readonly box = this.#ac;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#ac, {
      suggestionsIndex: this.suggestionsIndex,
      maxSuggestions: this.maxSuggestions > 0 ? Math.floor(this.maxSuggestions) : 5,
      categoryAttribute: this.categoryAttribute,
      sourceIndex: this.sourceIndex,
      searchAsYouType: this.searchAsYouType,
    });
    // The store's query changed elsewhere (routing, clear refinements, a chip): show it.
    const query = this.#ac.query;
    if (this.#ac.snapshot && query !== this.#storeQuery) {
      this.#storeQuery = query;
      this.#ac.showQuery(query);
    }
  }

  protected override updated(): void {
    super.updated();
    this.renderRoot.querySelector('[part~="option-active"]')?.scrollIntoView?.({ block: 'nearest' });
  }

  /** The suggestions shown for the text (empty while the list has none). */
  get suggestions(): string[] {
    return this.#ac.suggestions.map((suggestion) => suggestion.query);
  }

  /** Where the suggestions for the current text stand: `idle` (no text), `loading`, `ready` or `error`. */
  get suggestionsStatus(): SuggestionsStatus {
    return this.#ac.status;
  }

  /** Whether the list of suggestions is open. */
  get expanded(): boolean {
    return this.#ac.expanded;
  }

  protected get fieldValue(): string {
    return this.#ac.input;
  }

  protected typed(value: string): void {
    this.#ac.setInput(value);
    if (this.searchAsYouType) this.emitQuery('svc-search-input', value);
  }

  protected submitted(): void {
    this.emitQuery('svc-search-submit', this.#ac.submit());
  }

  protected cleared(): void {
    this.#ac.clear();
    this.emitQuery('svc-search-reset', '');
  }

  protected override left(): void {
    this.#ac.close();
  }

  protected override combobox(): SearchFieldCombobox {
    const ac = this.#ac;
    return { expanded: ac.expanded, activeId: ac.active ? `option-${ac.activeIndex}` : undefined };
  }

  protected override keydown(event: KeyboardEvent): boolean {
    const ac = this.#ac;
    const key = event.key;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      event.preventDefault(); // not the caret
      ac.move(key === 'ArrowDown' ? 1 : -1);
      return true;
    }
    if (key === 'Enter' && ac.active) {
      event.preventDefault(); // not the form's submit
      this.#select();
      return true;
    }
    if (key === 'Escape' && ac.expanded) {
      event.preventDefault();
      event.stopPropagation(); // only close, not also close an enclosing dialog
      ac.close();
      return true;
    }
    if (key === 'Tab') ac.close();
    return false;
  }

  #select(index?: number): void {
    const query = this.#ac.select(index);
    if (query != null) this.emitQuery('svc-suggestion-select', query);
  }

  protected override renderAfterForm() {
    const ac = this.#ac;
    const expanded = ac.expanded;
    const count = expanded ? ac.suggestions.length : 0;
    return html`
      <ul id="listbox" part="listbox" role="listbox" aria-label=${this.t('listLabel')} ?hidden=${!expanded}>
        ${expanded ? ac.suggestions.map((suggestion, i) => this.#renderOption(suggestion, i)) : nothing}
      </ul>
      <p class="visually-hidden" role="status">${count ? this.t('suggestionCount', { count }) : ''}</p>
    `;
  }

  #renderOption(suggestion: Suggestion, i: number) {
    const active = i === this.#ac.activeIndex;
    return html`
      <li
        id="option-${i}"
        part="option${active ? ' option-active' : ''}"
        role="option"
        aria-selected=${active}
        @mousedown=${keepFocus}
        @click=${() => this.#select(i)}
      >
        <div part="query">${renderHighlight(suggestion.highlighted)}</div>
        ${
          suggestion.category == null
            ? nothing
            : html`<div part="category">${this.t('inCategory', { category: suggestion.category })}</div>`
        }
      </li>
    `;
  }
}

/** The events of `<svc-autocomplete>` (`svc-search-submit` and `svc-search-reset` are typed by `<svc-search-box>`). */
export interface SvcAutocompleteEventMap {
  'svc-suggestion-select': CustomEvent<SvcAutocompleteEventDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends SvcAutocompleteEventMap {}
}
