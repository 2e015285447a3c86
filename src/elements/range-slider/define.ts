import { SvcRangeSlider } from './svc-range-slider.js';

export { SvcRangeSlider };

if (!customElements.get('svc-range-slider')) customElements.define('svc-range-slider', SvcRangeSlider);

declare global {
  interface HTMLElementTagNameMap {
    'svc-range-slider': SvcRangeSlider;
  }
}
