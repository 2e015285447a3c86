import { SvcHighlight } from './svc-highlight.js';

export { SvcHighlight };

if (!customElements.get('svc-highlight')) customElements.define('svc-highlight', SvcHighlight);

declare global {
  interface HTMLElementTagNameMap {
    'svc-highlight': SvcHighlight;
  }
}
