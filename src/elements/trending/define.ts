import { SvcTrending, type TrendingFacetSelectDetail } from './svc-trending.js';
import type { RecommendSelectDetail } from '../recommendations/recommend-list.js';

export { SvcTrending };

if (!customElements.get('svc-trending')) customElements.define('svc-trending', SvcTrending);

declare global {
  interface HTMLElementTagNameMap {
    'svc-trending': SvcTrending;
  }
  interface GlobalEventHandlersEventMap {
    'svc-trending-select': CustomEvent<RecommendSelectDetail>;
    'svc-trending-facet-select': CustomEvent<TrendingFacetSelectDetail>;
  }
}
