import { SvcMenu } from './svc-menu.js';

export { SvcMenu };

if (!customElements.get('svc-menu')) customElements.define('svc-menu', SvcMenu);

declare global {
  interface HTMLElementTagNameMap {
    'svc-menu': SvcMenu;
  }
}
