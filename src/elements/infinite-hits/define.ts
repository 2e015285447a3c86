import { SvcInfiniteHits } from './svc-infinite-hits.js';
import '../highlight/define.js';
import '../snippet/define.js';

export { SvcInfiniteHits };

if (!customElements.get('svc-infinite-hits')) customElements.define('svc-infinite-hits', SvcInfiniteHits);

declare global {
  interface HTMLElementTagNameMap {
    'svc-infinite-hits': SvcInfiniteHits;
  }
}
