import { SvcClearRefinements } from './svc-clear-refinements.js';

export { SvcClearRefinements };

if (!customElements.get('svc-clear-refinements')) customElements.define('svc-clear-refinements', SvcClearRefinements);

declare global {
  interface HTMLElementTagNameMap {
    'svc-clear-refinements': SvcClearRefinements;
  }
}
