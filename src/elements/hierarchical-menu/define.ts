import { SvcHierarchicalMenu } from './svc-hierarchical-menu.js';

export { SvcHierarchicalMenu };

if (!customElements.get('svc-hierarchical-menu')) customElements.define('svc-hierarchical-menu', SvcHierarchicalMenu);

declare global {
  interface HTMLElementTagNameMap {
    'svc-hierarchical-menu': SvcHierarchicalMenu;
  }
}
