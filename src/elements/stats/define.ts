import { SvcStats } from './svc-stats.js';

export { SvcStats };

if (!customElements.get('svc-stats')) customElements.define('svc-stats', SvcStats);

declare global {
  interface HTMLElementTagNameMap {
    'svc-stats': SvcStats;
  }
}
