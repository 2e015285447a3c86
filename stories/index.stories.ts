import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  'index-name': string;
  query: string;
}

const column = 'display: grid; gap: 0.5rem; align-content: start';
const name = (hit: Record<string, unknown>) => html`${hit.name as string} · ${hit.category as string}`;

const meta: Meta<Args> = {
  title: 'Elements/Index',
  component: 'svc-index',
  tags: ['autodocs'],
  args: { 'index-name': `${SERVICE.indexName}_query_suggestions`, query: 'chair' },
  render: (args) => html`<svc-search
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .initialState=${{ query: args.query }}
  >
    <svc-search-box></svc-search-box>
    <div style="display: grid; grid-template-columns: 2fr 1fr; gap: 1rem; margin-block-start: 1rem">
      <section style=${column}>
        <h3 style="margin: 0">Products</h3>
        <svc-hits .renderHit=${name}></svc-hits>
      </section>
      <svc-index index-name=${args['index-name']}>
        <section style=${column}>
          <h3 style="margin: 0">Popular searches</h3>
          <svc-configure hits-per-page="8"></svc-configure>
          <svc-hits attribute="query"></svc-hits>
        </section>
      </svc-index>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Products and the demo's query suggestions for the same query: one request per keystroke for both indices. */
export const Default: Story = {};

/**
 * The same catalogue twice with separate refinements: the second `<svc-index>` view has its own filter, list
 * and pages; the search box drives both.
 */
export const OwnRefinements: Story = {
  args: { 'index-name': SERVICE.indexName, query: '' },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-search-box></svc-search-box>
    <div style="display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; margin-block-start: 1rem">
      <section style=${column}>
        <h3 style="margin: 0">All products</h3>
        <svc-configure hits-per-page="5"></svc-configure>
        <svc-refinement-list attribute="category"></svc-refinement-list>
        <svc-hits .renderHit=${name}></svc-hits>
        <svc-pagination></svc-pagination>
      </section>
      <svc-index index-name=${args['index-name']}>
        <section style=${column}>
          <h3 style="margin: 0">Technology under $200</h3>
          <svc-configure filters="category:Technology AND price < 200" hits-per-page="5"></svc-configure>
          <svc-refinement-list attribute="subCategory"></svc-refinement-list>
          <svc-hits .renderHit=${name}></svc-hits>
          <svc-pagination></svc-pagination>
        </section>
      </svc-index>
    </div>
  </svc-search>`,
};
