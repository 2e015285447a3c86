/**
 * `svc-search/hydrate`: hydration for pages a server rendered (`svc-search/ssr`) — Lit's hydration support, and the
 * elements' own (a root starts from the server's state, an element waits for its store before adopting the
 * server's DOM). Import it before any element is defined — first in your entry — so the elements adopt the
 * server's declarative shadow DOM instead of rendering again. The loader (`dist/svc-search.js`) loads it by itself
 * when the page was rendered on a server, and `dist/svc-search.all.js` holds it.
 *
 * @example
 * ```ts
 * import 'svc-search/hydrate';
 * import 'svc-search/define';
 * ```
 */
// First: Lit's element class asks for this support as it is defined (imported below, through the elements' base).
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { installHydration } from './elements/base/hydration.js';

installHydration();
