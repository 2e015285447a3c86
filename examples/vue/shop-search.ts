/**
 * A search component in Vue 3 with the svc-search elements (no single-file component needed: a `template`
 * string compiled at runtime by the full Vue build — alias `vue` to `vue/dist/vue.esm-bundler.js`). The same
 * component as a `.vue` file, with the template as is and typed by vue-tsc: `ShopSearch.vue`. `main.ts` mounts it.
 *
 * - Tell Vue the `svc-*` tags are custom elements: `app.config.compilerOptions.isCustomElement` (see
 *   `main.ts`; with Vite + `.vue` files, the same function goes in `vue({ template: { compilerOptions } })`).
 * - `import type {} from 'svc-search/vue'` types the tags for `vue-tsc` (`GlobalComponents`).
 * - Bind properties in camelCase: `:store.prop`, `.renderHit` (shorthand for `:renderHit.prop`) or
 *   `:insightsEnabled` (Vue sets a property when the element has it). Vue does not camelize kebab-case keys
 *   on elements it did not define: `:render-hit.prop` would set a property named "render-hit".
 * - Listen with `@svc-search-input`, `@svc-refine`, `@svc-page-change`.
 */
import 'svc-search/elements/search/define';
import 'svc-search/elements/search-box/define';
import 'svc-search/elements/refinement-list/define';
import 'svc-search/elements/hits/define';
import 'svc-search/elements/pagination/define';
import type {} from 'svc-search/vue';
import { defineComponent, type PropType } from 'vue';
import type { Hit } from 'svc-search/client';
import type { SearchStore } from 'svc-search/store';

export type Product = { name: string; brand: string; price: number };

/** `isCustomElement` for `app.config.compilerOptions` (or the Vite plugin's template compiler options). */
export const isCustomElement = (tag: string) => tag.startsWith('svc-');

export const ShopSearch = defineComponent({
  name: 'ShopSearch',
  props: {
    store: { type: Object as PropType<SearchStore>, required: true },
    insights: { type: Boolean, default: true },
    shown: { type: Boolean, default: true },
  },
  emits: {
    query: (query: string) => typeof query === 'string',
    refine: (refinement: { attribute: string; value: string; refined: boolean }) => typeof refinement === 'object',
  },
  setup() {
    return { renderHit: (hit: Hit<Product>) => `${hit.name} (${hit.brand})` };
  },
  template: `
    <svc-search v-if="shown" :store.prop="store" :insightsEnabled="insights">
      <svc-search-box placeholder="Search products" @svc-search-input="$emit('query', $event.detail.query)"></svc-search-box>
      <svc-refinement-list attribute="brand" @svc-refine="$emit('refine', $event.detail)"></svc-refinement-list>
      <svc-hits .renderHit="renderHit"></svc-hits>
      <svc-pagination :padding="1"></svc-pagination>
    </svc-search>`,
});
