import { SvcIndex } from './svc-index.js';

export { SvcIndex };

if (!customElements.get('svc-index')) customElements.define('svc-index', SvcIndex);

declare global {
  interface HTMLElementTagNameMap {
    'svc-index': SvcIndex;
  }
}
