import { html, isServer, type PropertyDeclarations } from 'lit';
import { SvcElement } from './svc-element.js';
import { selectStyles } from './select-styles.js';

/** One choice of a select element: `value`, an optional `label`. */
export interface SelectItem<V> {
  value: V;
  label?: string;
}

let sequence = 0;

/**
 * The shared base of the labelled select elements (`<svc-sort-by>`, `<svc-hits-per-page>`): the choices come
 * from the element's `items` property (declared by each element, with its item type) or, without JavaScript, from `<option>` children (read again when they change);
 * the select follows the store's state; a user's choice goes through `choose()` and fires the element's
 * change event with `detail: { value }`.
 */
export abstract class SvcSelectElement<V extends string | number, I extends SelectItem<V>> extends SvcElement {
  static override styles = selectStyles;
  static override properties: PropertyDeclarations = {
    hideLabel: { type: Boolean, attribute: 'hide-label' },
    optionItems: { state: true, attribute: false },
  };

  /** Keep the label for screen readers only. */
  declare hideLabel: boolean;
  declare protected optionItems: I[];

  readonly #selectId = `svc-select-${++sequence}`;
  readonly #observer = isServer ? undefined : new MutationObserver(() => this.#readOptions());

  /** The event fired on a user's choice (`svc-sort-change`, `svc-hits-per-page-change`). */
  protected abstract readonly changeEvent: string;
  /** The choices the controller accepted. */
  protected abstract get choices(): readonly I[];
  /** The value in effect (the element's public `value`). */
  protected abstract current(): V | undefined;
  /** One `<option>` child as an item. */
  protected abstract itemOf(option: HTMLOptionElement): I;
  /** The select's string value as the element's value. */
  protected abstract parse(value: string): V;
  /** Applies a user's choice. */
  protected abstract choose(value: V): void;

  constructor() {
    super();
    this.hideLabel = false;
    this.optionItems = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (isServer) return;
    this.#readOptions();
    this.#observer?.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    // The state may change elsewhere (routing, another element): show it even after the user used the select.
    const select = this.renderRoot.querySelector('select');
    const current = String(this.current() ?? '');
    if (select && select.value !== current) select.value = current;
  }

  /** On a server, only with its `items` property (the `<option>` children are not seen there). */
  protected override serverRenderable(): boolean {
    return (this as { items?: unknown }).items !== undefined;
  }

  /** The label of an item (its own, or a translation). */
  protected labelOf(item: I): string {
    return item.label || String(item.value);
  }

  #readOptions(): void {
    const items = [...this.querySelectorAll(':scope > option')].map((option) =>
      this.itemOf(option as HTMLOptionElement),
    );
    // The observer also sees the host's own attributes: only a real change of the options re-renders.
    if (JSON.stringify(items) !== JSON.stringify(this.optionItems)) this.optionItems = items;
  }

  #onChange(event: Event): void {
    const value = this.parse((event.target as HTMLSelectElement).value);
    this.choose(value);
    this.dispatchEvent(new CustomEvent(this.changeEvent, { detail: { value }, bubbles: true, composed: true }));
  }

  override render() {
    const current = this.current();
    return html`<div part="base">
      <label part="label" for=${this.#selectId} class=${this.hideLabel ? 'visually-hidden' : ''}>${this.t('label')}</label>
      <select part="select" id=${this.#selectId} @change=${this.#onChange}>
        ${this.choices.map((item) => html`<option value=${String(item.value)} ?selected=${item.value === current}>${this.labelOf(item)}</option>`)}
      </select>
    </div>`;
  }
}
