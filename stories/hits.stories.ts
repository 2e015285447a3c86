import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { Hit } from '../src/client/types.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute?: string;
  query: string;
}

const root = (query: string, content: unknown) => html`<svc-search
  app-id=${SERVICE.appId}
  api-key=${SERVICE.searchKey}
  index-name=${SERVICE.indexName}
  hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
  .initialState=${{ query }}
>
  <svc-search-box></svc-search-box>
  <div style="margin-block-start: 1rem">${content}</div>
</svc-search>`;

const meta: Meta<Args> = {
  title: 'Elements/Hits',
  component: 'svc-hits',
  tags: ['autodocs'],
  args: { attribute: undefined, query: 'chiar' },
  render: (args) => root(args.query, html`<svc-hits attribute=${ifDefined(args.attribute)}></svc-hits>`),
};
export default meta;

type Story = StoryObj<Args>;

/** Without any code: the highlighted name of each hit (the query has a typo). */
export const Default: Story = {};

/** A `<template>` child: fields by name, highlight and snippet, a conversion button; no JavaScript. */
export const WithTemplate: Story = {
  args: { query: 'phone' },
  render: (args) =>
    root(
      args.query,
      html`<svc-hits style="--svc-hits-columns: repeat(auto-fill, minmax(16rem, 1fr))">
        <template>
          <style>
            .brand { font-size: 0.8em; opacity: 0.7; text-transform: uppercase; letter-spacing: 0.05em; }
            .title { display: block; margin-block: 0.25rem; font-weight: 600; }
            .price { font-variant-numeric: tabular-nums; }
            button { margin-block-start: 0.5rem; }
          </style>
          <span class="brand" data-text="brand"></span>
          <svc-highlight class="title" attribute="name"></svc-highlight>
          <svc-highlight attribute="hierarchicalCategories.lvl1"></svc-highlight>
          <div class="price" data-text="price" data-currency="USD"></div>
          <button type="button" data-svc-conversion="Added to cart">Add to cart</button>
        </template>
      </svc-hits>`,
    ),
};

/** `renderHit` for full control with a Lit template. */
export const WithRenderHit: Story = {
  render: (args) =>
    root(
      args.query,
      html`<svc-hits
        .renderHit=${(hit: Hit<{ name: string; price: number }>, { position }: { position: number }) =>
          html`<strong>#${position}</strong> ${hit.name} — $${hit.price.toFixed(2)}`}
      ></svc-hits>`,
    ),
};

/** The empty state. */
export const NoResults: Story = { args: { query: 'zzqqxx' } };
