import { SvcAutocomplete } from './svc-autocomplete.js';

export { SvcAutocomplete };

if (!customElements.get('svc-autocomplete')) customElements.define('svc-autocomplete', SvcAutocomplete);

declare global {
  interface HTMLElementTagNameMap {
    'svc-autocomplete': SvcAutocomplete;
  }
}
