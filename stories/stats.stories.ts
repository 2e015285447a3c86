import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

const meta: Meta = {
  title: 'Elements/Stats',
  component: 'svc-stats',
  tags: ['autodocs'],
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
    <svc-search-box placeholder="Type to change the count"></svc-search-box>
    <svc-stats style="margin-block-start: 0.5rem"></svc-stats>
  </svc-search>`,
};
export default meta;

type Story = StoryObj;

export const Default: Story = {};

/** Strings replaced per element, with plural forms (`stats.one`) and numbers formatted for `lang`. */
export const Translated: Story = {
  render:
    () => html`<svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex} lang="fr">
    <svc-search-box placeholder="Rechercher"></svc-search-box>
    <svc-stats
      style="margin-block-start: 0.5rem"
      .translations=${{
        stats: '{count} produits trouvés en {time} ms',
        'stats.one': '{count} produit trouvé en {time} ms',
        noResults: 'Aucun produit',
      }}
    ></svc-stats>
  </svc-search>`,
};
