import { SvcRatingMenu } from './svc-rating-menu.js';

export { SvcRatingMenu };

if (!customElements.get('svc-rating-menu')) customElements.define('svc-rating-menu', SvcRatingMenu);

declare global {
  interface HTMLElementTagNameMap {
    'svc-rating-menu': SvcRatingMenu;
  }
}
