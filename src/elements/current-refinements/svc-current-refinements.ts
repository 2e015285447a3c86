import { html, type PropertyDeclarations } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  CurrentRefinementsController,
  QUERY_ATTRIBUTE,
  type CurrentRefinement,
  type CurrentRefinementGroup,
} from '../../controllers/current-refinements-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { formatNumber } from '../base/translate.js';
import { styles } from './styles.js';

/** `detail` of `svc-refinement-remove`. */
export interface SvcRefinementRemoveEventDetail {
  attribute: string;
  /** How the refinement was stored: `facet`, `disjunctive`, `numeric`, `tag` or `query`. */
  type: CurrentRefinement['type'];
  value: string | number;
  /** The operator of a numeric refinement. */
  operator?: string;
}

const list = {
  converter: (value: string | null) =>
    value === null
      ? undefined
      : value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
};

const OPERATOR_SIGNS: Record<string, string> = { '=': '=', '!=': '≠', '<': '<', '<=': '≤', '>': '>', '>=': '≥' };

/**
 * The refinements in effect as removable chips, grouped by attribute ("Brand: Acme ×").
 *
 * Lists facet values, numeric conditions and tags; the query only when `excluded-attributes` does not
 * name it (it is excluded by default). Each chip has a remove button labelled for screen readers
 * ("Remove Brand: Acme"); after a removal, focus moves to the next chip's button. Nothing is shown while
 * there is no refinement.
 *
 * Translations: `listLabel` ("Current refinements"), `attribute` ("{label}:"), `remove` ("Remove {label}:
 * {value}"), `removeSymbol` ("×"), `numeric` ("{operator} {value}"), `query` ("Query"), `tags` ("Tags").
 *
 * @tagname svc-current-refinements
 * @summary The refinements in effect as removable chips, grouped by attribute ("Brand: Acme ×").
 *
 * @csspart list - The `ul` of attributes (absent from view when there is no refinement).
 * @csspart item - The `li` of one attribute: its label and chips.
 * @csspart label - The attribute's label.
 * @csspart chips - The `ul` of one attribute's chips.
 * @csspart chip - One refinement's `li`.
 * @csspart chip-label - The refined value.
 * @csspart remove - The remove button of a chip.
 *
 * @cssproperty --svc-chip-background - Background of the chips (default: the accent at 10 %).
 * @cssproperty --svc-chip-radius - Corner radius of the chips (default `999px`).
 * @cssproperty --svc-border-color - Border of the chips.
 * @cssproperty --svc-muted-color - Colour of the labels and remove buttons.
 * @cssproperty --svc-accent - Tints the chips; focus ring.
 * @cssproperty --svc-gap - Space between chips.
 *
 * @event svc-refinement-remove - The user removed a refinement. `detail: { attribute, type, value, operator? }`.
 */
export class SvcCurrentRefinements extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    includedAttributes: { ...list, attribute: 'included-attributes' },
    excludedAttributes: { ...list, attribute: 'excluded-attributes' },
    labels: {
      converter: (value: string | null) => {
        if (value === null) return undefined;
        try {
          const labels = JSON.parse(value) as unknown;
          if (labels && typeof labels === 'object' && !Array.isArray(labels)) return labels as Record<string, string>;
        } catch {
          // reported below
        }
        console.error(
          `<svc-current-refinements>: labels must be a JSON object such as {"brand":"Brand"}, got ${value}`,
        );
        return undefined;
      },
    },
  };
  static override defaultTranslations = {
    listLabel: 'Current refinements',
    attribute: '{label}:',
    remove: 'Remove {label}: {value}',
    removeSymbol: '×',
    numeric: '{operator} {value}',
    query: 'Query',
    tags: 'Tags',
  };

  /** Comma-separated attributes to list (default: all). */
  declare includedAttributes: string[] | undefined;
  /** Comma-separated attributes not to list (default `query`; a list replaces the default, so name `query` to keep hiding it). */
  declare excludedAttributes: string[] | undefined;
  /** Labels of the attributes, e.g. `{"brand": "Brand"}` (JSON in the attribute); default: the attribute name. */
  declare labels: Record<string, string> | undefined;

  private readonly current = new CurrentRefinementsController(this, { store: () => this.store });
  private focusAfterRemoval: number | undefined;

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    this.current.includedAttributes = this.includedAttributes;
    this.current.excludedAttributes = this.excludedAttributes ?? [QUERY_ATTRIBUTE];
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    if (this.focusAfterRemoval === undefined) return;
    // Keep keyboard users in the list: the next chip's button, else the previous one.
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('[part~="remove"]')];
    const target = buttons[Math.min(this.focusAfterRemoval, buttons.length - 1)];
    this.focusAfterRemoval = undefined;
    target?.focus();
  }

  /** The refinements listed, grouped by attribute. */
  get items(): CurrentRefinementGroup[] {
    return this.current.items;
  }

  /** Removes a refinement as if the user clicked its button (fires no event). */
  removeRefinement(refinement: CurrentRefinement): void {
    this.current.remove(refinement);
  }

  private labelOf(attribute: string): string {
    if (this.labels?.[attribute]) return this.labels[attribute];
    if (attribute === QUERY_ATTRIBUTE) return this.t('query');
    if (attribute === '_tags') return this.t('tags');
    return attribute;
  }

  private valueText(refinement: CurrentRefinement): string {
    if (refinement.type !== 'numeric') return String(refinement.value);
    return this.t('numeric', {
      operator: OPERATOR_SIGNS[refinement.operator ?? '='] ?? refinement.operator ?? '',
      value: formatNumber(Number(refinement.value), this.language),
    });
  }

  private onRemove(refinement: CurrentRefinement, index: number): void {
    this.focusAfterRemoval = index;
    this.current.remove(refinement);
    const { attribute, type, value, operator } = refinement;
    this.dispatchEvent(
      new CustomEvent<SvcRefinementRemoveEventDetail>('svc-refinement-remove', {
        detail: { attribute, type, value, ...(operator ? { operator } : {}) },
        bubbles: true,
        composed: true,
      }),
    );
  }

  override render() {
    const groups = this.current.items;
    let index = 0;
    return html`<ul part="list" aria-label=${this.t('listLabel')} ?hidden=${groups.length === 0}>
      ${repeat(
        groups,
        (group) => group.attribute,
        (group) => {
          const label = this.labelOf(group.attribute);
          return html`<li part="item">
            <span part="label">${this.t('attribute', { label })}</span>
            <ul part="chips" aria-label=${label}>
              ${group.refinements.map((refinement) => {
                const position = index++;
                const value = this.valueText(refinement);
                return html`<li part="chip">
                  <span part="chip-label">${value}</span>
                  <button
                    part="remove"
                    type="button"
                    aria-label=${this.t('remove', { label, value })}
                    @click=${() => this.onRemove(refinement, position)}
                  >
                    <span aria-hidden="true">${this.t('removeSymbol')}</span>
                  </button>
                </li>`;
              })}
            </ul>
          </li>`;
        },
      )}
    </ul>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-refinement-remove': CustomEvent<SvcRefinementRemoveEventDetail>;
  }
}
