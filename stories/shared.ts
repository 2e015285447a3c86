/**
 * What every story needs to reach the local service: dev credentials, the demo catalogue's `products`
 * index, and the host.
 *
 * - `npm start` (Storybook dev server): the service is mounted on the dev server itself
 *   (`.storybook/local-service.ts`), so the host is the page's own origin.
 * - The static catalogue (`npm run build-storybook`) has no service of its own: it talks to one started with
 *   `npm run serve -- --demo` on `http://127.0.0.1:8787` (cross-origin requests are allowed), or to the host
 *   given as `?svc-hosts=…` in the page URL.
 */
const DEV = (import.meta as ImportMeta & { env?: { DEV?: boolean } }).env?.DEV ?? true;

export const SERVICE = {
  appId: 'SVCLOCAL',
  searchKey: 'local-search-key',
  indexName: 'products',
  get hosts(): string {
    const location = globalThis.location;
    const given = location ? new URLSearchParams(location.search).get('svc-hosts') : null;
    if (given) return given;
    return DEV ? (location?.origin ?? 'http://127.0.0.1:6006') : 'http://127.0.0.1:8787';
  },
};
