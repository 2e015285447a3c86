import { SvcHitsPerPage } from './svc-hits-per-page.js';

export { SvcHitsPerPage };

if (!customElements.get('svc-hits-per-page')) customElements.define('svc-hits-per-page', SvcHitsPerPage);

declare global {
  interface HTMLElementTagNameMap {
    'svc-hits-per-page': SvcHitsPerPage;
  }
}
