import { SvcPagination } from './svc-pagination.js';

export { SvcPagination };

if (!customElements.get('svc-pagination')) customElements.define('svc-pagination', SvcPagination);

declare global {
  interface HTMLElementTagNameMap {
    'svc-pagination': SvcPagination;
  }
}
