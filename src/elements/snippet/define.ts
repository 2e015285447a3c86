import { SvcSnippet } from './svc-snippet.js';

export { SvcSnippet };

if (!customElements.get('svc-snippet')) customElements.define('svc-snippet', SvcSnippet);

declare global {
  interface HTMLElementTagNameMap {
    'svc-snippet': SvcSnippet;
  }
}
