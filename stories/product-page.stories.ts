import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, render } from 'lit';
import { createClient } from '../src/client/index.js';
import { createLocalClient } from '../src/local/index.js';
import type { RecommendSelectDetail } from '../src/elements/recommendations/recommend-list.js';
import '../src/elements/recommendations/define.js';
import { SERVICE } from './shared.js';

interface Args {
  'object-id': string;
}

interface Product {
  objectID: string;
  name: string;
  brand: string;
  category: string;
  subCategory: string;
  price: number;
  popularity: number;
}

const card = html`<template>
  <style>
    .name { display: block; inline-size: 100%; padding: 0; border: 0; background: none; text-align: start; font-weight: 600; margin-block-end: 0.25rem; cursor: pointer; }
    .meta { font-size: 0.85em; opacity: 0.75; }
    button { margin-block-start: 0.5rem; }
  </style>
  <button class="name" type="button" data-text="name"></button>
  <span class="meta"><span data-text="brand"></span> · <span data-text="price" data-currency="USD"></span></span>
  <div><button type="button" data-svc-conversion="Added to cart">Add to cart</button></div>
</template>`;

/**
 * A product page of the demo catalogue: the product, "Related products" and "Frequently bought together",
 * both from the Recommend models trained on the catalogue's order history. Clicking a recommendation — or Tab
 * to its name and Enter — opens that product (and Insights records the click with the recommendation's queryID
 * and position).
 */
function productPage(objectID: string): HTMLElement {
  const page = document.createElement('div');
  // The static catalogue reads the product from the exported index (the engine in a worker), else the service.
  const client =
    SERVICE.localIndices.length > 0
      ? createLocalClient({ indices: SERVICE.localIndices })
      : createClient({ appId: SERVICE.appId, apiKey: SERVICE.searchKey, hosts: [SERVICE.hosts] });
  const open = async (id: string) => {
    const { results } = await client.getObjects<Product>([{ indexName: SERVICE.indexName, objectID: id }]);
    const product = results[0];
    // A click on the name (or Enter/Space on it) or anywhere in the card; "Add to cart" is a conversion, not a selection.
    const select = (event: CustomEvent<RecommendSelectDetail>) => void open(event.detail.hit.objectID);
    render(
      html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
        <article style="display: grid; gap: 2rem; max-inline-size: 60rem">
          ${
            product
              ? html`<header>
                <p style="margin: 0; opacity: 0.7">${product.category} › ${product.subCategory}</p>
                <h1 style="margin-block: 0.25rem">${product.name}</h1>
                <p style="margin: 0">${product.brand} · <strong>$${product.price.toFixed(2)}</strong> · in ${product.popularity} orders</p>
              </header>`
              : html`<p>No product ${id} in the demo catalogue.</p>`
          }
          <svc-recommendations model="related-products" object-id=${id} max-recommendations="4" @svc-recommendations-select=${select}>
            ${card}
          </svc-recommendations>
          <svc-recommendations model="bought-together" object-id=${id} max-recommendations="4" @svc-recommendations-select=${select}>
            <h2 slot="heading">Frequently bought together</h2>
            <p slot="empty">No order has paired this product with another yet.</p>
            ${card}
          </svc-recommendations>
        </article>
      </svc-search>`,
      page,
    );
  };
  void open(objectID);
  return page;
}

const meta: Meta<Args> = {
  title: 'Pages/Product page',
  args: { 'object-id': 'TEC-AC-10002049' },
  render: (args) => productPage(args['object-id']),
};
export default meta;

type Story = StoryObj<Args>;

/** A Logitech gaming keyboard: related Logitech accessories and what its buyers bought with it. */
export const Keyboard: Story = {};

/** A best-selling paper: many orders, many pairs. */
export const Paper: Story = { args: { 'object-id': 'OFF-PA-10001970' } };

/** A chair. */
export const Chair: Story = { args: { 'object-id': 'FUR-CH-10003774' } };
