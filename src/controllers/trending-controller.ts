import type { RecommendModel, RecommendRequest, SearchParams, TrendingFacetHit } from '../client/types.js';
import { RecommendRequestController, withClickAnalytics } from './recommendations-controller.js';

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
  threshold = 0;
  maxRecommendations = 0;
  index: string | undefined;
  /** trending-items only: parameters applied to the recommended records. */
  queryParameters: SearchParams | undefined;
  /** trending-items only: the search that fills up to `maxRecommendations`. */
  fallbackParameters: SearchParams | undefined;

  protected override get indexName(): string | undefined {
    return this.index || this.store?.baseIndex;
  }

  protected override request(): RecommendRequest | undefined {
    const indexName = this.indexName;
    if (!indexName) return undefined;
    const request: RecommendRequest = { indexName, model: this.model, threshold: this.threshold };
    if (this.maxRecommendations > 0) request.maxRecommendations = this.maxRecommendations;
    if (this.model === 'trending-facets') {
      if (!this.facetName) return undefined;
      request.facetName = this.facetName;
      return request;
    }
    // Both or neither: trending within one facet value, or globally.
    if (this.facetName && this.facetValue !== undefined && this.facetValue !== '') {
      request.facetName = this.facetName;
      request.facetValue = this.facetValue;
    }
    request.queryParameters = withClickAnalytics(this.queryParameters);
    if (this.fallbackParameters) request.fallbackParameters = this.fallbackParameters;
    return request;
  }

  /** trending-facets: the facet values, hottest first. */
  get facets(): TrendingFacetHit[] {
    if (this.model !== 'trending-facets') return [];
    return ((this.result?.hits ?? []) as TrendingFacetHit[]).filter((hit) => 'facetValue' in hit);
  }

  /** Whether the search is refined on a trending facet value. */
  isRefined(facetValue: string): boolean {
    return !!this.facetName && (this.store?.isRefined(this.facetName, facetValue) ?? false);
  }

  /**
   * Toggles a trending facet value as a refinement of the search (`filterApplied` goes to Insights when it
   * is turned on).
   */
  refine(facetValue: string, insights?: { filterApplied(indexName: string, attribute: string, value: string): void }): void {
    const store = this.store;
    if (!store || !this.facetName) return;
    const turningOn = !store.isRefined(this.facetName, facetValue);
    store.toggleRefinement(this.facetName, facetValue);
    if (turningOn) insights?.filterApplied(this.indexName ?? store.baseIndex, this.facetName, facetValue);
  }
}
