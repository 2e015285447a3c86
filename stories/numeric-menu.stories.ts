import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

interface Args {
  attribute: string;
  'show-counts': boolean;
}

/**
 * Price ranges of the demo catalogue from `<option>` children — the declarative form, as `<svc-sort-by>`. With
 * `show-counts`, each range shows its hits (one more zero-hit query per range, in the same request).
 */
const meta: Meta<Args> = {
  title: 'Elements/Numeric menu',
  component: 'svc-numeric-menu',
  tags: ['autodocs'],
  args: { attribute: 'price', 'show-counts': false },
  render: (args) =>
    facetPage(
      html`<svc-numeric-menu attribute=${args.attribute} ?show-counts=${args['show-counts']}>
        <option value="">All</option>
        <option value=":10">Under $10</option>
        <option value="10:100">$10 to $100</option>
        <option value="100:">$100 and above</option>
      </svc-numeric-menu>`,
      { heading: 'Price' },
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** Four ranges. */
export const Price: Story = {};

/** With the number of hits of each range. */
export const WithCounts: Story = { args: { 'show-counts': true } };
