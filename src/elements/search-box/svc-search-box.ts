import { html, svg, type PropertyDeclarations } from 'lit';
import { SearchBoxController } from '../../controllers/search-box-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of the search box's events. */
export interface SvcSearchBoxEventDetail {
  query: string;
}

const searchIcon = svg`<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>`;
const resetIcon = svg`<path d="M6 6l12 12M18 6 6 18"/>`;
const loadingIcon = svg`<path d="M12 3a9 9 0 1 0 9 9"/>`;

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
    searchAsYouType: {
      attribute: 'search-as-you-type',
      converter: (value: string | null) => value !== 'false',
    },
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
  declare searchAsYouType: boolean;
  /** Focus the field when the element connects. */
  declare autofocus: boolean;
  /** What the field shows (follows the store's query unless the user is editing it without searching). */
  private text = '';
  private get value(): string {
    return this.text;
  }
  private set value(value: string) {
    this.text = value;
    this.requestUpdate();
  }

  private readonly box = new SearchBoxController(this, { store: () => this.store });
  private lastStoreQuery: string | undefined;

  constructor() {
    super();
    this.searchAsYouType = true;
    this.autofocus = false;
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    // The store's query changed elsewhere (routing, another box, clear refinements): show it.
    const query = this.box.query;
    if (this.box.snapshot && query !== this.lastStoreQuery) {
      this.lastStoreQuery = query;
      this.value = query;
    }
  }

  protected override firstUpdated(): void {
    if (this.autofocus) this.focus();
  }

  protected override updated(): void {
    // The field is the user's while they type; it is set only when the value differs (as Lit's `live`).
    const input = this.input;
    if (input && input.value !== this.value) input.value = this.value;
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
    return this.value;
  }

  private onInput(event: InputEvent): void {
    this.value = (event.target as HTMLInputElement).value;
    if (this.searchAsYouType) {
      this.box.refine(this.value);
      emit(this, 'svc-search-input', this.value);
    }
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.box.refine(this.value);
    emit(this, 'svc-search-submit', this.value);
  }

  private onReset(event: Event): void {
    event.preventDefault();
    this.clear();
    this.focus();
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.value) {
      event.preventDefault();
      event.stopPropagation(); // only clear, do not also close an enclosing dialog
      this.clear();
    }
  }

  private clear(): void {
    this.value = '';
    this.box.clear();
    emit(this, 'svc-search-reset', '');
  }

  override render() {
    const stalled = this.box.isStalled;
    return html`<form
      part="form"
      role="search"
      novalidate
      action=""
      aria-busy=${stalled}
      @submit=${this.onSubmit}
      @reset=${this.onReset}
    >
      <label class="visually-hidden" for="input">${this.t('label')}</label>
      <input
        id="input"
        part="input"
        type="search"
        autocomplete="off"
        autocorrect="off"
        autocapitalize="off"
        spellcheck="false"
        enterkeyhint="search"
        maxlength="512"
        placeholder=${this.placeholder ?? this.t('placeholder')}
        @input=${this.onInput}
        @keydown=${this.onKeyDown}
      />
      <button part="submit" type="submit" title=${this.t('submitTitle')} aria-label=${this.t('submitTitle')}>
        <svg viewBox="0 0 24 24" aria-hidden="true">${searchIcon}</svg>
      </button>
      <span part="loading-indicator" role="status" aria-label=${stalled ? this.t('loadingLabel') : ''}>
        <svg viewBox="0 0 24 24" aria-hidden="true" ?hidden=${!stalled}>${loadingIcon}</svg>
      </span>
      <button part="reset" type="reset" title=${this.t('resetTitle')} aria-label=${this.t('resetTitle')} ?hidden=${!this.value}>
        <svg viewBox="0 0 24 24" aria-hidden="true">${resetIcon}</svg>
      </button>
    </form>`;
  }
}

function emit(box: SvcSearchBox, type: keyof SvcSearchBoxEventMap, query: string): void {
  box.dispatchEvent(new CustomEvent<SvcSearchBoxEventDetail>(type, { detail: { query }, bubbles: true, composed: true }));
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
