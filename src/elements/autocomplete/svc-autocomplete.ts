import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { AutocompleteController, type SuggestionsStatus } from '../../controllers/autocomplete-controller.js';
import { renderHighlight } from '../base/highlight.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';
import type {} from '../search-box/svc-search-box.js'; // types svc-search-submit / svc-search-reset, which it fires too

/** `detail` of `svc-suggestion-select` (and of the search-box events it shares). */
export interface SvcAutocompleteEventDetail {
  query: string;
}

/** An icon (24 × 24 path), hidden from assistive technologies. */
const icon = (d: string, hidden = false) =>
  html`<svg viewBox="0 0 24 24" aria-hidden="true" ?hidden=${hidden}><path d=${d} /></svg>`;

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
 * for `max-suggestions` suggestions — one request per keystroke at most, batched and cached by the store — and
 * does not search the main index. ArrowDown / ArrowUp move through the suggestions (wrapping; they open a
 * closed list), Enter on a suggestion makes it the query (one search, first page), Enter without one searches
 * the typed text, Escape closes the list and then clears, Tab and leaving the field close it; a click or tap
 * on a suggestion selects it. Suggestions show `_highlightResult.query` (record text escaped, matches in
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
 * @event svc-suggestion-select - The user chose a suggestion (Enter on the active one, or a click): it is now the query. `detail.query`.
 * @event svc-search-submit - The user searched the typed text (Enter without an active suggestion, or the submit button). `detail.query`.
 * @event svc-search-reset - The user cleared the text and the query (reset button or Escape on a closed list). `detail.query` is `''`.
 *
 * Translations: `label` ("Search"), `placeholder` ("Search…"; the `placeholder` attribute wins), `submitTitle`
 * ("Submit the search"), `resetTitle` ("Clear the search"), `loadingLabel` ("Searching…"), `listLabel`
 * ("Suggestions"), `inCategory` ("in {category}"), `suggestionCount` ("{count} suggestions",
 * `suggestionCount.one` "1 suggestion"; announced in a polite status region when the list opens or changes).
 */
export class SvcAutocomplete extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    placeholder: {},
    suggestionsIndex: { attribute: 'suggestions-index' },
    maxSuggestions: { attribute: 'max-suggestions', type: Number },
    categoryAttribute: { attribute: 'category-attribute' },
    sourceIndex: { attribute: 'source-index' },
    autofocus: { type: Boolean },
  };
  static override defaultTranslations = {
    label: 'Search',
    placeholder: 'Search…',
    submitTitle: 'Submit the search',
    resetTitle: 'Clear the search',
    loadingLabel: 'Searching…',
    listLabel: 'Suggestions',
    inCategory: 'in {category}',
    suggestionCount: '{count} suggestions',
    'suggestionCount.one': '{count} suggestion',
  };
  static override shadowRootOptions = { ...SvcElement.shadowRootOptions, delegatesFocus: true };

  /** Placeholder of the field (default: the `placeholder` translation). */
  declare placeholder: string | undefined;
  /** The Query Suggestions index (default: `<index-name>_query_suggestions`). */
  declare suggestionsIndex: string | undefined;
  /** Most suggestions shown. */
  maxSuggestions = 5;
  /** A facet of the suggestion records (the configuration's `facets`, e.g. `category`) shown with each suggestion. */
  declare categoryAttribute: string | undefined;
  /** The source index whose facets the records hold (default: the `<svc-search>`'s index). */
  declare sourceIndex: string | undefined;
  /** Focus the field when the element connects. */
  override autofocus = false;

  #storeQuery: string | undefined;
  #ac = new AutocompleteController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#ac, {
      suggestionsIndex: this.suggestionsIndex,
      maxSuggestions: this.maxSuggestions > 0 ? Math.floor(this.maxSuggestions) : 5,
      categoryAttribute: this.categoryAttribute,
      sourceIndex: this.sourceIndex,
    });
    // The store's query changed elsewhere (routing, clear refinements, a chip): show it.
    const query = this.#ac.query;
    if (this.#ac.snapshot && query !== this.#storeQuery) {
      this.#storeQuery = query;
      this.#ac.showQuery(query);
    }
  }

  protected override firstUpdated(): void {
    if (this.autofocus) this.focus();
  }

  protected override updated(): void {
    // The field is the user's while they type; it is set only when the value differs (as Lit's `live`).
    const input = this.input;
    if (input && input.value !== this.#ac.input) input.value = this.#ac.input;
    this.renderRoot.querySelector('[part~="option-active"]')?.scrollIntoView?.({ block: 'nearest' });
  }

  /** The search field. */
  get input(): HTMLInputElement | null {
    return this.renderRoot.querySelector('input');
  }

  /** Moves the focus into the field. */
  override focus(options?: FocusOptions): void {
    this.input?.focus(options);
  }

  /** The text in the field. */
  get query(): string {
    return this.#ac.input;
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

  #select(index?: number): void {
    const query = this.#ac.select(index);
    if (query != null) this.emit<SvcAutocompleteEventDetail>('svc-suggestion-select', { query });
  }

  #clear(): void {
    this.#ac.clear();
    this.emit<SvcAutocompleteEventDetail>('svc-search-reset', { query: '' });
  }

  #onKeydown(event: KeyboardEvent): void {
    const ac = this.#ac;
    const key = event.key;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      event.preventDefault(); // not the caret
      ac.move(key === 'ArrowDown' ? 1 : -1);
    } else if (key === 'Enter' && ac.active) {
      event.preventDefault(); // not the form's submit
      this.#select();
    } else if (key === 'Escape' && (ac.expanded || ac.input)) {
      event.preventDefault();
      event.stopPropagation(); // only close or clear, not also close an enclosing dialog
      if (ac.expanded) ac.close();
      else this.#clear();
    } else if (key === 'Tab') ac.close();
  }

  override render() {
    const ac = this.#ac;
    const stalled = ac.isStalled;
    const expanded = ac.expanded;
    const reset = this.t('resetTitle');
    const submit = this.t('submitTitle');
    const count = expanded ? ac.suggestions.length : 0;
    return html`<form part="form" role="search" novalidate action="" aria-busy=${stalled} @submit=${(event: Event) => {
      event.preventDefault();
      this.emit<SvcAutocompleteEventDetail>('svc-search-submit', { query: ac.submit() });
    }} @reset=${(event: Event) => {
      event.preventDefault();
      this.#clear();
      this.focus();
    }} @focusout=${(event: FocusEvent) => {
      if (!this.renderRoot.contains(event.relatedTarget as Node | null)) ac.close();
    }}><label class="visually-hidden" for="input">${this.t('label')}</label><input id="input" part="input" type="search" role="combobox" aria-autocomplete="list" aria-expanded=${expanded} aria-controls="listbox" aria-activedescendant=${ac.active ? `option-${ac.activeIndex}` : nothing} autocomplete="off" autocorrect="off" autocapitalize="off" spellcheck="false" enterkeyhint="search" maxlength="512" placeholder=${this.placeholder ?? this.t('placeholder')} @input=${(event: Event) => ac.setInput((event.target as HTMLInputElement).value)} @keydown=${(event: KeyboardEvent) => this.#onKeydown(event)} /><button part="submit" type="submit" title=${submit} aria-label=${submit}>${icon('M16 16l4 4M18 11a7 7 0 1 1-14 0 7 7 0 0 1 14 0')}</button><span part="loading-indicator" role="status" aria-label=${stalled ? this.t('loadingLabel') : ''}>${icon('M12 3a9 9 0 1 0 9 9', !stalled)}</span><button part="reset" type="reset" title=${reset} aria-label=${reset} ?hidden=${!ac.input}>${icon('M6 6l12 12M18 6 6 18')}</button></form><ul id="listbox" part="listbox" role="listbox" aria-label=${this.t('listLabel')} ?hidden=${!expanded}>${
      expanded
        ? ac.suggestions.map((suggestion, i) => {
            const active = i === ac.activeIndex;
            return html`<li id="option-${i}" part="option${active ? ' option-active' : ''}" role="option" aria-selected=${active} @mousedown=${keepFocus} @click=${() => this.#select(i)}><div part="query">${renderHighlight(suggestion.highlighted)}</div>${suggestion.category == null ? nothing : html` <div part="category">${this.t('inCategory', { category: suggestion.category })}</div>`}</li>`;
          })
        : nothing
    }</ul><p class="visually-hidden" role="status">${count ? this.t('suggestionCount', { count }) : ''}</p>`;
  }
}

/** The events of `<svc-autocomplete>` (`svc-search-submit` and `svc-search-reset` are typed by `<svc-search-box>`). */
export interface SvcAutocompleteEventMap {
  'svc-suggestion-select': CustomEvent<SvcAutocompleteEventDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends SvcAutocompleteEventMap {}
}
