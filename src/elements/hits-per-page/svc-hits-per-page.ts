import { html, type PropertyDeclarations } from 'lit';
import { HitsPerPageController, type HitsPerPageItem } from '../../controllers/hits-per-page-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of `svc-hits-per-page-change`. */
export interface SvcHitsPerPageChangeEventDetail {
  /** The number of hits per page now used. */
  value: number;
}

let sequence = 0;

/**
 * A labelled select of page sizes ("20 per page", "40 per page"…).
 *
 * The sizes come from the `items` property (`[{ value: 20, label: '20 per page', default: true }]`) or,
 * without JavaScript, from `<option value="20" selected>20 per page</option>` children (`selected` marks
 * the default; the first option when none is). The default size is used from the first search on;
 * choosing a size goes back to the first page. A size that is not a positive integer is a clear error.
 *
 * Translations: `label` ("Results per page"), `item` ("{count} per page", the label of an item given
 * without one).
 *
 * @tagname svc-hits-per-page
 * @summary A labelled select of page sizes ("20 per page", "40 per page"…).
 *
 * @example
 * ```html
 * <svc-hits-per-page>
 *   <option value="12" selected>12 per page</option>
 *   <option value="24">24 per page</option>
 *   <option value="48">48 per page</option>
 * </svc-hits-per-page>
 * ```
 *
 * @csspart base - The wrapper of label and select.
 * @csspart label - The visible label (visually hidden with `hide-label`).
 * @csspart select - The `select`.
 *
 * @cssproperty --svc-select-height - Height of the select (default `2.25rem`).
 * @cssproperty --svc-select-background - Background of the select.
 * @cssproperty --svc-border-color - Border of the select.
 * @cssproperty --svc-muted-color - Colour of the label.
 * @cssproperty --svc-accent - Focus ring.
 *
 * @event svc-hits-per-page-change - The user chose a page size. `detail: { value }`.
 */
export class SvcHitsPerPage extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    items: { attribute: false },
    hideLabel: { type: Boolean, attribute: 'hide-label' },
    optionItems: { state: true, attribute: false },
  };
  static override defaultTranslations = {
    label: 'Results per page',
    item: '{count} per page',
  };

  /** The sizes offered; when unset, the `<option>` children give them. */
  declare items: HitsPerPageItem[] | undefined;
  /** Keep the label for screen readers only. */
  declare hideLabel: boolean;
  private declare optionItems: HitsPerPageItem[];

  private readonly size = new HitsPerPageController(this, { store: () => this.store });
  private readonly selectId = `svc-hits-per-page-${++sequence}`;
  private readonly observer = new MutationObserver(() => this.readOptions());

  constructor() {
    super();
    this.hideLabel = false;
    this.optionItems = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.readOptions();
    this.observer.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer.disconnect();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const items = this.items ?? this.optionItems;
    try {
      this.size.items = items;
    } catch (error) {
      // A page author's mistake (e.g. `<option value="ten">`): say which, and keep the valid sizes.
      console.error(`<svc-hits-per-page>: ${(error as Error).message}`);
      let seenDefault = false;
      this.size.items = items
        .filter((item) => Number.isInteger(item.value) && item.value >= 1 && item.value <= 1000)
        .map((item) => {
          const isDefault = !!item.default && !seenDefault;
          seenDefault ||= isDefault;
          return { ...item, default: isDefault };
        });
    }
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    const select = this.renderRoot.querySelector('select');
    const current = String(this.size.current ?? '');
    if (select && select.value !== current) select.value = current;
  }

  /** The page size in effect. */
  get value(): number | undefined {
    return this.size.current;
  }

  /** Uses a page size (one of the items) as if the user chose it (fires no event). */
  refine(hitsPerPage: number): void {
    this.size.refine(hitsPerPage);
  }

  private readOptions(): void {
    const items = [...this.querySelectorAll(':scope > option')].map((node) => {
      const option = node as HTMLOptionElement;
      const value = Number(option.getAttribute('value') ?? option.textContent);
      return {
        value,
        label: option.textContent?.trim() ?? '', // empty: the `item` translation at render time
        ...(option.hasAttribute('selected') ? { default: true } : {}),
      };
    });
    // The observer also sees the host's own attributes: only a real change of the options re-renders.
    if (JSON.stringify(items) !== JSON.stringify(this.optionItems)) this.optionItems = items;
  }

  private onChange(event: Event): void {
    const value = Number((event.target as HTMLSelectElement).value);
    this.size.refine(value);
    this.dispatchEvent(
      new CustomEvent<SvcHitsPerPageChangeEventDetail>('svc-hits-per-page-change', {
        detail: { value },
        bubbles: true,
        composed: true,
      }),
    );
  }

  override render() {
    const current = this.size.current;
    return html`<div part="base">
      <label part="label" for=${this.selectId} class=${this.hideLabel ? 'visually-hidden' : ''}>${this.t('label')}</label>
      <select part="select" id=${this.selectId} @change=${this.onChange}>
        ${this.size.items.map(
          (item) =>
            html`<option value=${String(item.value)} ?selected=${item.value === current}>
              ${item.label || this.t('item', { count: item.value })}
            </option>`,
        )}
      </select>
    </div>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-hits-per-page-change': CustomEvent<SvcHitsPerPageChangeEventDetail>;
  }
}
