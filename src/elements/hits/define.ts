import { SvcHits } from './svc-hits.js';
import '../highlight/define.js';
import '../snippet/define.js';

export { SvcHits };

if (!customElements.get('svc-hits')) customElements.define('svc-hits', SvcHits);

declare global {
  interface HTMLElementTagNameMap {
    'svc-hits': SvcHits;
  }
}
