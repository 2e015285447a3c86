import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  placeholder?: string;
  'suggestions-index'?: string;
  'max-suggestions': number;
  'category-attribute'?: string;
  autofocus: boolean;
}

/**
 * The demo's suggestions index `products_query_suggestions` is built by the local service at its first start
 * (`--demo`): sub-categories, brands, brands in a sub-category and the top categories, ranked by the orders of
 * their products. Type "ch", "pho" or "hon".
 */
const meta: Meta<Args> = {
  title: 'Elements/Autocomplete',
  component: 'svc-autocomplete',
  tags: ['autodocs'],
  args: {
    placeholder: 'Search products, brands, categories',
    'max-suggestions': 5,
    'category-attribute': 'category',
    autofocus: false,
  },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-autocomplete
      placeholder=${ifDefined(args.placeholder)}
      suggestions-index=${ifDefined(args['suggestions-index'] || undefined)}
      max-suggestions=${args['max-suggestions']}
      category-attribute=${ifDefined(args['category-attribute'] || undefined)}
      ?autofocus=${args.autofocus}
    ></svc-autocomplete>
    <svc-stats style="margin-block: 1rem .5rem"></svc-stats>
    <svc-hits></svc-hits>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Suggestions with the top category of each ("in Furniture"). */
export const WithCategories: Story = {};

/** The suggested queries only, up to eight. */
export const QueriesOnly: Story = { args: { 'category-attribute': '', 'max-suggestions': 8 } };

/** Styled from the page with `::part` and custom properties. */
export const Styled: Story = {
  render: (args) => html`<style>
      .styled svc-autocomplete {
        --svc-search-box-height: 3.25rem;
        --svc-search-box-radius: 999px;
        --svc-accent: #c2410c;
        --svc-autocomplete-max-height: 16rem;
      }
      .styled svc-autocomplete::part(category) {
        font-style: italic;
      }
    </style>
    <div class="styled">
      <svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
        <svc-autocomplete placeholder=${ifDefined(args.placeholder)} category-attribute="category" max-suggestions="8"></svc-autocomplete>
      </svc-search>
    </div>`,
};
