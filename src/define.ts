/**
 * Registers every svc-search element (the only module with that side effect, with each element's own
 * `define` file) and re-exports the whole library, so `dist/svc-search.js`, built from this file, gives a
 * page with no bundler both the tags and the classes.
 *
 * @example
 * ```html
 * <script type="module" src="https://cdn.example/svc-search/dist/svc-search.js"></script>
 * ```
 */
import './elements/search/define.js';
import './elements/search-box/define.js';
import './elements/index/define.js';
import './elements/autocomplete/define.js';
import './elements/hits/define.js';
import './elements/infinite-hits/define.js';
import './elements/highlight/define.js';
import './elements/snippet/define.js';
import './elements/refinement-list/define.js';
import './elements/menu/define.js';
import './elements/pagination/define.js';
import './elements/stats/define.js';
import './elements/current-refinements/define.js';
import './elements/clear-refinements/define.js';
import './elements/sort-by/define.js';
import './elements/hits-per-page/define.js';
import './elements/range-input/define.js';
import './elements/configure/define.js';
import './elements/hierarchical-menu/define.js';
import './elements/breadcrumb/define.js';
import './elements/toggle-refinement/define.js';
import './elements/numeric-menu/define.js';
import './elements/rating-menu/define.js';
import './elements/range-slider/define.js';
import './elements/dynamic-widgets/define.js';
import './elements/query-rule-custom-data/define.js';
import './elements/query-rule-context/define.js';
import './elements/panel/define.js';
import './elements/recommendations/define.js';
import './elements/trending/define.js';

export * from './index.js';
