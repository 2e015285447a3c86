import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { SearchBoxController } from '../../controllers/search-box-controller.js';
import { SvcElement } from './svc-element.js';

/** `detail` of the search field's events (`svc-search-input`, `-submit`, `-reset`, `svc-suggestion-select`). */
export interface SvcSearchFieldEventDetail {
  query: string;
}

/** The combobox state of the field (`<svc-autocomplete>`): what its ARIA attributes say. */
export interface SearchFieldCombobox {
  expanded: boolean;
  /** `id` of the active option (`aria-activedescendant`), when one is active. */
  activeId: string | undefined;
}

/** An icon (24 × 24 path), hidden from assistive technologies. */
const icon = (d: string, hidden = false) => html`
  <svg viewBox="0 0 24 24" aria-hidden="true" ?hidden=${hidden}>
    <path d=${d} />
  </svg>
`;

const MAGNIFIER = 'M16 16l4 4M18 11a7 7 0 1 1-14 0 7 7 0 0 1 14 0';
const SPINNER = 'M12 3a9 9 0 1 0 9 9';
const CROSS = 'M6 6l12 12M18 6 6 18';

/**
 * The search field `<svc-search-box>` and `<svc-autocomplete>` share: a `form role="search"` landmark with a
 * visually hidden label, a `type="search"` field, the submit and reset buttons, a spinner with `aria-busy`
 * while the store's search is stalled, Escape to clear (stopped there, so an enclosing dialog stays open), the
 * focus delegated to the field, and the field written only when its value differs (as Lit's `live`), so the
 * user's typing is never overwritten.
 *
 * A subclass gives its controller (`box`), the text the field shows (`fieldValue`), and what typing, submitting
 * and clearing do; the autocomplete adds its combobox state and its listbox after the form.
 */
export abstract class SvcSearchField extends SvcElement {
  static override properties: PropertyDeclarations = {
    placeholder: {},
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
  /** Focus the field when the element connects. */
  override autofocus = false;

  /** The controller of the store's query (its `isStalled` drives the spinner). */
  protected abstract readonly box: SearchBoxController;
  /** The text the field shows. */
  protected abstract get fieldValue(): string;
  /** The user typed: `value` is the field's new text. */
  protected abstract typed(value: string): void;
  /** The user submitted the form (Enter, the submit button). */
  protected abstract submitted(): void;
  /** The user cleared the field (reset button, Escape). */
  protected abstract cleared(): void;

  protected override firstUpdated(): void {
    if (this.autofocus) this.focus();
  }

  protected override updated(): void {
    const input = this.input;
    if (input && input.value !== this.fieldValue) input.value = this.fieldValue;
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
    return this.fieldValue;
  }

  /** The combobox state of the field; undefined for a plain search field. */
  protected combobox(): SearchFieldCombobox | undefined {
    return undefined;
  }

  /** A key pressed in the field: return true when handled (Escape then does not clear). */
  protected keydown(_event: KeyboardEvent): boolean {
    return false;
  }

  /** The focus left the element (`event.relatedTarget` outside its shadow root). */
  protected left(): void {}

  /** What is rendered after the form (the autocomplete's listbox). */
  protected renderAfterForm(): TemplateResult | typeof nothing {
    return nothing;
  }

  /** Fires one of the field's events with `detail: { query }`. */
  protected emitQuery(type: string, query: string): void {
    this.emit<SvcSearchFieldEventDetail>(type, { query });
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    this.submitted();
  }

  #onReset(event: Event): void {
    event.preventDefault();
    this.cleared();
    this.focus();
  }

  #onKeydown(event: KeyboardEvent): void {
    if (this.keydown(event)) return;
    if (event.key === 'Escape' && this.fieldValue) {
      event.preventDefault();
      event.stopPropagation(); // only clear, do not also close an enclosing dialog
      this.cleared();
    }
  }

  #onFocusOut(event: FocusEvent): void {
    if (!this.renderRoot.contains(event.relatedTarget as Node | null)) this.left();
  }

  override render() {
    const stalled = this.box.isStalled;
    const reset = this.t('resetTitle');
    const submit = this.t('submitTitle');
    const combobox = this.combobox();
    return html`
      <form
        part="form"
        role="search"
        novalidate
        action=""
        aria-busy=${stalled}
        @submit=${this.#onSubmit}
        @reset=${this.#onReset}
        @focusout=${this.#onFocusOut}
      >
        <label class="visually-hidden" for="input">${this.t('label')}</label>
        <input
          id="input"
          part="input"
          type="search"
          role=${combobox ? 'combobox' : nothing}
          aria-autocomplete=${combobox ? 'list' : nothing}
          aria-expanded=${combobox ? String(combobox.expanded) : nothing}
          aria-controls=${combobox ? 'listbox' : nothing}
          aria-activedescendant=${combobox?.activeId ?? nothing}
          autocomplete="off"
          autocorrect="off"
          autocapitalize="off"
          spellcheck="false"
          enterkeyhint="search"
          maxlength="512"
          placeholder=${this.placeholder ?? this.t('placeholder')}
          value=${this.fieldValue}
          @input=${(event: Event) => this.typed((event.target as HTMLInputElement).value)}
          @keydown=${this.#onKeydown}
        />
        <button part="submit" type="submit" title=${submit} aria-label=${submit}>${icon(MAGNIFIER)}</button>
        <span part="loading-indicator" role="status" aria-label=${stalled ? this.t('loadingLabel') : ''}>
          ${icon(SPINNER, !stalled)}
        </span>
        <button part="reset" type="reset" title=${reset} aria-label=${reset} ?hidden=${!this.fieldValue}>
          ${icon(CROSS)}
        </button>
      </form>
      ${this.renderAfterForm()}
    `;
  }
}
