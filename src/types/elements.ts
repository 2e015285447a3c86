/**
 * Type helpers shared by the framework typings (`svc-search/react`, `svc-search/vue`): they are derived from
 * `HTMLElementTagNameMap` and `GlobalEventHandlersEventMap`, which each element's define file augments, so
 * a new element or event is typed in every framework without listing it here.
 */
import type { LitElement } from 'lit';

// Loads every element's `HTMLElementTagNameMap` / `GlobalEventHandlersEventMap` augmentation into the
// program of whoever imports these typings (type-only: nothing runs, no tag is registered).
export type SvcDefinitions = typeof import('../define.js');

/** Every `svc-*` tag name. */
export type SvcTagName = Extract<keyof HTMLElementTagNameMap, `svc-${string}`>;

/** Every `svc-*` event name and its event type (`GlobalEventHandlersEventMap` and `HTMLElementEventMap` augmentations; events bubble and are composed, so any ancestor sees them). */
export type SvcEventMap = { [K in Extract<keyof HTMLElementEventMap, `svc-${string}`>]: HTMLElementEventMap[K] };

type IfEquals<X, Y, A, B> = (<G>() => G extends X ? 1 : 2) extends <G>() => G extends Y ? 1 : 2 ? A : B;
type WritableKeys<T> = {
  [K in keyof T]-?: IfEquals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }, K, never>;
}[keyof T];
/**
 * A member is a property when it is writable, not Lit's own, and not a method; a callback property
 * (`renderHit`) is a function type that accepts `undefined` (the elements declare them optional), a method
 * is a required function.
 */
type PropertyKeys<E> = {
  [K in Exclude<WritableKeys<E>, keyof LitElement>]-?: K extends `_${string}`
    ? never
    : E[K] extends (...args: never[]) => unknown
      ? never
      : K;
}[Exclude<WritableKeys<E>, keyof LitElement>];

/**
 * Callbacks are checked bivariantly (as React types its own event handlers), so
 * `renderHit={(hit: Hit<Product>) => …}` is accepted where the tag map holds `SvcHits<Record<string, unknown>>`.
 */
type Bivariant<F> = F extends (...args: infer A) => infer R ? { bivarianceHack(...args: A): R }['bivarianceHack'] : F;

/**
 * Members whose setter accepts more than their getter returns (mapped types only see the getter):
 * `<svc-search>`'s `insights` reads as the insights module but is set to `false` / `"false"` by frameworks
 * that write `insights="false"` as a property (React 19, Vue 3).
 */
type WriteTypes<E> = E extends { insightsEnabled: boolean; insights?: infer I }
  ? { insights?: I | boolean | 'true' | 'false' }
  : Record<never, never>;

/** The settable properties of element `E` (camelCase), all optional. */
export type SvcElementProperties<E> = Omit<
  { [K in PropertyKeys<E>]?: Bivariant<Exclude<E[K], undefined>> | undefined },
  keyof WriteTypes<E>
> &
  WriteTypes<E>;
