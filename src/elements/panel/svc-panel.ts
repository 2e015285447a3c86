import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { PanelController } from '../../controllers/panel-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of `svc-panel-toggle`. */
export interface SvcPanelToggleEventDetail {
  /** Whether the body is now collapsed. */
  collapsed: boolean;
}

/**
 * @tagname svc-panel
 * @summary A header and a footer around any facet element, collapsible, marked (or hidden) while the element
 * has nothing to refine.
 *
 * The header is the `header` attribute (text) or the `header` slot; with `collapsible`, a button after it
 * collapses and expands the body (`aria-expanded`, `aria-controls`; named "Collapse Brand" / "Expand Brand");
 * `collapsed` starts it collapsed. After each answer of the search the panel reads its content's `canRefine`
 * (every facet element of this library has one): while there is nothing to refine it has the `empty` attribute
 * (its body dimmed), and with `hide-when-empty` it is not shown at all. Slots are always rendered.
 *
 * @example
 * ```html
 * <svc-panel header="Brand" collapsible hide-when-empty>
 *   <svc-refinement-list attribute="brand"></svc-refinement-list>
 *   <span slot="footer">Brands of the results</span>
 * </svc-panel>
 * ```
 *
 * @slot - The facet element (any content).
 * @slot header - The header (instead of the `header` attribute).
 * @slot footer - The footer.
 *
 * @csspart header - The header row (the heading and the toggle).
 * @csspart heading - The heading (the `header` attribute or slot).
 * @csspart toggle - The collapse/expand button (with `collapsible`).
 * @csspart body - The content.
 * @csspart footer - The footer.
 *
 * @cssproperty --svc-panel-heading-size - Font size of the heading (default `0.8125rem`).
 * @cssproperty --svc-panel-heading-transform - Text transform of the heading (default `uppercase`).
 * @cssproperty --svc-panel-empty-opacity - Opacity of the body while there is nothing to refine (default `0.6`).
 * @cssproperty --svc-accent - Focus ring.
 *
 * @event {CustomEvent<SvcPanelToggleEventDetail>} svc-panel-toggle - The user collapsed or expanded the panel. `detail: { collapsed }`.
 *
 * Translations: `collapse` ("Collapse {header}"), `expand` ("Expand {header}").
 */
export class SvcPanel extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    header: {},
    collapsible: { type: Boolean, reflect: true },
    collapsed: { type: Boolean, reflect: true },
    hideWhenEmpty: { type: Boolean, attribute: 'hide-when-empty', reflect: true },
    empty: { type: Boolean, reflect: true },
  };
  static override defaultTranslations = {
    collapse: 'Collapse {header}',
    expand: 'Expand {header}',
  };

  /** The header text (or use the `header` slot). */
  declare header: string | undefined;
  /** Show a button that collapses and expands the body. */
  collapsible = false;
  /** Whether the body is collapsed (with `collapsible`). */
  collapsed = false;
  /** Not shown at all while the content has nothing to refine. */
  hideWhenEmpty = false;
  /** Set while the content has nothing to refine (read-only for the page: the panel sets it). */
  empty = false;

  #panel = new PanelController(this, { store: () => this.store }, () =>
    [...this.children].filter((child) => !child.hasAttribute('slot')),
  );

  /** It shows (or hides) its content by what that content can refine: rendered in the browser only. */
  protected override serverRenderable(): boolean {
    return false;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('collapsed')) this.#panel.collapsed = this.collapsed;
    this.empty = !this.#panel.canRefine;
  }

  /** Whether the content has anything to refine. */
  get canRefine(): boolean {
    return this.#panel.canRefine;
  }

  /** The text naming the panel (the `header` attribute, else the header slot's text). */
  #headerText(): string {
    const slotted = this.querySelector(':scope > [slot="header"]')?.textContent?.trim();
    return this.header ?? slotted ?? '';
  }

  #toggle(): void {
    const collapsed = this.#panel.toggle();
    this.collapsed = collapsed;
    this.emit<SvcPanelToggleEventDetail>('svc-panel-toggle', { collapsed });
  }

  override render() {
    const collapsed = this.collapsible && this.#panel.collapsed;
    const header = this.#headerText();
    return html`
      <div part="header">
        <span part="heading"><slot name="header">${this.header ?? nothing}</slot></span>
        ${
          this.collapsible
            ? html`
              <button
                part="toggle"
                type="button"
                aria-expanded=${String(!collapsed)}
                aria-controls="body"
                aria-label=${this.t(collapsed ? 'expand' : 'collapse', { header })}
                @click=${this.#toggle}
              >
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
              </button>
            `
            : nothing
        }
      </div>
      <div part="body" id="body" ?hidden=${collapsed}><slot></slot></div>
      <div part="footer"><slot name="footer"></slot></div>
    `;
  }
}
