import type { PropertyDeclarations, PropertyValues } from 'lit';
import { SearchBoxController } from '../../controllers/search-box-controller.js';
import { SvcSearchField, type SvcSearchFieldEventDetail } from '../base/search-field.js';
import { styles } from './styles.js';

/** `detail` of the search box's events. */
export type SvcSearchBoxEventDetail = SvcSearchFieldEventDetail;

/**
 * @tagname svc-search-box
 * @summary A search landmark with a labelled search field: searches as you type (or on submit), a reset
 * button, Escape to clear, and a loading indicator with `aria-busy` while the search is stalled.
 *
 * @csspart form - The `form` with `role="search"`.
 * @csspart input - The search field.
 * @csspart submit - The submit button (magnifier).
 * @csspart reset - The reset button (shown while there is a query).
 * @csspart loading-indicator - The spinner shown while the search is stalled.
 *
 * @cssproperty --svc-search-box-height - Height of the box (default `2.75rem`).
 * @cssproperty --svc-search-box-radius - Corner radius (default `--svc-radius`).
 * @cssproperty --svc-search-box-background - Background (default transparent: the page's).
 * @cssproperty --svc-search-box-font-size - Font size of the field (default `1rem`).
 * @cssproperty --svc-border-color - Border colour (default: the text colour at 22 %).
 * @cssproperty --svc-accent - Focus ring and spinner colour.
 *
 * @event svc-search-input - The user changed the query (typing, when searching as they type). `detail.query`.
 * @event svc-search-submit - The user submitted the form (Enter or the submit button). `detail.query`.
 * @event svc-search-reset - The user cleared the query (reset button or Escape). `detail.query` is `''`.
 *
 * Translations: `label` ("Search"), `placeholder` ("Search…"; the `placeholder` attribute wins), `submitTitle`
 * ("Submit the search"), `resetTitle` ("Clear the search"), `loadingLabel` ("Searching…").
 */
export class SvcSearchBox extends SvcSearchField {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    searchAsYouType: { attribute: 'search-as-you-type', converter: (value: string | null) => value !== 'false' },
  };

  /** Search on each keystroke; `search-as-you-type="false"` searches on submit only. */
  searchAsYouType = true;

  /** What the field shows (follows the store's query unless the user is editing it without searching). */
  #value = '';
  #storeQuery: string | undefined;
  protected readonly box = new SearchBoxController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // The store's query changed elsewhere (routing, another box, clear refinements): show it.
    const query = this.box.query;
    if (this.box.snapshot && query !== this.#storeQuery) {
      this.#storeQuery = query;
      this.#value = query;
    }
  }

  protected get fieldValue(): string {
    return this.#value;
  }

  protected typed(value: string): void {
    this.#set(value, 'svc-search-input');
  }

  protected submitted(): void {
    this.#set(this.#value, 'svc-search-submit');
  }

  protected cleared(): void {
    this.#set('', 'svc-search-reset');
  }

  /** Shows `value` in the field; searches and fires `type` unless it is `svc-search-input` while searching on submit. */
  #set(value: string, type: keyof SvcSearchBoxEventMap): void {
    this.#value = value;
    this.requestUpdate();
    if (type !== 'svc-search-input' || this.searchAsYouType) {
      this.box.refine(value);
      this.emitQuery(type, value);
    }
  }
}

/** The events of `<svc-search-box>` (`<svc-autocomplete>` fires them too). */
export interface SvcSearchBoxEventMap {
  'svc-search-input': CustomEvent<SvcSearchBoxEventDetail>;
  'svc-search-submit': CustomEvent<SvcSearchBoxEventDetail>;
  'svc-search-reset': CustomEvent<SvcSearchBoxEventDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends SvcSearchBoxEventMap {}
}
