import type { RecommendModel, RecommendRequest, TrendingFacetHit } from '../client/types.js';
import type { InsightsLike } from '../insights/types.js';
import { RecommendRequestController } from './recommendations-controller.js';

/**
 * Headless logic of `<svc-trending>`: trending items (globally, or within one facet value) or trending facet
 * values, with positions 1..n and the answer's queryID; `refine(value)` turns a trending facet value into a
 * refinement of the search (and reports `Filter Applied` to Insights when it turns it on).
 *
 * @example
 * ```ts
 * class HotCategories extends LitElement {
 *   private trending = new TrendingController(this, { store });
 *   constructor() { super(); Object.assign(this.trending, { model: 'trending-facets', facetName: 'category' }); }
 *   render() {
 *     return this.trending.facets.map((f) => html`<button @click=${() => this.trending.refine(f.facetValue)}>${f.facetValue}</button>`);
 *   }
 * }
 * ```
 */
export class TrendingController<T = Record<string, unknown>> extends RecommendRequestController<T> {
  model: Extract<RecommendModel, 'trending-items' | 'trending-facets'> = 'trending-items';
  /** trending-items: with `facetValue`, trending within that value; trending-facets: the facet (required). */
  facetName: string | undefined;
  /** trending-items only, with `facetName`. */
  facetValue: string | undefined;

  protected override request(): Partial<RecommendRequest> | undefined {
    const { model, facetName, facetValue } = this;
    if (model === 'trending-facets') return facetName ? { model, facetName } : undefined;
    // Both or neither: trending within one facet value, or globally.
    return facetName && facetValue ? { model, facetName, facetValue } : { model };
  }

  /** trending-facets: the facet values, hottest first. */
  get facets(): TrendingFacetHit[] {
    return this.model === 'trending-facets'
      ? ((this.result?.hits ?? []) as TrendingFacetHit[]).filter((hit) => 'facetValue' in hit)
      : [];
  }

  /** Whether the search is refined on a trending facet value. */
  isRefined(facetValue: string): boolean {
    return !!this.facetName && !!this.store?.isRefined(this.facetName, facetValue);
  }

  /**
   * Toggles a trending facet value as a refinement of the search (`filterApplied` goes to Insights when it
   * is turned on).
   */
  refine(facetValue: string, insights?: Pick<InsightsLike, 'filterApplied'>): void {
    const { store, facetName } = this;
    if (!store || !facetName) return;
    const turningOn = !store.isRefined(facetName, facetValue);
    store.toggleRefinement(facetName, facetValue);
    if (turningOn) insights?.filterApplied(this.indexName ?? store.baseIndex, facetName, facetValue);
  }
}
