import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute: string;
  limit?: number;
  showMore?: boolean;
  showMoreLimit?: number;
  sortBy?: string;
}

/**
 * The demo catalogue's categories: press one to show only its products, press it again to see them all;
 * every category keeps its count while one is selected.
 */
const meta: Meta<Args> = {
  title: 'Elements/Menu',
  component: 'svc-menu',
  tags: ['autodocs'],
  args: { attribute: 'category' },
  argTypes: {
    limit: { control: { type: 'number', min: 1, step: 1 } },
    showMoreLimit: { control: { type: 'number', min: 1, step: 1 } },
    sortBy: { control: 'text' },
  },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-configure hits-per-page="6"></svc-configure>
    <div style="display: grid; grid-template-columns: minmax(12rem, 16rem) 1fr; gap: 1.5rem; align-items: start">
      <section aria-labelledby="menu-heading">
        <h2 id="menu-heading" style="margin: 0 0 0.5rem; font-size: 0.875rem; text-transform: capitalize">${args.attribute}</h2>
        <svc-menu
          attribute=${args.attribute}
          limit=${ifDefined(args.limit)}
          ?show-more=${args.showMore}
          show-more-limit=${ifDefined(args.showMoreLimit)}
          sort-by=${ifDefined(args.sortBy)}
        ></svc-menu>
      </section>
      <div style="display: grid; gap: 1rem">
        <svc-stats></svc-stats>
        <svc-hits>
          <template>
            <svc-highlight attribute="name"></svc-highlight>
            <div><span data-text="category"></span> · <span data-text="subCategory"></span></div>
          </template>
        </svc-hits>
      </div>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** The three categories, by name, the selected one first. */
export const Default: Story = {};

/** Sub-categories: 5 shown, the most frequent first, "Show more" up to 17. */
export const ShowMore: Story = {
  args: {
    attribute: 'subCategory',
    limit: 5,
    showMore: true,
    showMoreLimit: 17,
    sortBy: 'isRefined,count:desc,name:asc',
  },
};
