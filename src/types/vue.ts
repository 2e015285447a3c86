/**
 * Vue 3 typings for every `svc-*` element (`GlobalComponents`), following Vue's guide for custom elements:
 * `import type {} from 'svc-search/vue';` once, and with `vue-tsc` the tags type-check in templates —
 * properties by their camelCase names and `@svc-…` listeners with their event types.
 * Vue itself must be told the tags are custom elements: `compilerOptions.isCustomElement = (tag) => tag.startsWith('svc-')`.
 *
 * Bind properties in camelCase, as `examples/vue/shop-search.ts` does (proven in
 * `test/embedding/vue.browser.test.ts`): `:store.prop="store"`, `.renderHit="fn"` (shorthand for
 * `:renderHit.prop`), or `:insightsEnabled="false"` (without `.prop` Vue sets a property only when the element
 * has one of exactly that name). Vue camelizes kebab-case keys only for elements it defined itself
 * (`defineCustomElement`): on these tags `:render-hit="fn"` sets an attribute `render-hit` (the function as
 * text) and `:render-hit.prop` a property named `render-hit`, so neither reaches `renderHit`. Plain
 * attributes (`index-name="products"`) are written as in HTML.
 *
 * What vue-tsc checks (`examples/vue/ShopSearch.vue`, `test/types/vue-template.vue`): bound values and static
 * text against the property types (`padding="1"` is refused, rightly: Vue sets the property to the string
 * "1"; write `:padding="1"`), `renderHit`'s argument, each listener's `$event`; unknown properties and
 * `@svc-…` events only with `strictTemplates` (or `checkUnknownProps` / `checkUnknownEvents`). It treats the
 * tags as components and camelizes kebab-case keys, unlike Vue's runtime: `show-more-limit="5"` is refused as
 * `showMoreLimit: "5"` though the attribute works (bind it, `:show-more-limit="5"`: still an attribute at
 * runtime, a number for vue-tsc), and `:render-hit="fn"` passes though it never reaches `renderHit`.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { SvcElementProperties, SvcEventMap, SvcTagName } from './elements.js';

export type { SvcElementProperties, SvcEventMap, SvcTagName } from './elements.js';

/** A custom element as a Vue component type: its properties as props, its events as emits. */
export type SvcVueComponent<E extends HTMLElement> = new () => E & {
  $props: HTMLAttributes & SvcElementProperties<E> & PublicProps;
  $emit: EmitFn<{ [K in keyof SvcEventMap]: (event: SvcEventMap[K]) => void }>;
};

/** Every `svc-*` tag as a Vue global component type. */
export type SvcGlobalComponents = { [K in SvcTagName]: SvcVueComponent<HTMLElementTagNameMap[K]> };

declare module 'vue' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalComponents extends SvcGlobalComponents {}
}
