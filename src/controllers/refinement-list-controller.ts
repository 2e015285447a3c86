import { initialState, Task, TaskStatus } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import type { Needs, SearchStore } from '../store/types.js';
import { orderValues } from './facet-ordering.js';
import { REFINEMENT_LIST_DEFAULTS, refinementListNeeds } from './first-search-needs.js';
import { compareBy, DEFAULT_REFINEMENT_SORT, type RefinementSortCriterion } from './value-sort.js';
import { StoreController, type StoreControllerOptions } from './store-controller.js';

/** One value of a refinement list. */
export interface RefinementItem {
  value: string;
  /** Text to show (the value). */
  label: string;
  /** Hits with this value under the other refinements (0 for a refined value absent from the counts). */
  count: number;
  isRefined: boolean;
  /** While searching for facet values: the value with the matched part between highlight tags. */
  highlighted?: string;
}

/**
 * Headless logic of `<svc-refinement-list>`: the values of one facet with counts (disjunctive with
 * `operator: 'or'`, conjunctive with `'and'`), sorted and limited, show more/less, search for facet values,
 * and `refine` (which reports `Filter Applied` to Insights when it turns a value on).
 *
 * @example
 * ```ts
 * class BrandFilter extends LitElement {
 *   private brands = new RefinementListController(this, { store, insights });
 *   constructor() { super(); this.brands.attribute = 'brand'; }
 *   render() {
 *     return this.brands.items.map((item) => html`<label>
 *       <input type="checkbox" .checked=${item.isRefined} @change=${() => this.brands.refine(item.value)}>
 *       ${item.label} (${item.count})</label>`);
 *   }
 * }
 * ```
 */
export class RefinementListController extends StoreController {
  /** The facet attribute (must be in the index's `attributesForFaceting`). */
  attribute = '';
  /** `or`: any of the refined values (disjunctive, counts ignore this facet's refinements); `and`: all of them. */
  operator: 'or' | 'and' = REFINEMENT_LIST_DEFAULTS.operator;
  /** Values shown (default 10). */
  limit = REFINEMENT_LIST_DEFAULTS.limit;
  /** Whether `toggleShowMore` may show up to `showMoreLimit` values. */
  showMore = REFINEMENT_LIST_DEFAULTS.showMore;
  showMoreLimit = REFINEMENT_LIST_DEFAULTS.showMoreLimit;
  sortBy: RefinementSortCriterion[] = DEFAULT_REFINEMENT_SORT;
  /** True after `toggleShowMore` showed more values. */
  isShowingMore = false;
  /** The current search for facet values ('' when not searching). */
  facetQuery = '';
  /**
   * The search for facet values (`@lit/task`): run on each change of the text; an answer to an older text is
   * dropped by the task, and an empty text resets it.
   */
  readonly #search: Task<[SearchStore | undefined, string, string, number], RefinementItem[]>;

  constructor(host: ReactiveControllerHost, options?: StoreControllerOptions) {
    super(host, options);
    this.#search = new Task(host, {
      autoRun: false,
      task: async ([store, attribute, facetQuery, limit]) => {
        if (!facetQuery || !store) return initialState;
        try {
          const hits = await store.searchForFacetValues(attribute, facetQuery, limit);
          return hits.map((hit) => ({ ...hit, label: hit.value, isRefined: false }));
        } catch (error) {
          console.error(`svc-search: search for facet values of "${attribute}" failed:`, error);
          return [];
        }
      },
    });
  }

  /** The values matching `facetQuery` (undefined while not searching or waiting for the answer). */
  get #found(): RefinementItem[] | undefined {
    return this.#search.status === TaskStatus.COMPLETE ? this.#search.value : undefined;
  }

  protected override needs(): Needs | undefined {
    return refinementListNeeds(this);
  }

  #limit(): number {
    return this.isShowingMore ? Math.max(this.limit, this.showMoreLimit) : this.limit;
  }

  /**
   * Every value the results have for the attribute (refined values included), sorted — in the order the results
   * ask for (`renderingContent.facetOrdering.values`) while `sortBy` is the default, as InstantSearch does.
   */
  get allItems(): RefinementItem[] {
    const { attribute } = this;
    const counts = this.snapshot?.results?.facets?.[attribute] ?? {};
    const state = this.snapshot?.state;
    const refined = [
      ...(state?.disjunctiveFacetRefinements[attribute] ?? []),
      ...(state?.facetRefinements[attribute] ?? []),
    ];
    const items = [...new Set([...Object.keys(counts), ...refined])]
      .map((value) => ({ value, label: value, count: counts[value] ?? 0, isRefined: refined.includes(value) }))
      .sort(compareBy(this.sortBy));
    const byDefault = this.sortBy.join() === DEFAULT_REFINEMENT_SORT.join();
    return byDefault ? orderValues(this.snapshot?.results, attribute, items) : items;
  }

  /** The values to show: the facet search's matches while searching, else the sorted values up to the limit. */
  get items(): RefinementItem[] {
    return this.facetQuery && this.#found
      ? this.#found.map((item) => ({ ...item, isRefined: !!this.store?.isRefined(this.attribute, item.value) }))
      : this.allItems.slice(0, this.#limit());
  }

  /** True while the list is showing facet search results. */
  get isFromSearch(): boolean {
    return !!this.facetQuery;
  }

  /** True while the answer to the current facet search is awaited (the list still shows the plain values). */
  get isSearching(): boolean {
    return !!this.facetQuery && !this.#found;
  }

  /** Whether there is anything to choose: a value in the results, or a refined value to turn off. */
  get canRefine(): boolean {
    return this.allItems.length > 0;
  }

  /** Whether a show more/less button makes sense. */
  get canToggleShowMore(): boolean {
    return this.showMore && !this.facetQuery && (this.isShowingMore || this.allItems.length > this.limit);
  }

  /** Turns a value on or off; returns whether it is now refined. */
  refine(value: string): boolean {
    const { store, attribute } = this;
    if (!store || !attribute) return false;
    const turnOn = !store.isRefined(attribute, value);
    const results = this.snapshot?.results;
    store.toggleRefinement(attribute, value, this.operator);
    if (turnOn)
      this.insights?.filterApplied(
        results?.index ?? store.getSnapshot().state.indexName,
        attribute,
        value,
        results?.queryID,
      );
    // As InstantSearch: choosing a value found by the facet search ends the search.
    if (this.facetQuery) void this.searchForItems('');
    this.host.requestUpdate();
    return turnOn;
  }

  /** Shows more (up to `showMoreLimit`) or back `limit` values. */
  toggleShowMore(): void {
    this.isShowingMore = !this.isShowingMore;
    this.host.requestUpdate();
  }

  /** Searches the attribute's values for `facetQuery` (the facet must be `searchable(…)` in the index). */
  async searchForItems(facetQuery: string): Promise<void> {
    this.facetQuery = facetQuery;
    this.host.requestUpdate();
    await this.#search.run([this.store, this.attribute, facetQuery, this.#limit()]);
  }
}
