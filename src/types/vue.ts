/**
 * Vue 3 typings for every `svc-*` element (`GlobalComponents`), following Vue's guide for custom elements:
 * `import type {} from 'svc-search/vue';` once, and with `vue-tsc` the tags type-check in templates —
 * properties (`:render-hit` / `.prop`; Vue camelizes `index-name` and sets the property the element has) and
 * `@svc-…` listeners with their event types.
 * Vue itself must be told the tags are custom elements: `compilerOptions.isCustomElement = (tag) => tag.startsWith('svc-')`.
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
