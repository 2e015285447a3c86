import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

/**
 * A whole shop search page built from the elements only (no JavaScript beyond registering them): search
 * box, sort-by, stats and current refinements over the hits, brand refinements, a category menu and a price
 * range in a sidebar, hits from a `<template>` with an "Add to cart" button that sends a conversion, pagination.
 */
const meta: Meta = {
  title: 'Pages/Shop',
  tags: ['!autodocs'],
  parameters: { layout: 'fullscreen' },
  render: () => html`<style>
      /* Follows the reader's light or dark preference: the elements take their colours from the page. */
      :root {
        color-scheme: light dark;
      }
      body {
        margin: 0;
        background: Canvas;
        color: CanvasText;
      }
      .shop {
        font-family: system-ui, sans-serif;
        max-inline-size: 72rem;
        margin: 0 auto;
        padding: 1.5rem;
        box-sizing: border-box;
        display: grid;
        grid-template-columns: 15rem 1fr;
        grid-template-areas: 'header header' 'aside main';
        gap: 1.5rem 2rem;
      }
      .shop header {
        grid-area: header;
        display: flex;
        gap: 1rem;
        align-items: center;
      }
      .shop header h1 {
        margin: 0;
        font-size: 1.25rem;
      }
      .shop header svc-autocomplete {
        flex: 1;
      }
      .shop aside {
        grid-area: aside;
        display: grid;
        gap: 1.25rem;
        align-content: start;
      }
      .shop aside h2 {
        margin: 0 0 0.5rem;
        font-size: 0.8125rem;
        text-transform: uppercase;
        letter-spacing: 0.04em;
      }
      .shop main {
        grid-area: main;
        display: grid;
        gap: 1rem;
        align-content: start;
      }
      .shop .toolbar {
        display: flex;
        flex-wrap: wrap;
        gap: 1rem;
        align-items: center;
        justify-content: space-between;
      }
      .shop svc-hits {
        --svc-hits-columns: repeat(auto-fill, minmax(14rem, 1fr));
      }
    </style>
    <svc-search
      class="shop"
      app-id=${SERVICE.appId}
      api-key=${SERVICE.searchKey}
      index-name=${SERVICE.indexName}
      hosts=${SERVICE.hosts}
    >
      <header>
        <h1>Superstore</h1>
        <svc-autocomplete placeholder="Search products, brands, categories" category-attribute="category"></svc-autocomplete>
        <svc-sort-by hide-label>
          <option value="products">Most popular</option>
          <option value="products_price_asc">Lowest price</option>
          <option value="products_price_desc">Highest price</option>
        </svc-sort-by>
      </header>
      <aside>
        <svc-clear-refinements></svc-clear-refinements>
        <section aria-labelledby="brand-heading">
          <h2 id="brand-heading">Brand</h2>
          <svc-refinement-list attribute="brand" searchable show-more></svc-refinement-list>
        </section>
        <section aria-labelledby="category-heading">
          <h2 id="category-heading">Category</h2>
          <svc-menu attribute="category"></svc-menu>
        </section>
        <section aria-labelledby="price-heading">
          <h2 id="price-heading">Price</h2>
          <svc-range-input attribute="price"></svc-range-input>
        </section>
      </aside>
      <main>
        <div class="toolbar">
          <svc-stats></svc-stats>
          <svc-hits-per-page hide-label>
            <option value="12" selected>12 per page</option>
            <option value="24">24 per page</option>
            <option value="48">48 per page</option>
          </svc-hits-per-page>
        </div>
        <svc-current-refinements .labels=${{ brand: 'Brand', category: 'Category', price: 'Price' }}></svc-current-refinements>
        <svc-hits>
          <template>
            <style>
              .card { display: grid; gap: 0.375rem; block-size: 100%; align-content: start; }
              .name { font-weight: 600; line-height: 1.3; }
              .category { font-size: 0.8125rem; opacity: 0.7; }
              .price { font-size: 1.125rem; font-variant-numeric: tabular-nums; }
              .add { justify-self: start; margin-block-start: 0.25rem; padding: 0.375rem 0.75rem; border: 1px solid currentColor;
                border-radius: 0.375rem; background: transparent; color: inherit; font: inherit; cursor: pointer; }
              .add:hover { background: color-mix(in srgb, currentColor 10%, transparent); }
            </style>
            <div class="card">
              <svc-highlight class="name" attribute="name"></svc-highlight>
              <span class="category"><span data-text="category"></span> · <span data-text="subCategory"></span></span>
              <span class="price" data-text="price" data-currency="USD"></span>
              <button class="add" type="button" data-svc-conversion="Added to cart">Add to cart</button>
            </div>
          </template>
        </svc-hits>
        <svc-pagination></svc-pagination>
      </main>
    </svc-search>`,
};
export default meta;

export const Shop: StoryObj = {};
