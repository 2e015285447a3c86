/**
 * The entry of `dist/svc-search.all.js`: hydration first (Lit's support must be in place before an element
 * class is defined, and does nothing on a page not rendered on a server), then every element and export.
 */
import './hydrate.js';

export * from './define.js';
