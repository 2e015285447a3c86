/**
 * What every story needs to reach the local service mounted on the Storybook dev server
 * (`.storybook/local-service.ts`): same origin, dev credentials, the demo catalogue's `products` index.
 */
export const SERVICE = {
  appId: 'SVCLOCAL',
  searchKey: 'local-search-key',
  indexName: 'products',
  /** The dev server's own origin (the service answers `/1/` and `/2/` there). */
  get hosts(): string {
    return globalThis.location?.origin ?? 'http://127.0.0.1:6006';
  },
};
