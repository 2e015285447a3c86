import { SvcSortBy } from './svc-sort-by.js';

export { SvcSortBy };

if (!customElements.get('svc-sort-by')) customElements.define('svc-sort-by', SvcSortBy);

declare global {
  interface HTMLElementTagNameMap {
    'svc-sort-by': SvcSortBy;
  }
}
