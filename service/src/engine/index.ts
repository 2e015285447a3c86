/**
 * The engine, as the service's modules import it (`../engine/index.js`): the library's `svc-search/engine`,
 * the same code the browser worker of `svc-search/local` runs.
 */
export * from 'svc-search/engine';
