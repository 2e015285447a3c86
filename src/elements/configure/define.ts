import { SvcConfigure } from './svc-configure.js';

export { SvcConfigure };

if (!customElements.get('svc-configure')) customElements.define('svc-configure', SvcConfigure);

declare global {
  interface HTMLElementTagNameMap {
    'svc-configure': SvcConfigure;
  }
}
