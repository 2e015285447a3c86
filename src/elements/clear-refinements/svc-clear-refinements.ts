import { html, type PropertyDeclarations } from 'lit';
import { ClearRefinementsController } from '../../controllers/clear-refinements-controller.js';
import { QUERY_ATTRIBUTE } from '../../controllers/current-refinements-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of `svc-refinements-clear`. */
export interface SvcRefinementsClearEventDetail {
  /** The attributes whose refinements were removed (`_tags` for tags, `query` for the query). */
  attributes: string[];
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

/**
 * A button that removes every refinement at once (the query is kept unless asked), disabled
 * (`aria-disabled="true"`) while there is nothing to clear.
 *
 * The button stays focusable when disabled so that keyboard focus is not lost by the click that clears.
 * `included-attributes` limits it to some attributes; `excluded-attributes` keeps some (default `query`;
 * set `excluded-attributes=""` to clear the query too).
 *
 * Translations: `clear` ("Clear refinements").
 *
 * @tagname svc-clear-refinements
 * @summary A button that removes every refinement at once, disabled while there is nothing to clear.
 *
 * @slot - The button's text (default: the `clear` translation, "Clear refinements").
 *
 * @csspart button - The `button`.
 *
 * @cssproperty --svc-button-height - Height of the button (default `2.25rem`).
 * @cssproperty --svc-button-background - Background of the button.
 * @cssproperty --svc-border-color - Border of the button.
 * @cssproperty --svc-accent - Hover tint and focus ring.
 * @cssproperty --svc-radius - Corner radius.
 *
 * @event svc-refinements-clear - The user cleared the refinements. `detail: { attributes }`.
 */
export class SvcClearRefinements extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    includedAttributes: { ...list, attribute: 'included-attributes' },
    excludedAttributes: { ...list, attribute: 'excluded-attributes' },
  };
  static override defaultTranslations = {
    clear: 'Clear refinements',
  };

  /** Comma-separated attributes to clear (default: all). */
  declare includedAttributes: string[] | undefined;
  /** Comma-separated attributes to keep (default `query`; a list replaces the default, so name `query` to keep it). */
  declare excludedAttributes: string[] | undefined;

  private readonly clearing = new ClearRefinementsController(this, { store: () => this.store });

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    this.clearing.includedAttributes = this.includedAttributes;
    this.clearing.excludedAttributes = this.excludedAttributes ?? [QUERY_ATTRIBUTE];
  }

  /** Whether there is something to clear. */
  get canClear(): boolean {
    return this.clearing.canClear;
  }

  /** Clears as if the user clicked (fires no event); returns the attributes cleared. */
  clear(): string[] {
    return this.clearing.clear();
  }

  private onClick(): void {
    const attributes = this.clearing.clear();
    if (attributes.length === 0) return;
    this.dispatchEvent(
      new CustomEvent<SvcRefinementsClearEventDetail>('svc-refinements-clear', {
        detail: { attributes },
        bubbles: true,
        composed: true,
      }),
    );
  }

  override render() {
    // aria-disabled rather than disabled: the button keeps focus after the click that empties it.
    return html`<button part="button" type="button" aria-disabled=${!this.clearing.canClear} @click=${this.onClick}>
      <slot>${this.t('clear')}</slot>
    </button>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-refinements-clear': CustomEvent<SvcRefinementsClearEventDetail>;
  }
}
