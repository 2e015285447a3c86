import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  'hide-label': boolean;
}

const meta: Meta<Args> = {
  title: 'Elements/Sort by',
  component: 'svc-sort-by',
  tags: ['autodocs'],
  args: { 'hide-label': false },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-sort-by ?hide-label=${args['hide-label']}>
      <option value="products">Most popular</option>
      <option value="products_price_asc">Lowest price</option>
      <option value="products_price_desc">Highest price</option>
    </svc-sort-by>
    <svc-hits style="margin-block-start: 1rem" .renderHit=${(hit: Record<string, unknown>) =>
      html`<strong>${hit.name as string}</strong> — $${(hit.price as number).toFixed(2)}`}></svc-hits>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** The orders as `<option>` children: no JavaScript needed. */
export const Default: Story = {};

/** The orders as the `items` property. */
export const ItemsProperty: Story = {
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-sort-by
      .items=${[
        { value: 'products', label: 'Featured' },
        { value: 'products_price_desc', label: 'Price: high to low' },
      ]}
    ></svc-sort-by>
    <svc-stats style="margin-block-start: 0.5rem"></svc-stats>
  </svc-search>`,
};
