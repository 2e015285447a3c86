import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { SearchBoxController } from '../../controllers/search-box-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of the search box's events. */
export interface SvcSearchBoxEventDetail {
  query: string;
}

/** An icon (24 × 24 path), hidden from assistive technologies. */
const icon = (d: string, hidden = false) =>
  html`<svg viewBox="0 0 24 24" aria-hidden="true" ?hidden=${hidden}><path d=${d} /></svg>`;

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
export class SvcSearchBox extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    placeholder: {},
    searchAsYouType: { attribute: 'search-as-you-type', converter: (value: string | null) => value !== 'false' },
    autofocus: { type: Boolean },
  };
  static override defaultTranslations = {
    label: 'Search',
    placeholder: 'Search…',
    submitTitle: 'Submit the search',
    resetTitle: 'Clear the search',
    loadingLabel: 'Searching…',
  };
  static override shadowRootOptions = { ...SvcElement.shadowRootOptions, delegatesFocus: true };

  /** Placeholder of the field (default: the `placeholder` translation). */
  declare placeholder: string | undefined;
  /** Search on each keystroke; `search-as-you-type="false"` searches on submit only. */
  searchAsYouType = true;
  /** Focus the field when the element connects. */
  override autofocus = false;

  /** What the field shows (follows the store's query unless the user is editing it without searching). */
  #value = '';
  #storeQuery: string | undefined;
  #box = new SearchBoxController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // The store's query changed elsewhere (routing, another box, clear refinements): show it.
    const query = this.#box.query;
    if (this.#box.snapshot && query !== this.#storeQuery) this.#value = this.#storeQuery = query;
  }

  protected override firstUpdated(): void {
    if (this.autofocus) this.focus();
  }

  protected override updated(): void {
    // The field is the user's while they type; it is set only when the value differs (as Lit's `live`).
    const input = this.input;
    if (input && input.value !== this.#value) input.value = this.#value;
  }

  /** The search field. */
  get input(): HTMLInputElement | null {
    return this.renderRoot.querySelector('input');
  }

  /** Moves the focus into the field. */
  override focus(options?: FocusOptions): void {
    this.input?.focus(options);
  }

  /** The query shown in the field. */
  get query(): string {
    return this.#value;
  }

  /** Shows `value` in the field; searches and fires `type` unless it is `svc-search-input` while searching on submit. */
  #set(value: string, type: keyof SvcSearchBoxEventMap): void {
    this.#value = value;
    this.requestUpdate();
    if (type !== 'svc-search-input' || this.searchAsYouType) {
      this.#box.refine(value);
      this.emit<SvcSearchBoxEventDetail>(type, { query: value });
    }
  }

  override render() {
    const stalled = this.#box.isStalled;
    const reset = this.t('resetTitle');
    const submit = this.t('submitTitle');
    return html`<form part="form" role="search" novalidate action="" aria-busy=${stalled} @submit=${(event: Event) => {
      event.preventDefault();
      this.#set(this.#value, 'svc-search-submit');
    }} @reset=${(event: Event) => {
      event.preventDefault();
      this.#set('', 'svc-search-reset');
      this.focus();
    }}><label class="visually-hidden" for="input">${this.t('label')}</label><input id="input" part="input" type="search" autocomplete="off" autocorrect="off" autocapitalize="off" spellcheck="false" enterkeyhint="search" maxlength="512" placeholder=${this.placeholder ?? this.t('placeholder')} @input=${(event: Event) => this.#set((event.target as HTMLInputElement).value, 'svc-search-input')} @keydown=${(
      event: KeyboardEvent,
    ) => {
      if (event.key === 'Escape' && this.#value) {
        event.preventDefault();
        event.stopPropagation(); // only clear, do not also close an enclosing dialog
        this.#set('', 'svc-search-reset');
      }
    }} /><button part="submit" type="submit" title=${submit} aria-label=${submit}>${icon('M16 16l4 4M18 11a7 7 0 1 1-14 0 7 7 0 0 1 14 0')}</button><span part="loading-indicator" role="status" aria-label=${stalled ? this.t('loadingLabel') : ''}>${icon('M12 3a9 9 0 1 0 9 9', !stalled)}</span><button part="reset" type="reset" title=${reset} aria-label=${reset} ?hidden=${!this.#value}>${icon('M6 6l12 12M18 6 6 18')}</button></form>`;
  }
}

/** The events of `<svc-search-box>`. */
export interface SvcSearchBoxEventMap {
  'svc-search-input': CustomEvent<SvcSearchBoxEventDetail>;
  'svc-search-submit': CustomEvent<SvcSearchBoxEventDetail>;
  'svc-search-reset': CustomEvent<SvcSearchBoxEventDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends SvcSearchBoxEventMap {}
}
