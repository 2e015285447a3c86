import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { facetPage } from './shared.js';

interface Args {
  attribute: string;
  on: string;
  off?: string;
  label: string;
  switch: boolean;
}

/**
 * The demo products shipped the same day at least once (`sameDayShipping`, from the order history): the count
 * is what checking it shows.
 */
const meta: Meta<Args> = {
  title: 'Elements/Toggle refinement',
  component: 'svc-toggle-refinement',
  tags: ['autodocs'],
  args: { attribute: 'sameDayShipping', on: 'true', label: 'Same-day delivery', switch: false },
  render: (args) =>
    facetPage(
      html`<svc-toggle-refinement
        attribute=${args.attribute}
        on=${args.on}
        off=${ifDefined(args.off)}
        label=${args.label}
        ?switch=${args.switch}
      ></svc-toggle-refinement>`,
      { heading: 'Delivery' },
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** A checkbox. */
export const Checkbox: Story = {};

/** The same as a switch (`role="switch"`). */
export const Switch: Story = { args: { switch: true } };
