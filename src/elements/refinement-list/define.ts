import { SvcRefinementList } from './svc-refinement-list.js';

export { SvcRefinementList };

if (!customElements.get('svc-refinement-list')) customElements.define('svc-refinement-list', SvcRefinementList);

declare global {
  interface HTMLElementTagNameMap {
    'svc-refinement-list': SvcRefinementList;
  }
}
