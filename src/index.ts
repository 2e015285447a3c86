/**
 * svc-search: every class, controller, function and type, with no side effects (no element is
 * registered; import `svc-search/define` or an element's `define` file for that).
 *
 * @example
 * ```ts
 * import { SvcHits, HitsController, createClient, createSearchStore } from 'svc-search';
 * customElements.define('my-hits', class extends SvcHits {});
 * ```
 */

// The wire, the reactive store, insights.
export * from './client/index.js';
export * from './store/index.js';
export * from './insights/index.js';

// Headless controllers (one per element) and the context the root provides.
export * from './controllers/context.js';
export * from './controllers/store-controller.js';
export * from './controllers/highlight-tags.js';
export * from './controllers/search-box-controller.js';
export * from './controllers/autocomplete-controller.js';
export * from './controllers/hits-controller.js';
export * from './controllers/infinite-hits-controller.js';
export * from './controllers/refinement-list-controller.js';
export * from './controllers/menu-controller.js';
export * from './controllers/pagination-controller.js';
export * from './controllers/stats-controller.js';
export * from './controllers/current-refinements-controller.js';
export * from './controllers/clear-refinements-controller.js';
export * from './controllers/sort-by-controller.js';
export * from './controllers/hits-per-page-controller.js';
export * from './controllers/range-input-controller.js';
export * from './controllers/configure-controller.js';
export * from './controllers/facet-ordering.js';
export * from './controllers/value-sort.js';
export * from './controllers/hierarchical-menu-controller.js';
export * from './controllers/breadcrumb-controller.js';
export * from './controllers/toggle-refinement-controller.js';
export * from './controllers/numeric-menu-controller.js';
export * from './controllers/rating-menu-controller.js';
export * from './controllers/range-slider-controller.js';
export * from './controllers/dynamic-widgets-controller.js';
export * from './controllers/query-rule-custom-data-controller.js';
export * from './controllers/query-rule-context-controller.js';
export * from './controllers/panel-controller.js';
export * from './controllers/recommendations-controller.js';
export * from './controllers/trending-controller.js';

// Element classes (and their event detail types); the base class and its helpers for custom elements.
export * from './elements/base/svc-element.js';
export { SvcHitList, type ItemRenderInfo, type ListItem } from './elements/base/hit-list.js';
export { SvcSelectElement, type SelectItem } from './elements/base/select-element.js';
export {
  SvcSearchField,
  type SvcSearchFieldEventDetail,
  type SearchFieldCombobox,
} from './elements/base/search-field.js';
export { OptionChildren } from './elements/base/option-children.js';
export { isPlainClick } from './elements/base/links.js';
export { translate, formatNumber, type Translations } from './elements/base/translate.js';
export { escapeHtml, unescapeHtml, parseHighlight, highlightedValue } from './elements/base/highlight.js';
export * from './elements/search/svc-search.js';
export * from './elements/search-box/svc-search-box.js';
export * from './elements/index/svc-index.js';
export * from './elements/autocomplete/svc-autocomplete.js';
export * from './elements/hits/svc-hits.js';
export * from './elements/infinite-hits/svc-infinite-hits.js';
export * from './elements/highlight/svc-highlight.js';
export * from './elements/snippet/svc-snippet.js';
export * from './elements/refinement-list/svc-refinement-list.js';
export * from './elements/menu/svc-menu.js';
export * from './elements/pagination/svc-pagination.js';
export * from './elements/stats/svc-stats.js';
export * from './elements/current-refinements/svc-current-refinements.js';
export * from './elements/clear-refinements/svc-clear-refinements.js';
export * from './elements/sort-by/svc-sort-by.js';
export * from './elements/hits-per-page/svc-hits-per-page.js';
export * from './elements/range-input/svc-range-input.js';
export * from './elements/configure/svc-configure.js';
export * from './elements/hierarchical-menu/svc-hierarchical-menu.js';
export * from './elements/breadcrumb/svc-breadcrumb.js';
export * from './elements/toggle-refinement/svc-toggle-refinement.js';
export * from './elements/numeric-menu/svc-numeric-menu.js';
export * from './elements/rating-menu/svc-rating-menu.js';
export * from './elements/range-slider/svc-range-slider.js';
export * from './elements/dynamic-widgets/svc-dynamic-widgets.js';
export * from './elements/query-rule-custom-data/svc-query-rule-custom-data.js';
export * from './elements/query-rule-context/svc-query-rule-context.js';
export * from './elements/panel/svc-panel.js';
export {
  SvcRecommendList,
  type RecommendRenderInfo,
  type RecommendSelectDetail,
} from './elements/recommendations/recommend-list.js';
export * from './elements/recommendations/svc-recommendations.js';
export * from './elements/trending/svc-trending.js';
