import { SvcDynamicWidgets } from './svc-dynamic-widgets.js';

export { SvcDynamicWidgets };

if (!customElements.get('svc-dynamic-widgets')) customElements.define('svc-dynamic-widgets', SvcDynamicWidgets);

declare global {
  interface HTMLElementTagNameMap {
    'svc-dynamic-widgets': SvcDynamicWidgets;
  }
}
