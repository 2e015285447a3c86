import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute: string;
  min?: number;
  max?: number;
  precision?: number;
}

/**
 * The demo catalogue's prices: the bounds (placeholders, the fields' `min` / `max`) come from the results'
 * `facets_stats.price`; submit a range and the hits stay within it. The current
 * refinements show the range as two chips; removing one empties its field.
 */
const meta: Meta<Args> = {
  title: 'Elements/Range input',
  component: 'svc-range-input',
  tags: ['autodocs'],
  args: { attribute: 'price' },
  argTypes: {
    min: { control: 'number' },
    max: { control: 'number' },
    precision: { control: { type: 'number', min: 0, max: 4, step: 1 } },
  },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-configure hits-per-page="8"></svc-configure>
    <div style="display: grid; grid-template-columns: minmax(12rem, 16rem) 1fr; gap: 1.5rem; align-items: start">
      <section aria-labelledby="price-heading">
        <h2 id="price-heading" style="margin: 0 0 0.5rem; font-size: 0.875rem">Price</h2>
        <svc-range-input
          attribute=${args.attribute}
          min=${ifDefined(args.min)}
          max=${ifDefined(args.max)}
          precision=${ifDefined(args.precision)}
        ></svc-range-input>
      </section>
      <div style="display: grid; gap: 1rem">
        <svc-current-refinements .labels=${{ price: 'Price' }}></svc-current-refinements>
        <svc-hits>
          <template>
            <svc-highlight attribute="name"></svc-highlight>
            <div><strong data-text="price" data-currency="USD"></strong></div>
          </template>
        </svc-hits>
      </div>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Bounds from the results: the cheapest and the dearest product of the current search. */
export const Price: Story = {};

/** `min="0" max="500" precision="2"`: fixed bounds, a step of 0.01, cents kept in what is sent. */
export const BoundsAndPrecision: Story = { args: { min: 0, max: 500, precision: 2 } };
