import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { RecommendHit } from '../src/client/types.js';
import '../src/elements/recommendations/define.js';
import { SERVICE } from './shared.js';

interface Args {
  model: 'related-products' | 'bought-together';
  'object-id': string;
  threshold: number;
  'max-recommendations': number;
}

const root = (content: unknown) => html`<svc-search
  app-id=${SERVICE.appId}
  api-key=${SERVICE.searchKey}
  index-name=${SERVICE.indexName}
  hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
>
  ${content}
</svc-search>`;

/**
 * Recommendations for one record of the demo catalogue, from models trained on its order history
 * (seeded as Insights conversion events on the service's first start with the demo).
 */
const meta: Meta<Args> = {
  title: 'Elements/Recommendations',
  component: 'svc-recommendations',
  tags: ['autodocs'],
  args: { model: 'related-products', 'object-id': 'TEC-AC-10002049', threshold: 0, 'max-recommendations': 6 },
  argTypes: { model: { control: 'inline-radio', options: ['related-products', 'bought-together'] } },
  render: (args) =>
    root(html`<svc-recommendations
      model=${args.model}
      object-id=${args['object-id']}
      threshold=${args.threshold}
      max-recommendations=${args['max-recommendations']}
    ></svc-recommendations>`),
};
export default meta;

type Story = StoryObj<Args>;

/** Related products of a Logitech keyboard: co-purchases blended with content (brand, sub-category, name). */
export const RelatedProducts: Story = {};

/** Products bought in the same orders as the keyboard (real pairs of the superstore orders). */
export const BoughtTogether: Story = { args: { model: 'bought-together' } };

/**
 * A `<template>` child with a heading and a conversion button; `data-text="_score"` shows each score. The name is
 * a button, so the keyboard can select a recommendation (a click on it bubbles to the item).
 */
export const WithTemplate: Story = {
  args: { model: 'bought-together', 'max-recommendations': 4 },
  render: (args) =>
    root(html`<svc-recommendations model=${args.model} object-id=${args['object-id']} threshold=${args.threshold} max-recommendations=${args['max-recommendations']}>
      <h3 slot="heading">Customers who bought this also bought</h3>
      <template>
        <style>
          .name { display: block; inline-size: 100%; padding: 0; border: 0; background: none; text-align: start; font-weight: 600; margin-block-end: 0.25rem; cursor: pointer; }
          .meta { font-size: 0.85em; opacity: 0.75; }
        </style>
        <button class="name" type="button" data-text="name"></button>
        <span class="meta"><span data-text="price" data-currency="USD"></span> · score <span data-text="_score"></span></span>
        <div><button type="button" data-svc-conversion="Added to cart">Add to cart</button></div>
      </template>
    </svc-recommendations>`),
};

/** `renderItem` for full control with a Lit template (a button inside, for the keyboard). */
export const WithRenderItem: Story = {
  render: (args) =>
    root(html`<svc-recommendations
      object-id=${args['object-id']}
      max-recommendations=${args['max-recommendations']}
      .renderItem=${(hit: RecommendHit<{ name: string; brand: string }>, { position }: { position: number }) =>
        html`<button type="button"><strong>${position}.</strong> ${hit.name}</button> <small>(${hit.brand}, ${hit._score})</small>`}
    ></svc-recommendations>`),
};

/** `query-parameters` filter the recommended records (here: under $50); `fallback-parameters` fill up. */
export const FilteredWithFallback: Story = {
  render: (args) =>
    root(html`<svc-recommendations
      model="bought-together"
      object-id=${args['object-id']}
      max-recommendations="6"
      query-parameters=${JSON.stringify({ filters: 'price < 50' })}
      fallback-parameters=${JSON.stringify({ filters: 'category:Technology AND price < 50' })}
    ><h3 slot="heading">Bought together, under $50</h3></svc-recommendations>`),
};

/** The empty state (a product no order has ever paired). */
export const Empty: Story = { args: { model: 'bought-together', 'object-id': 'no-such-product' } };
