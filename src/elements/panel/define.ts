import { SvcPanel } from './svc-panel.js';

export { SvcPanel };

if (!customElements.get('svc-panel')) customElements.define('svc-panel', SvcPanel);

declare global {
  interface HTMLElementTagNameMap {
    'svc-panel': SvcPanel;
  }
}
