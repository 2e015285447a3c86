import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

interface Args {
  contexts: string;
  'tracked-filters': string;
}

/**
 * Rule contexts sent with every search: the page's (`contexts`) and one per refined brand
 * (`svc-brand-<value>`). The element shows nothing: rules with those contexts apply to the results.
 */
const meta: Meta<Args> = {
  title: 'Elements/Query rule context',
  component: 'svc-query-rule-context',
  tags: ['autodocs'],
  args: { contexts: 'shop', 'tracked-filters': 'brand' },
  render: (args) =>
    facetPage(
      html`<svc-query-rule-context
          contexts=${args.contexts}
          tracked-filters=${args['tracked-filters']}
        ></svc-query-rule-context>
        <svc-refinement-list attribute="brand" limit="5"></svc-refinement-list>`,
      { heading: 'Brand' },
    ),
};
export default meta;

type Story = StoryObj<Args>;

/** "shop", plus "svc-brand-…" for the brands checked. */
export const Contexts: Story = {};
