import { SvcRecommendations } from './svc-recommendations.js';
import type { RecommendSelectDetail } from './recommend-list.js';

export { SvcRecommendations };

if (!customElements.get('svc-recommendations')) customElements.define('svc-recommendations', SvcRecommendations);

declare global {
  interface HTMLElementTagNameMap {
    'svc-recommendations': SvcRecommendations;
  }
  interface GlobalEventHandlersEventMap {
    'svc-recommendations-select': CustomEvent<RecommendSelectDetail>;
  }
}
