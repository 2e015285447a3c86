import { SvcCurrentRefinements } from './svc-current-refinements.js';

export { SvcCurrentRefinements };

if (!customElements.get('svc-current-refinements'))
  customElements.define('svc-current-refinements', SvcCurrentRefinements);

declare global {
  interface HTMLElementTagNameMap {
    'svc-current-refinements': SvcCurrentRefinements;
  }
}
