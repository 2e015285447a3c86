/**
 * The entry of `dist/svc-search.all.js`: Lit's hydration support first (it must be in place before an element
 * class is defined, and does nothing on a page not rendered on a server), then every element and export.
 */
import './hydrate.js';

export * from './define.js';
