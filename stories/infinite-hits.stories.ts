import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute?: string;
  query: string;
  page: number;
}

/**
 * The demo catalogue, 8 hits a page: "Show more results" adds the next page under the ones shown (the focus
 * goes to the first new hit); a story starting on page 3 (as from a URL) offers "Show previous results".
 */
const meta: Meta<Args> = {
  title: 'Elements/Infinite hits',
  component: 'svc-infinite-hits',
  tags: ['autodocs'],
  args: { attribute: undefined, query: 'chair', page: 0 },
  argTypes: { page: { control: { type: 'number', min: 0, step: 1 } } },
  render: (args) => html`<svc-search
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .initialState=${{ query: args.query, page: args.page, hitsPerPage: 8 }}
  >
    <svc-search-box></svc-search-box>
    <div style="margin-block-start: 1rem">
      <svc-infinite-hits attribute=${ifDefined(args.attribute)} style="--svc-infinite-hits-columns: repeat(auto-fill, minmax(14rem, 1fr))">
        <template>
          <style>
            .name { display: block; font-weight: 600; margin-block-end: 0.25rem; }
            .price { font-variant-numeric: tabular-nums; }
          </style>
          <svc-highlight class="name" attribute="name"></svc-highlight>
          <span data-text="category"></span> · <span class="price" data-text="price" data-currency="USD"></span>
        </template>
      </svc-infinite-hits>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** From the first page: "Show more results" after the hits. */
export const Default: Story = {};

/** Arriving on page 3 (as from a URL with `?page=3`): "Show previous results" before the hits. */
export const FromALaterPage: Story = { args: { page: 2 } };
