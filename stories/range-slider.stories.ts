import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { facetPage } from './shared.js';

interface Args {
  attribute: string;
  step?: number;
  precision?: number;
  currency?: string;
}

/**
 * The demo catalogue's prices, bounds from the results: drag a thumb or use the arrow keys (Page Up / Down,
 * Home / End); the range input below shares the same refinement.
 */
const meta: Meta<Args> = {
  title: 'Elements/Range slider',
  component: 'svc-range-slider',
  tags: ['autodocs'],
  args: { attribute: 'price', currency: 'USD' },
  argTypes: {
    step: { control: 'number' },
    precision: { control: { type: 'number', min: 0, max: 4, step: 1 } },
  },
  render: (args) =>
    facetPage(
      html`<svc-range-slider
        attribute=${args.attribute}
        step=${ifDefined(args.step)}
        precision=${ifDefined(args.precision)}
        currency=${ifDefined(args.currency)}
      ></svc-range-slider>`,
      { heading: 'Price', aside: html`<svc-range-input attribute=${args.attribute}></svc-range-input>` },
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** Prices in dollars, linked to a range input. */
export const Price: Story = {};

/** Ratings by half stars. */
export const Rating: Story = { args: { attribute: 'rating', step: 0.5, precision: 1, currency: undefined } };
