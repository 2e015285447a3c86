import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

interface Args {
  attributes: string;
}

/**
 * The path of the category chosen in the hierarchical menu beside it: "Home › Office Supplies › Paper"; each
 * level is a link back to it.
 */
const meta: Meta<Args> = {
  title: 'Elements/Breadcrumb',
  component: 'svc-breadcrumb',
  tags: ['autodocs'],
  args: { attributes: 'hierarchicalCategories.lvl0,hierarchicalCategories.lvl1' },
  render: (args) =>
    facetPage(html`<svc-breadcrumb attributes=${args.attributes}></svc-breadcrumb>`, {
      heading: 'Where you are',
      initialState: { facetRefinements: { 'hierarchicalCategories.lvl1': ['Office Supplies > Paper'] } },
      aside: html`<svc-hierarchical-menu attributes=${args.attributes}></svc-hierarchical-menu>`,
    }),
};
export default meta;

type Story = StoryObj<Args>;

/** Opened on "Office Supplies > Paper". */
export const Path: Story = {};
