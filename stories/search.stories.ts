import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { SERVICE } from './shared.js';

interface Args {
  'index-name': string;
  insights: string;
  routing: boolean;
}

/** `<svc-search>` is the root: it provides the store to everything inside it (and to elements naming it). */
const meta: Meta<Args> = {
  title: 'Elements/Search',
  component: 'svc-search',
  tags: ['autodocs'],
  args: { 'index-name': SERVICE.indexName, insights: 'true', routing: false },
  argTypes: { insights: { control: 'inline-radio', options: ['true', 'false'] } },
  render: (args) => html`<svc-search
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${args['index-name']}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    insights=${args.insights}
    ?routing=${args.routing}
  >
    <svc-search-box placeholder="Search products"></svc-search-box>
    <div style="display: grid; grid-template-columns: minmax(10rem, 14rem) 1fr; gap: 1.5rem; margin-block-start: 1rem">
      <svc-refinement-list attribute="brand" searchable show-more></svc-refinement-list>
      <div>
        <svc-hits></svc-hits>
        <svc-pagination style="margin-block-start: 1rem"></svc-pagination>
      </div>
    </div>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

/** The four core elements under one root, searching the demo catalogue. */
export const Default: Story = {};

/** `search="id"`: an element outside the root finds it by id. */
export const NamedFromElsewhere: Story = {
  render: () => html`<svc-search-box search="named" placeholder="This box is outside <svc-search>"></svc-search-box>
    <hr />
    <svc-search id="named" app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
      <svc-hits></svc-hits>
    </svc-search>`,
};

/** `translations` on the root replaces the English strings of every element inside (here in French). */
export const Translated: Story = {
  render: () => html`<svc-search
    lang="fr"
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .translations=${{
      label: 'Rechercher',
      placeholder: 'Rechercher un produit…',
      resetTitle: 'Effacer la recherche',
      submitTitle: 'Lancer la recherche',
      noResults: 'Aucun résultat pour « {query} ».',
      listLabel: 'Résultats',
      showMore: 'Voir plus',
      showLess: 'Voir moins',
      previous: 'Page précédente',
      next: 'Page suivante',
      first: 'Première page',
      page: 'Page {page}',
    }}
  >
    <svc-search-box></svc-search-box>
    <svc-refinement-list attribute="category" show-more limit="2"></svc-refinement-list>
    <svc-hits></svc-hits>
    <svc-pagination></svc-pagination>
  </svc-search>`,
};

/** Right to left: logical properties mirror the layout. */
export const RightToLeft: Story = {
  render: () => html`<div dir="rtl" lang="ar">
    <svc-search app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName} hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}>
      <svc-search-box></svc-search-box>
      <svc-hits></svc-hits>
      <svc-pagination></svc-pagination>
    </svc-search>
  </div>`,
};
