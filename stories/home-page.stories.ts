import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { RecommendSelectDetail } from '../src/elements/recommendations/recommend-list.js';
import type { SvcSearch } from '../src/elements/search/svc-search.js';
import '../src/elements/trending/define.js';
import { SERVICE } from './shared.js';

/**
 * A shop's home page on the demo catalogue: trending categories and sub-categories (facet values of what
 * sold recently; a click refines the product list) and trending items, all from the Recommend models trained
 * on the order history, with Insights views and clicks carrying each answer's queryID. Choosing a trending
 * item (a click, or Tab to its name and Enter) searches the product list for it.
 */
const search = (event: CustomEvent<RecommendSelectDetail>) =>
  (event.currentTarget as Element)
    .closest<SvcSearch>('svc-search')!
    .store!.setQuery(String(event.detail.hit.name ?? ''));

const meta: Meta = {
  title: 'Pages/Home page',
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <div style="display: grid; gap: 2rem; max-inline-size: 64rem">
      <svc-trending model="trending-facets" facet-name="category" style="--svc-recommendations-columns: repeat(3, 1fr)">
        <h2 slot="heading">Trending categories</h2>
      </svc-trending>
      <svc-trending model="trending-facets" facet-name="subCategory" max-recommendations="6"
        style="--svc-recommendations-columns: repeat(auto-fill, minmax(9rem, 1fr))">
        <h2 slot="heading">Popular sub-categories</h2>
      </svc-trending>
      <svc-trending max-recommendations="8" @svc-trending-select=${search}>
        <h2 slot="heading">Trending now</h2>
        <template>
          <style>
            .name { display: block; inline-size: 100%; padding: 0; border: 0; background: none; text-align: start; font-weight: 600; margin-block-end: 0.25rem; cursor: pointer; }
            .meta { font-size: 0.85em; opacity: 0.75; }
          </style>
          <button class="name" type="button" data-text="name"></button>
          <span class="meta" data-text="hierarchicalCategories.lvl1"></span>
          <div data-text="price" data-currency="USD"></div>
          <button type="button" data-svc-conversion="Added to cart">Add to cart</button>
        </template>
      </svc-trending>
      <section>
        <h2>Products</h2>
        <svc-hits></svc-hits>
      </section>
    </div>
  </svc-search>`,
};
export default meta;

export const HomePage: StoryObj = {};
