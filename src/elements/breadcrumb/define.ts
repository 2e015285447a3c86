import { SvcBreadcrumb } from './svc-breadcrumb.js';

export { SvcBreadcrumb };

if (!customElements.get('svc-breadcrumb')) customElements.define('svc-breadcrumb', SvcBreadcrumb);

declare global {
  interface HTMLElementTagNameMap {
    'svc-breadcrumb': SvcBreadcrumb;
  }
}
