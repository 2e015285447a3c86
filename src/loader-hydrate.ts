/**
 * The loader's hydration chunk (`dist/svc-search.js`), loaded only on a page a server rendered (a root with
 * `server-state`), before any element chunk: Lit's hydration support and the elements' own (`hydration.ts`).
 *
 * Lit's element class lives in the loader's core chunk, which this chunk imports, so it is defined before Lit's
 * hydration support below sets the hook `LitElement` calls as it is defined: `startHydration` applies the hook instead,
 * as Lit would have — before any element class is defined (the loader imports the element chunks after it ran).
 * That keeps Lit in the core on every page, rather than in a chunk of its own only for server-rendered pages.
 */
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { LitElement } from 'lit';
import { installHydration } from './elements/base/hydration.js';

/** The hook Lit's hydration support defines (`lit-element-hydrate-support.js`), which `LitElement` calls. */
declare global {
  var litElementHydrateSupport: ((lit: { LitElement: typeof LitElement }) => void) | undefined;
}

/**
 * Applies Lit's hydration support to `LitElement` (once) and installs the elements' hydration; the loader calls it
 * as it imports this chunk.
 *
 * @example
 * ```ts
 * startLoader(elements, { hydrate: () => import('./loader-hydrate.js').then((chunk) => chunk.startHydration()) });
 * ```
 */
export function startHydration(): void {
  // Applied, the support gives `LitElement` an `observedAttributes` of its own (adding `defer-hydration`): not twice.
  if (!Object.hasOwn(LitElement, 'observedAttributes')) globalThis.litElementHydrateSupport?.({ LitElement });
  installHydration();
}
