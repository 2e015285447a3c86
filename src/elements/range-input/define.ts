import { SvcRangeInput } from './svc-range-input.js';

export { SvcRangeInput };

if (!customElements.get('svc-range-input')) customElements.define('svc-range-input', SvcRangeInput);

declare global {
  interface HTMLElementTagNameMap {
    'svc-range-input': SvcRangeInput;
  }
}
