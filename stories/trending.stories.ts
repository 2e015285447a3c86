import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../src/elements/trending/define.js';
import { SERVICE } from './shared.js';

interface Args {
  model: 'trending-items' | 'trending-facets';
  'facet-name'?: string;
  'facet-value'?: string;
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

/** What sold (and was clicked) most in the last 30 days of the demo's order history, with a 7-day half-life. */
const meta: Meta<Args> = {
  title: 'Elements/Trending',
  component: 'svc-trending',
  tags: ['autodocs'],
  args: { model: 'trending-items', threshold: 0, 'max-recommendations': 6 },
  argTypes: { model: { control: 'inline-radio', options: ['trending-items', 'trending-facets'] } },
  render: (args) =>
    root(html`<svc-trending
      model=${args.model}
      facet-name=${ifDefined(args['facet-name'])}
      facet-value=${ifDefined(args['facet-value'])}
      threshold=${args.threshold}
      max-recommendations=${args['max-recommendations']}
    ></svc-trending>`),
};
export default meta;

type Story = StoryObj<Args>;

/** Trending items of the whole catalogue. */
export const TrendingItems: Story = {};

/** Trending within one facet value. */
export const TrendingInFurniture: Story = { args: { 'facet-name': 'category', 'facet-value': 'Furniture' } };

/** Trending facet values (sub-categories); a click refines the search, and the hits below follow. */
export const TrendingFacets: Story = {
  args: { model: 'trending-facets', 'facet-name': 'subCategory', 'max-recommendations': 8 },
  render: (args) =>
    root(html`<svc-trending model="trending-facets" facet-name=${args['facet-name']!} max-recommendations=${args['max-recommendations']}
        style="--svc-recommendations-columns: repeat(auto-fill, minmax(9rem, 1fr))">
        <h3 slot="heading">Trending sub-categories</h3>
      </svc-trending>
      <svc-hits style="margin-block-start: 1rem"></svc-hits>`),
};
