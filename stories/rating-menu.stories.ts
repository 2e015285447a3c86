import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

interface Args {
  attribute: string;
  max: number;
}

/**
 * The demo catalogue's `rating`: 1 to 5 stars from the share of a product's order lines sold at a profit
 * (1 + 4 × that share, rounded; see the service's README).
 */
const meta: Meta<Args> = {
  title: 'Elements/Rating menu',
  component: 'svc-rating-menu',
  tags: ['autodocs'],
  args: { attribute: 'rating', max: 5 },
  render: (args) =>
    facetPage(html`<svc-rating-menu attribute=${args.attribute} max=${args.max}></svc-rating-menu>`, {
      heading: 'Rating',
    }),
};
export default meta;

type Story = StoryObj<Args>;

/** "4 stars & up" … "1 star & up". */
export const Stars: Story = {};
