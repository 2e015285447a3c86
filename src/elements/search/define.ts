import { SvcSearch } from './svc-search.js';

export { SvcSearch };

if (!customElements.get('svc-search')) customElements.define('svc-search', SvcSearch);

declare global {
  interface HTMLElementTagNameMap {
    'svc-search': SvcSearch;
  }
}
