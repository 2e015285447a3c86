import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  filters: string;
  'hits-per-page': number;
}

const meta: Meta<Args> = {
  title: 'Elements/Configure',
  component: 'svc-configure',
  tags: ['autodocs'],
  args: { filters: 'category:Furniture AND price < 100', 'hits-per-page': 5 },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-configure filters=${args.filters} hits-per-page=${args['hits-per-page']}></svc-configure>
    <svc-search-box></svc-search-box>
    <svc-stats style="margin-block-start: 0.5rem"></svc-stats>
    <svc-hits .renderHit=${(hit: Record<string, unknown>) =>
      html`<strong>${hit.name as string}</strong> · ${hit.category as string} · $${(hit.price as number).toFixed(2)}`}></svc-hits>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Attributes are search parameters: only furniture under $100, five per page. */
export const Default: Story = {};

/** The `params` property: any search parameter, here `distinct` and rule contexts. */
export const ParamsProperty: Story = {
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-configure .params=${{ hitsPerPage: 3, filters: 'brand:Xerox', ruleContexts: ['storybook'] }}></svc-configure>
    <svc-stats></svc-stats>
    <svc-hits></svc-hits>
  </svc-search>`,
};
