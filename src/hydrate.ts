/**
 * `svc-search/hydrate`: Lit's hydration support, for pages a server rendered (`svc-search/ssr`). Import it before
 * any element is defined — first in your entry — so the elements adopt the server's declarative shadow DOM instead
 * of rendering again. The loader (`dist/svc-search.js`) loads it by itself when the page was rendered on a server,
 * and `dist/svc-search.all.js` holds it.
 *
 * @example
 * ```ts
 * import 'svc-search/hydrate';
 * import 'svc-search/define';
 * ```
 */
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
