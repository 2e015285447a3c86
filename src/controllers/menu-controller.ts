import type { Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';
import type { RefinementItem } from './refinement-list-controller.js';
import { compareBy, type RefinementSortCriterion } from './value-sort.js';

/** InstantSearch's default order of a menu: the selected value first, then by name. */
export const DEFAULT_MENU_SORT: RefinementSortCriterion[] = ['isRefined', 'name:asc'];

/**
 * Headless logic of `<svc-menu>`: the values of one facet with their counts, at most one of them selected.
 * `refine(value)` selects a value in place of the one selected (one request, page back to 0), or clears the
 * selection when it is the value already selected; it reports `Filter Applied` to Insights when it turns a
 * value on (not when it turns one off).
 *
 * The facet is declared as an OR (disjunctive) facet: while a value is selected, the store adds a
 * facets-only query without it, so every value keeps the count it has without the selection (as a menu
 * should: the other values are the alternatives). A value refined elsewhere as an AND refinement of the
 * same attribute (a URL, `<svc-refinement-list operator="and">`) is shown selected and replaced the same way.
 *
 * @example
 * ```ts
 * class CategoryMenu extends LitElement {
 *   private categories = new MenuController(this, { store, insights });
 *   constructor() { super(); this.categories.attribute = 'category'; }
 *   render() {
 *     return html`<ul>${this.categories.items.map((item) => html`<li>
 *       <button aria-pressed=${item.isRefined} @click=${() => this.categories.refine(item.value)}>${item.label} (${item.count})</button>
 *     </li>`)}</ul>`;
 *   }
 * }
 * ```
 */
export class MenuController extends StoreController {
  /** The facet attribute (must be in the index's `attributesForFaceting`). */
  attribute = '';
  /** Values shown (default 10). */
  limit = 10;
  /** Whether `toggleShowMore` may show up to `showMoreLimit` values. */
  showMore = false;
  showMoreLimit = 20;
  sortBy: RefinementSortCriterion[] = DEFAULT_MENU_SORT;
  /** True after `toggleShowMore` showed more values. */
  isShowingMore = false;

  protected override needs(): Needs | undefined {
    const { attribute, showMore, limit } = this;
    return attribute
      ? { disjunctiveFacets: [attribute], maxValuesPerFacet: showMore ? Math.max(limit, this.showMoreLimit) : limit }
      : undefined;
  }

  /** The values refined in the state for the attribute (OR ones first); a menu keeps at most one. */
  #refined(): string[] {
    const state = this.store?.getSnapshot().state ?? this.snapshot?.state;
    const { attribute } = this;
    return [...(state?.disjunctiveFacetRefinements[attribute] ?? []), ...(state?.facetRefinements[attribute] ?? [])];
  }

  /** The value selected (undefined when none). */
  get selected(): string | undefined {
    return this.#refined()[0];
  }

  /** Every value the results have for the attribute (the selected one included), sorted. */
  get allItems(): RefinementItem[] {
    const counts = this.snapshot?.results?.facets?.[this.attribute] ?? {};
    const selected = this.selected;
    return [...new Set([...Object.keys(counts), ...(selected === undefined ? [] : [selected])])]
      .map((value) => ({ value, label: value, count: counts[value] ?? 0, isRefined: value === selected }))
      .sort(compareBy(this.sortBy));
  }

  /** The values to show: the sorted values up to the limit (`showMoreLimit` while showing more). */
  get items(): RefinementItem[] {
    return this.allItems.slice(0, this.isShowingMore ? Math.max(this.limit, this.showMoreLimit) : this.limit);
  }

  /** Whether a show more/less button makes sense. */
  /** Whether there is anything to choose: a value in the results, or the selected one to clear. */
  get canRefine(): boolean {
    return this.items.length > 0;
  }

  get canToggleShowMore(): boolean {
    return this.showMore && (this.isShowingMore || this.allItems.length > this.limit);
  }

  /**
   * Selects `value` in place of the value selected, or clears the selection when `value` is the one selected.
   * Returns whether `value` is now selected.
   */
  refine(value: string): boolean {
    const { store, attribute } = this;
    if (!store || !attribute) return false;
    const refined = this.#refined();
    // Selecting the value selected clears it; any other value (or one of several refined from a URL) is kept alone.
    const turnOn = refined[0] !== value || refined.length > 1;
    const wasOn = refined.includes(value);
    const state = store.getSnapshot().state;
    // Every change below lands in the same tick: one request, page back to 0.
    for (const current of refined) {
      if (current === value && turnOn && state.disjunctiveFacetRefinements[attribute]?.includes(value)) continue;
      store.toggleRefinement(
        attribute,
        current,
        state.disjunctiveFacetRefinements[attribute]?.includes(current) ? 'or' : 'and',
      );
    }
    if (turnOn && !store.getSnapshot().state.disjunctiveFacetRefinements[attribute]?.includes(value))
      store.toggleRefinement(attribute, value, 'or');
    const results = this.snapshot?.results;
    if (turnOn && !wasOn)
      this.insights?.filterApplied(results?.index ?? state.indexName, attribute, value, results?.queryID);
    this.host.requestUpdate();
    return turnOn;
  }

  /** Shows more (up to `showMoreLimit`) or back `limit` values. */
  toggleShowMore(): void {
    this.isShowingMore = !this.isShowingMore;
    this.host.requestUpdate();
  }
}
