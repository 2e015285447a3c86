import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SERVICE } from './shared.js';

interface Args {
  'included-attributes'?: string;
  'excluded-attributes'?: string;
  label?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/Clear refinements',
  component: 'svc-clear-refinements',
  tags: ['autodocs'],
  args: {},
  render: (
    args,
  ) => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <div style="display: flex; gap: 1rem; align-items: center">
      <svc-clear-refinements
        included-attributes=${ifDefined(args['included-attributes'])}
        excluded-attributes=${ifDefined(args['excluded-attributes'])}
        >${args.label ?? ''}</svc-clear-refinements
      >
      <svc-current-refinements></svc-current-refinements>
    </div>
    <svc-refinement-list attribute="category" style="margin-block-start: 1rem; max-inline-size: 16rem"></svc-refinement-list>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Disabled until a category is checked. */
export const Default: Story = {};

/** Clears the query too, with its own label in the slot. */
export const StartOver: Story = { args: { 'excluded-attributes': '', label: 'Start over' } };
