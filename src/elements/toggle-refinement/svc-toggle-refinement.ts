import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ToggleRefinementController } from '../../controllers/toggle-refinement-controller.js';
import { SvcElement } from '../base/svc-element.js';
import type { SvcRefineEventDetail } from '../refinement-list/svc-refinement-list.js';
import { styles } from './styles.js';

/**
 * @tagname svc-toggle-refinement
 * @summary A labelled checkbox (or switch) refining one facet value on and off ("Same-day delivery (468)"),
 * with the number of hits it gives.
 *
 * On, the search is refined on `attribute: on` (`on` defaults to `true`, for a boolean attribute); off, on
 * `attribute: off` when `off` is given, else not at all. The count is the number of hits with `on` under the
 * other refinements — what checking it shows, also while it is checked. A native checkbox inside its label
 * (Space toggles); `switch` makes it look like a switch and gives it `role="switch"`. Insights: `Filter Applied`
 * when turned on.
 *
 * @csspart label - The `label` around the checkbox, the text and the count.
 * @csspart checkbox - The checkbox (`role="switch"` with `switch`).
 * @csspart label-text - The text (the `label` attribute, else the `label` translation).
 * @csspart count - The count.
 *
 * @cssproperty --svc-accent - Checkbox (or switch) colour and focus ring.
 * @cssproperty --svc-count-background - Background of the count.
 * @cssproperty --svc-muted-color - Colour of the count.
 * @cssproperty --svc-border-color - The switch's track while off.
 *
 * @event {CustomEvent<SvcRefineEventDetail>} svc-refine - The user turned it on or off. `detail: { attribute, value, refined }` (`value` is `on`).
 *
 * Translations: `label` ("{attribute}", when the element has no `label` attribute), `count` ("{count}").
 */
export class SvcToggleRefinement extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    on: {},
    off: {},
    label: {},
    switch: { type: Boolean, reflect: true },
  };
  static override defaultTranslations = {
    label: '{attribute}',
    count: '{count}',
  };

  /** The facet attribute. */
  attribute = '';
  /** The value refined when on (default `true`). */
  on = 'true';
  /** The value refined when off (default: none). */
  declare off: string | undefined;
  /** The text of the checkbox (default: the `label` translation). */
  declare label: string | undefined;
  /** Look like a switch (`role="switch"`). */
  switch = false;

  #toggle = new ToggleRefinementController(this, { store: () => this.store, insights: () => this.insights });

  override connectedCallback(): void {
    // Configured before the controller binds to the store: an `off` default goes in the first request.
    this.#configure();
    super.connectedCallback();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.#configure();
  }

  #configure(): void {
    Object.assign(this.#toggle, { attribute: this.attribute, on: this.on ?? 'true', off: this.off ?? undefined });
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-toggle-refinement>: the `attribute` attribute is required.');
  }

  protected override updated(): void {
    // The checkbox shows the store's state (also when a click did not change it).
    const box = this.renderRoot.querySelector<HTMLInputElement>('input');
    if (box) box.checked = this.#toggle.isRefined;
  }

  /** Whether the toggle is on. */
  get checked(): boolean {
    return this.#toggle.isRefined;
  }

  /** Hits with `on` under the other refinements. */
  get count(): number {
    return this.#toggle.count;
  }

  /** Whether turning it on gives anything (or it is on). */
  get canRefine(): boolean {
    return this.#toggle.canRefine;
  }

  /** Turns it on or off (the other way by default) as if the user clicked it (fires no event). */
  toggle(on?: boolean): boolean {
    return this.#toggle.toggle(on);
  }

  #change(): void {
    const refined = this.#toggle.toggle();
    this.requestUpdate();
    this.emit<SvcRefineEventDetail>('svc-refine', { attribute: this.attribute, value: this.on, refined });
  }

  override render() {
    return html`
      <label part="label">
        <input
          part="checkbox"
          type="checkbox"
          role=${this.switch ? 'switch' : nothing}
          ?checked=${this.#toggle.isRefined}
          @change=${this.#change}
        />
        <span part="label-text">${this.label ?? this.t('label', { attribute: this.attribute })}</span>
        <span part="count">${this.t('count', { count: this.#toggle.count })}</span>
      </label>
    `;
  }
}
