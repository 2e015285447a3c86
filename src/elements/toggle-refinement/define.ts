import { SvcToggleRefinement } from './svc-toggle-refinement.js';

export { SvcToggleRefinement };

if (!customElements.get('svc-toggle-refinement')) customElements.define('svc-toggle-refinement', SvcToggleRefinement);

declare global {
  interface HTMLElementTagNameMap {
    'svc-toggle-refinement': SvcToggleRefinement;
  }
}
