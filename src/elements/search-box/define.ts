import { SvcSearchBox } from './svc-search-box.js';

export { SvcSearchBox };

if (!customElements.get('svc-search-box')) customElements.define('svc-search-box', SvcSearchBox);

declare global {
  interface HTMLElementTagNameMap {
    'svc-search-box': SvcSearchBox;
  }
}
