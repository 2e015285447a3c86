import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { facetPage } from './shared.js';

interface Args {
  attributes: string;
  'root-path'?: string;
  'show-parent-level': boolean;
  limit?: number;
  'show-more': boolean;
}

/**
 * The demo catalogue's categories and sub-categories (`hierarchicalCategories.lvl0` / `.lvl1`): choose
 * "Furniture", then "Chairs"; choose "Chairs" again to go back up. The counts of each level stay those of the
 * search without the menu's choice.
 */
const meta: Meta<Args> = {
  title: 'Elements/Hierarchical menu',
  component: 'svc-hierarchical-menu',
  tags: ['autodocs'],
  args: {
    attributes: 'hierarchicalCategories.lvl0,hierarchicalCategories.lvl1',
    'show-parent-level': true,
    'show-more': false,
  },
  argTypes: {
    'root-path': { control: 'select', options: [undefined, 'Furniture', 'Office Supplies', 'Technology'] },
    limit: { control: { type: 'number', min: 1, step: 1 } },
  },
  render: (args) =>
    facetPage(
      html`<svc-hierarchical-menu
        attributes=${args.attributes}
        root-path=${ifDefined(args['root-path'])}
        show-parent-level=${String(args['show-parent-level'])}
        limit=${ifDefined(args.limit)}
        ?show-more=${args['show-more']}
      ></svc-hierarchical-menu>`,
      { heading: 'Category' },
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** Every category, sub-categories under the one chosen. */
export const Categories: Story = {};

/** Opened on "Office Supplies > Paper" (as a URL would): its path is open, its siblings listed. */
export const Refined: Story = {
  render: (args) =>
    facetPage(html`<svc-hierarchical-menu attributes=${args.attributes}></svc-hierarchical-menu>`, {
      heading: 'Category',
      initialState: { facetRefinements: { 'hierarchicalCategories.lvl1': ['Office Supplies > Paper'] } },
    }),
};

/** The sub-categories of Furniture only. */
export const RootPath: Story = { args: { 'root-path': 'Furniture' } };
