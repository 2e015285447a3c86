import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import {
  NumericMenuController,
  type NumericMenuEntry,
  type NumericMenuItem,
  parseNumericRange,
} from '../../controllers/numeric-menu-controller.js';
import { OptionChildren } from '../base/option-children.js';
import { SvcElement } from '../base/svc-element.js';
import type { SvcRangeChangeEventDetail } from '../range-input/svc-range-input.js';
import { styles } from './styles.js';

let sequence = 0;

/**
 * @tagname svc-numeric-menu
 * @summary A single choice of numeric ranges as a radio group ("All", "Under $10", "$10 to $100", "$100 and
 * above"), each refining a numeric attribute.
 *
 * The ranges come from `<option value="start:end">Label</option>` children (`":10"` up to 10, `"10:100"`,
 * `"100:"` from 100, `""` all; read again when they change) or the `items` property. A choice refines
 * `attribute >= start` and/or `attribute <= end` (both inclusive, as InstantSearch's numeric menu), replacing
 * the range in effect (one request, first page). The selected radio is the range in effect, whoever set it
 * (`<svc-range-input>` or `<svc-range-slider>` on the same attribute, a URL): none when it matches no choice.
 * A native radio group in a `fieldset` with a (visually hidden) legend: Tab reaches it, the arrows move and
 * choose. With `show-counts`, each range shows its number of hits under the other refinements (one more
 * facets-only query per range, in the same request: off by default, since each is a query the service runs).
 * An option without a label is named by the `all`, `below`, `between` or `above` translation; an invalid value
 * is reported in the console and left out.
 *
 * @example
 * ```html
 * <svc-numeric-menu attribute="price">
 *   <option value="">All</option>
 *   <option value=":10">Under $10</option>
 *   <option value="10:100">$10 to $100</option>
 *   <option value="100:">$100 and above</option>
 * </svc-numeric-menu>
 * ```
 *
 * @csspart fieldset - The `fieldset` of the radio group.
 * @csspart legend - Its legend (visually hidden).
 * @csspart item - Each choice's `label`; the selected one also has the part `selected-item`.
 * @csspart radio - The radio button.
 * @csspart label-text - The choice's label.
 * @csspart count - The choice's count (with `show-counts`).
 *
 * @cssproperty --svc-accent - Radio colour and focus ring.
 * @cssproperty --svc-count-background - Background of the counts.
 * @cssproperty --svc-muted-color - Colour of the counts.
 *
 * @event {CustomEvent<SvcRangeChangeEventDetail>} svc-range-change - The user chose a range. `detail: { attribute, min, max }` (a side is undefined when open).
 *
 * Translations: `legend` ("Filter by {attribute}"), `count` ("{count}"), and for options without a label `all`
 * ("All"), `below` ("Up to {end}"), `between` ("{start} to {end}"), `above` ("{start} and above").
 */
export class SvcNumericMenu extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    items: { attribute: false },
    showCounts: { type: Boolean, attribute: 'show-counts' },
  };
  static override defaultTranslations = {
    legend: 'Filter by {attribute}',
    count: '{count}',
    all: 'All',
    below: 'Up to {end}',
    between: '{start} to {end}',
    above: '{start} and above',
  };

  /** The numeric attribute. */
  attribute = '';
  /** The choices; when unset, the `<option>` children give them. */
  declare items: NumericMenuItem[] | undefined;

  /** On a server, only with `items` (the `<option>` children are not seen there). */
  protected override serverRenderable(): boolean {
    return this.items !== undefined;
  }
  /** Show each range's number of hits (one more facets-only query per range, in the same request). */
  showCounts = false;

  readonly #name = `svc-numeric-menu-${++sequence}`;
  #menu = new NumericMenuController(this, { store: () => this.store });
  #options = new OptionChildren<NumericMenuItem | undefined>(this, (option) => {
    const range = parseNumericRange(option.value);
    if (!range) {
      console.error(
        `<svc-numeric-menu>: option value "${option.value}" is not a range (":10", "10:100", "100:" or ""); it is left out.`,
      );
      return undefined;
    }
    return { label: option.textContent?.trim() ?? '', ...range };
  });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const items = this.items ?? this.#options.items.filter((item): item is NumericMenuItem => item !== undefined);
    Object.assign(this.#menu, { attribute: this.attribute, items, showCounts: this.showCounts });
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-numeric-menu>: the `attribute` attribute is required.');
  }

  protected override updated(): void {
    // Each radio shows the store's state (also when a click did not change it).
    const radios = this.renderRoot.querySelectorAll<HTMLInputElement>('input');
    this.#menu.entries.forEach((entry, i) => {
      const radio = radios[i];
      if (radio) radio.checked = entry.isRefined;
    });
  }

  /** The choices with the one in effect (and the counts, with `show-counts`). */
  get entries(): NumericMenuEntry[] {
    return this.#menu.entries;
  }

  /** Whether a range is refined, or the results have hits to narrow. */
  get canRefine(): boolean {
    return this.#menu.canRefine;
  }

  /** Makes choice `index` the range, as if the user chose it (fires no event). */
  refine(index: number): void {
    this.#menu.refine(index);
  }

  #labelOf(entry: NumericMenuEntry): string {
    // Numbers given to `t` are formatted for the element's language.
    const { label, start, end } = entry;
    if (label) return label;
    if (start === undefined && end === undefined) return this.t('all');
    if (start === undefined) return this.t('below', { end: end! });
    if (end === undefined) return this.t('above', { start });
    return this.t('between', { start, end });
  }

  #choose(entry: NumericMenuEntry): void {
    if (!this.#menu.refine(entry.index)) return;
    this.requestUpdate();
    this.emit<SvcRangeChangeEventDetail>('svc-range-change', {
      attribute: this.attribute,
      min: entry.start,
      max: entry.end,
    });
  }

  override render() {
    return html`
      <fieldset part="fieldset">
        <legend part="legend" class="visually-hidden">${this.t('legend', { attribute: this.attribute })}</legend>
        ${this.#menu.entries.map(
          (entry) => html`
            <label part=${entry.isRefined ? 'item selected-item' : 'item'}>
              <input part="radio" type="radio" name=${this.#name} @change=${() => this.#choose(entry)} />
              <span part="label-text">${this.#labelOf(entry)}</span>
              ${
                entry.count === undefined
                  ? nothing
                  : html`<span part="count">${this.t('count', { count: entry.count })}</span>`
              }
            </label>
          `,
        )}
      </fieldset>
    `;
  }
}
