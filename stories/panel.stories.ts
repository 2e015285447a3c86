import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

interface Args {
  header: string;
  collapsible: boolean;
  collapsed: boolean;
  'hide-when-empty': boolean;
}

/**
 * A header and a footer around a facet element, collapsible; marked `empty` (dimmed) — or hidden with
 * `hide-when-empty` — while the facet has nothing to refine (search "zzzz").
 */
const meta: Meta<Args> = {
  title: 'Elements/Panel',
  component: 'svc-panel',
  tags: ['autodocs'],
  args: { header: 'Brand', collapsible: true, collapsed: false, 'hide-when-empty': false },
  render: (args) =>
    facetPage(
      html`<svc-search-box></svc-search-box>
        <svc-panel
          header=${args.header}
          ?collapsible=${args.collapsible}
          ?collapsed=${args.collapsed}
          ?hide-when-empty=${args['hide-when-empty']}
        >
          <svc-refinement-list attribute="brand" limit="5"></svc-refinement-list>
          <small slot="footer">Brands of the results</small>
        </svc-panel>`,
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** A collapsible brand panel. */
export const Brand: Story = {};

/** Collapsed at first. */
export const Collapsed: Story = { args: { collapsed: true } };
