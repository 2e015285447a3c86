import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  /** The autocomplete searches the results as the user types (else it offers suggestions only). */
  searchAsYouType: boolean;
}

/**
 * A whole shop search page built from the elements only (no JavaScript beyond registering them), as a shop would
 * copy it: an autocomplete that searches as you type, sort-by, the path of the category chosen (breadcrumb), a
 * banner for the query "chairs" (a rule of the demo index), stats and current refinements over the hits; the
 * filters in panels, in the order the index asks for (`<svc-dynamic-widgets>`; the "chairs" rule puts brands
 * first) — category (hierarchical menu), same-day delivery (toggle), brand (searchable list), price (slider and
 * fields), rating — rule contexts for the page and the category chosen, and hits from a `<template>` with an
 * "Add to cart" button that sends a conversion, pagination.
 *
 * On a phone (under 48rem) the filters are a disclosure (`<details>`, closed) above the results, which take the
 * whole width; from 48rem on, the same `<details>` is a sidebar that is always open (its summary hidden, its
 * content shown through `::details-content`): no script, no second copy of the filters.
 */
const meta: Meta<Args> = {
  title: 'Pages/Shop',
  tags: ['!autodocs'],
  parameters: { layout: 'fullscreen' },
  args: { searchAsYouType: true },
  render: (args) => html`<style>
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
        padding: 1rem;
        box-sizing: border-box;
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        grid-template-areas: 'header' 'filters' 'main';
        gap: 1rem;
      }
      .shop header {
        grid-area: header;
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1rem;
        align-items: center;
      }
      .shop header h1 {
        margin: 0;
        font-size: 1.25rem;
      }
      .shop header svc-autocomplete {
        flex: 1 1 16rem;
        min-inline-size: 0;
      }
      .shop .filters {
        grid-area: filters;
        min-inline-size: 0;
      }
      .shop .filters > summary {
        padding: 0.625rem 0.75rem;
        border: 1px solid color-mix(in srgb, currentColor 22%, transparent);
        border-radius: 0.375rem;
        font-weight: 600;
        cursor: pointer;
      }
      .shop .filters[open] > summary {
        margin-block-end: 1rem;
      }
      .shop .filter-list {
        display: grid;
        gap: 1.25rem;
        align-content: start;
      }
      .shop main {
        grid-area: main;
        display: grid;
        gap: 1rem;
        align-content: start;
        min-inline-size: 0;
      }
      .shop .toolbar {
        display: flex;
        flex-wrap: wrap;
        gap: 1rem;
        align-items: center;
        justify-content: space-between;
      }
      .shop svc-hits {
        --svc-hits-columns: repeat(auto-fill, minmax(min(14rem, 100%), 1fr));
      }
      @media (min-width: 48rem) {
        .shop {
          padding: 1.5rem;
          grid-template-columns: 15rem minmax(0, 1fr);
          grid-template-areas: 'header header' 'filters main';
          gap: 1.5rem 2rem;
        }
        /* A sidebar, always open: the disclosure is for narrow screens only. */
        .shop .filters > summary {
          display: none;
        }
        .shop .filters::details-content {
          content-visibility: visible;
        }
      }
    </style>
    <svc-search
      class="shop"
      app-id=${SERVICE.appId}
      api-key=${SERVICE.searchKey}
      index-name=${SERVICE.indexName}
      hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    >
      <!-- Rules may target the shop page, or a category chosen: contexts "shop" and "svc-hierarchicalCategories_lvl0-…". -->
      <svc-query-rule-context contexts="shop" tracked-filters="hierarchicalCategories.lvl0"></svc-query-rule-context>
      <header>
        <h1>Superstore</h1>
        <svc-autocomplete
          placeholder="Search products, brands, categories"
          category-attribute="category"
          ?search-as-you-type=${args.searchAsYouType}
        ></svc-autocomplete>
        <svc-sort-by hide-label>
          <option value="products">Most popular</option>
          <option value="products_price_asc">Lowest price</option>
          <option value="products_price_desc">Highest price</option>
        </svc-sort-by>
      </header>
      <details class="filters">
        <summary>Filters</summary>
        <div class="filter-list">
          <svc-clear-refinements></svc-clear-refinements>
          <!-- The facets in the order the index (or a rule, for some queries) asks for: renderingContent. -->
          <svc-dynamic-widgets>
            <svc-panel header="Category">
              <svc-hierarchical-menu
                attributes="hierarchicalCategories.lvl0,hierarchicalCategories.lvl1"
              ></svc-hierarchical-menu>
            </svc-panel>
            <svc-panel header="Delivery">
              <svc-toggle-refinement attribute="sameDayShipping" label="Same-day delivery"></svc-toggle-refinement>
            </svc-panel>
            <svc-panel header="Brand" collapsible>
              <svc-refinement-list attribute="brand" searchable show-more></svc-refinement-list>
            </svc-panel>
            <svc-panel header="Price" collapsible>
              <svc-range-slider attribute="price" currency="USD"></svc-range-slider>
              <svc-range-input attribute="price" slot="footer"></svc-range-input>
            </svc-panel>
            <svc-panel header="Rating" collapsible>
              <svc-rating-menu attribute="rating"></svc-rating-menu>
            </svc-panel>
          </svc-dynamic-widgets>
        </div>
      </details>
      <main>
        <svc-breadcrumb attributes="hierarchicalCategories.lvl0,hierarchicalCategories.lvl1"></svc-breadcrumb>
        <svc-query-rule-custom-data></svc-query-rule-custom-data>
        <div class="toolbar">
          <svc-stats></svc-stats>
          <svc-hits-per-page hide-label>
            <option value="12" selected>12 per page</option>
            <option value="24">24 per page</option>
            <option value="48">48 per page</option>
          </svc-hits-per-page>
        </div>
        <svc-current-refinements
          .labels=${{
            brand: 'Brand',
            price: 'Price',
            rating: 'Rating',
            sameDayShipping: 'Same-day',
            'hierarchicalCategories.lvl0': 'Category',
            'hierarchicalCategories.lvl1': 'Category',
          }}
        ></svc-current-refinements>
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
              <span class="category">★ <span data-text="rating"></span> / 5</span>
              <button class="add" type="button" data-svc-conversion="Added to cart">Add to cart</button>
            </div>
          </template>
        </svc-hits>
        <svc-pagination></svc-pagination>
      </main>
    </svc-search>`,
};
export default meta;

/** The shop: the autocomplete searches as you type. */
export const Shop: StoryObj<Args> = {};

/**
 * The same shop with an autocomplete that offers suggestions only: the results change on a choice or Enter, and
 * a text never searched goes back to the results' query when the list closes.
 */
export const SuggestionsOnly: StoryObj<Args> = { args: { searchAsYouType: false } };
