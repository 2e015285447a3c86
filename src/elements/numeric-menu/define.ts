import { SvcNumericMenu } from './svc-numeric-menu.js';

export { SvcNumericMenu };

if (!customElements.get('svc-numeric-menu')) customElements.define('svc-numeric-menu', SvcNumericMenu);

declare global {
  interface HTMLElementTagNameMap {
    'svc-numeric-menu': SvcNumericMenu;
  }
}
