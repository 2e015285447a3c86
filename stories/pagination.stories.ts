import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  padding: number;
  'total-pages'?: number;
  'show-first': string;
  'show-previous': string;
  'show-next': string;
  'show-last': string;
}

const onOff = { control: 'inline-radio', options: ['true', 'false'] } as const;

const meta: Meta<Args> = {
  title: 'Elements/Pagination',
  component: 'svc-pagination',
  tags: ['autodocs'],
  args: { padding: 3, 'show-first': 'true', 'show-previous': 'true', 'show-next': 'true', 'show-last': 'false' },
  argTypes: { 'show-first': onOff, 'show-previous': onOff, 'show-next': onOff, 'show-last': onOff },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex} .initialState=${{ hitsPerPage: 5 }}>
    <svc-hits></svc-hits>
    <svc-pagination
      style="margin-block-start: 1rem"
      padding=${args.padding}
      total-pages=${ifDefined(args['total-pages'])}
      show-first=${args['show-first']}
      show-previous=${args['show-previous']}
      show-next=${args['show-next']}
      show-last=${args['show-last']}
    ></svc-pagination>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Default: Story = {};

/** A compact pager: one page on each side, the last page link, at most 10 pages. */
export const Compact: Story = { args: { padding: 1, 'show-last': 'true', 'total-pages': 10 } };
