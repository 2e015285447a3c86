/**
 * `svc-search/ssr` (Node only): render a page of svc-search elements on a server with Lit SSR, with its first
 * results, and the state the browser's elements hydrate from. Needs `@lit-labs/ssr` (an optional peer dependency:
 * install it where you render on a server). Importing it registers every element with Lit's server-side registry.
 */
export { renderSearch } from './render-search.js';
export type { RenderSearchOptions, RenderedRoot, RenderedSearch } from './render-search.js';
export { scriptJson } from './serialize.js';
