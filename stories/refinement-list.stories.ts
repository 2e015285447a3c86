import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute: string;
  operator: 'or' | 'and';
  limit: number;
  'show-more': boolean;
  'show-more-limit': number;
  searchable: boolean;
  'sort-by'?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/Refinement list',
  component: 'svc-refinement-list',
  tags: ['autodocs'],
  args: { attribute: 'brand', operator: 'or', limit: 10, 'show-more': true, 'show-more-limit': 20, searchable: true },
  argTypes: {
    operator: { control: 'inline-radio', options: ['or', 'and'] },
    attribute: { control: 'select', options: ['brand', 'category', 'subCategory'] },
  },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <div style="display: grid; grid-template-columns: minmax(10rem, 16rem) 1fr; gap: 1.5rem">
      <svc-refinement-list
        attribute=${args.attribute}
        operator=${args.operator}
        limit=${args.limit}
        ?show-more=${args['show-more']}
        show-more-limit=${args['show-more-limit']}
        ?searchable=${args.searchable}
        sort-by=${ifDefined(args['sort-by'])}
      ></svc-refinement-list>
      <svc-hits></svc-hits>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Brands, searchable, OR between the checked values. */
export const Brands: Story = {};

/** Categories with AND, sorted by name. */
export const CategoriesAnd: Story = {
  args: {
    attribute: 'category',
    operator: 'and',
    searchable: false,
    'show-more': false,
    'sort-by': 'isRefined,name:asc',
  },
};
