import { currentRefinements, QUERY_ATTRIBUTE, TAGS_ATTRIBUTE } from './current-refinements-controller.js';
import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-clear-refinements>`: whether there is anything to clear, and `clear()`, which
 * removes the refinements of every attribute (or of `includedAttributes`), except `excludedAttributes`
 * (default: the query is kept, as InstantSearch).
 *
 * @example
 * ```ts
 * class ClearButton extends LitElement {
 *   private clearing = new ClearRefinementsController(this, { store });
 *   render() {
 *     return html`<button ?disabled=${!this.clearing.canClear} @click=${() => this.clearing.clear()}>Clear</button>`;
 *   }
 * }
 * ```
 */
export class ClearRefinementsController extends StoreController {
  /** Only these attributes are cleared (undefined: every attribute). */
  includedAttributes: string[] | undefined;
  /** These attributes are kept (default: the query). */
  excludedAttributes: string[] = [QUERY_ATTRIBUTE];

  /** The attributes that have a refinement and would be cleared. */
  get attributesToClear(): string[] {
    const state = this.snapshot?.state;
    if (!state) return [];
    return currentRefinements(state)
      .map((group) => group.attribute)
      .filter(
        (attribute) =>
          (!this.includedAttributes || this.includedAttributes.includes(attribute)) &&
          !this.excludedAttributes.includes(attribute),
      );
  }

  /** Whether `clear()` would change anything. */
  get canClear(): boolean {
    return this.attributesToClear.length > 0;
  }

  /** Clears the refinements (one search follows); returns the attributes cleared. */
  clear(): string[] {
    const store = this.store;
    const attributes = this.attributesToClear;
    if (!store || attributes.length === 0) return [];
    const facets = attributes.filter((attribute) => attribute !== QUERY_ATTRIBUTE && attribute !== TAGS_ATTRIBUTE);
    if (facets.length > 0) store.clearRefinements(facets);
    if (attributes.includes(TAGS_ATTRIBUTE)) {
      for (const tag of store.getSnapshot().state.tagRefinements) store.toggleTag(tag);
    }
    if (attributes.includes(QUERY_ATTRIBUTE)) store.setQuery('');
    return attributes;
  }
}
