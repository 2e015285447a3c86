import { orderedFacets } from './facet-ordering.js';
import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-dynamic-widgets>`: InstantSearch's dynamic widgets. Which facets to show, in which
 * order: the results' `renderingContent.facetOrdering.facets.order` (set in the index settings or by a rule;
 * `*` there stands for the other `attributes`), at most `maxFacets`; nothing before the first results; all of
 * `attributes`, in their order, when the results carry no facet order and `showAllWithoutOrdering` is set.
 *
 * @example
 * ```ts
 * const dynamic = new DynamicWidgetsController(host, { store });
 * dynamic.attributes = ['brand', 'price', 'rating'];
 * dynamic.attributesToRender; // ['brand', 'hierarchicalCategories.lvl0', 'price'] (the results' order)
 * ```
 */
export class DynamicWidgetsController extends StoreController {
  /** The attributes that have an element (the order stands for `*` in the results' order). */
  attributes: string[] = [];
  /** Most facets shown (default: all). */
  maxFacets = Number.POSITIVE_INFINITY;
  /** Without a facet order in the results, show every one of `attributes` (default: none). */
  showAllWithoutOrdering = false;

  /** The facets to show, in order (attributes without an element included: they get the fallback). */
  get attributesToRender(): string[] {
    const results = this.snapshot?.results;
    if (!results) return [];
    const ordered = orderedFacets(results, this.attributes);
    const list = ordered ?? (this.showAllWithoutOrdering ? this.attributes : []);
    return list.slice(0, this.maxFacets);
  }
}
