/**
 * React 19 JSX typings for every `svc-*` element: `import 'svc-search/react';` once (types only) and the
 * tags type-check in TSX — properties (camelCase; React 19 sets a prop as a DOM property when the element has
 * it, which the defined `svc-*` elements do) and events as `on<event-name>` props (React 19 adds them with
 * `addEventListener`). Kebab-case attributes are left out on purpose: a property's attribute name is not
 * always its kebab form (`insightsEnabled` ↔ `insights`), and a wrong one would type-check and do nothing.
 * `renderHit` returns what Lit renders (text, a DOM node or a Lit template), not React elements.
 *
 * @example
 * ```tsx
 * import 'svc-search/define';
 * import type {} from 'svc-search/react';
 *
 * <svc-search appId="…" apiKey="…" indexName="products" hosts="http://127.0.0.1:8787">
 *   <svc-search-box placeholder="Search products" onsvc-search-input={(e) => console.log(e.detail.query)} />
 *   <svc-hits renderHit={(hit) => `${hit.name} — ${hit.price} €`} />
 * </svc-search>
 * ```
 */
import type * as React from 'react';
import type { SvcElementProperties, SvcEventMap, SvcTagName } from './elements.js';

export type { SvcElementProperties, SvcEventMap, SvcTagName } from './elements.js';

/** `on<event-name>` props: React 19 listens to any event of a custom element given as `on` + its name. */
export type SvcReactEvents<E extends Element> = {
  [K in keyof SvcEventMap as `on${K}`]?: (event: SvcEventMap[K] & { currentTarget: E }) => void;
};

/** The JSX props of `<svc-…>` element `E`. */
export type SvcReactProps<E extends HTMLElement> = Omit<React.HTMLAttributes<E>, keyof SvcElementProperties<E>> &
  React.RefAttributes<E> &
  SvcElementProperties<E> &
  SvcReactEvents<E> & { class?: string; children?: React.ReactNode };

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface IntrinsicElements extends SvcIntrinsicElements {}
  }
}

/** Every `svc-*` tag as a React intrinsic element. */
export type SvcIntrinsicElements = { [K in SvcTagName]: SvcReactProps<HTMLElementTagNameMap[K]> };
