import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  'hide-label': boolean;
}

const meta: Meta<Args> = {
  title: 'Elements/Hits per page',
  component: 'svc-hits-per-page',
  tags: ['autodocs'],
  args: { 'hide-label': false },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-hits-per-page ?hide-label=${args['hide-label']}>
      <option value="4" selected>4 per page</option>
      <option value="8">8 per page</option>
      <option value="16">16 per page</option>
    </svc-hits-per-page>
    <svc-hits style="margin-block-start: 1rem"></svc-hits>
    <svc-pagination style="margin-block-start: 1rem"></svc-pagination>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Default: Story = {};

/** The sizes as the `items` property; labels come from the `item` translation when omitted. */
export const ItemsProperty: Story = {
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-hits-per-page .items=${[{ value: 3, label: '', default: true }, { value: 6, label: '' }]}></svc-hits-per-page>
    <svc-hits style="margin-block-start: 1rem"></svc-hits>
  </svc-search>`,
};
