import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/elements/trending/define.js';
import { SERVICE } from './shared.js';

/**
 * A shop's home page on the demo catalogue: trending categories and sub-categories (facet values of what
 * sold recently; a click refines the product list) and trending items, all from the Recommend models trained
 * on the order history, with Insights views and clicks carrying each answer's queryID.
 */
const meta: Meta = {
  title: 'Pages/Home page',
  render: () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts}>
    <div style="display: grid; gap: 2rem; max-inline-size: 64rem">
      <svc-trending model="trending-facets" facet-name="category" style="--svc-recommendations-columns: repeat(3, 1fr)">
        <h2 slot="heading">Trending categories</h2>
      </svc-trending>
      <svc-trending model="trending-facets" facet-name="subCategory" max-recommendations="6"
        style="--svc-recommendations-columns: repeat(auto-fill, minmax(9rem, 1fr))">
        <h2 slot="heading">Popular sub-categories</h2>
      </svc-trending>
      <svc-trending max-recommendations="8">
        <h2 slot="heading">Trending now</h2>
        <template>
          <style>
            .name { display: block; font-weight: 600; margin-block-end: 0.25rem; }
            .meta { font-size: 0.85em; opacity: 0.75; }
          </style>
          <span class="name" data-text="name"></span>
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
