import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  placeholder?: string;
  'search-as-you-type': string;
  autofocus: boolean;
}

const meta: Meta<Args> = {
  title: 'Elements/Search box',
  component: 'svc-search-box',
  tags: ['autodocs'],
  args: { placeholder: 'Search products', 'search-as-you-type': 'true', autofocus: false },
  argTypes: { 'search-as-you-type': { control: 'inline-radio', options: ['true', 'false'] } },
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-search-box
      placeholder=${ifDefined(args.placeholder)}
      search-as-you-type=${args['search-as-you-type']}
      ?autofocus=${args.autofocus}
    ></svc-search-box>
    <svc-hits style="margin-block-start: 1rem"></svc-hits>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

export const SearchAsYouType: Story = {};

/** Searches on Enter or the submit button only. */
export const OnSubmit: Story = { args: { 'search-as-you-type': 'false' } };

/** Styled from the page with `::part` and custom properties. */
export const Styled: Story = {
  render: (args) => html`<style>
      .styled svc-search-box {
        --svc-search-box-height: 3.25rem;
        --svc-search-box-radius: 999px;
        --svc-accent: #c2410c;
      }
      .styled svc-search-box::part(input) {
        font-size: 1.125rem;
      }
    </style>
    <div class="styled">
      <svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
        <svc-search-box placeholder=${ifDefined(args.placeholder)}></svc-search-box>
      </svc-search>
    </div>`,
};
