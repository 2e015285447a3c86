import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  'included-attributes'?: string;
  'excluded-attributes'?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/Current refinements',
  component: 'svc-current-refinements',
  tags: ['autodocs'],
  args: {},
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .initialState=${{ disjunctiveFacetRefinements: { brand: ['Avery', 'Xerox'] }, facetRefinements: { category: ['Office Supplies'] } }}>
    <svc-configure hits-per-page="6"></svc-configure>
    <svc-current-refinements
      included-attributes=${ifDefined(args['included-attributes'])}
      excluded-attributes=${ifDefined(args['excluded-attributes'])}
      .labels=${{ brand: 'Brand', category: 'Category', price: 'Price', query: 'Search' }}
    ></svc-current-refinements>
    <div style="display: grid; grid-template-columns: 14rem 1fr; gap: 1.5rem; margin-block-start: 1rem">
      <div>
        <svc-refinement-list attribute="brand" searchable></svc-refinement-list>
        <svc-refinement-list attribute="category" operator="and" style="margin-block-start: 1rem"></svc-refinement-list>
      </div>
      <svc-hits></svc-hits>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Default: Story = {};

/** `excluded-attributes=""`: the query is listed too, as a removable chip. */
export const WithQuery: Story = { args: { 'excluded-attributes': '' } };

/** Only the brand refinements. */
export const OnlyBrand: Story = { args: { 'included-attributes': 'brand' } };
