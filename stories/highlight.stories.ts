import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { Hit } from '../src/client/types.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute: string;
  query: string;
}

/**
 * `<svc-highlight>` renders one attribute of a hit with the matched words marked. Inside a `<svc-hits>`
 * `<template>` it gets its hit automatically; elsewhere (here, from `renderHit`) set the `hit` property.
 * `<svc-snippet>` has its own stories (Elements/Snippet).
 */
const meta: Meta<Args> = {
  title: 'Elements/Highlight',
  component: 'svc-highlight',
  tags: ['autodocs'],
  args: { attribute: 'name', query: 'office chair' },
  argTypes: { attribute: { control: 'select', options: ['name', 'brand', 'category', 'subCategory'] } },
  render: (args) => html`<svc-search
    app-id=${SERVICE.appId}
    api-key=${SERVICE.searchKey}
    index-name=${SERVICE.indexName}
    hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex}
    .initialState=${{ query: args.query }}
  >
    <svc-search-box></svc-search-box>
    <svc-hits
      style="margin-block-start: 1rem"
      .renderHit=${(hit: Hit) => html`<svc-highlight .hit=${hit} attribute=${args.attribute}></svc-highlight>`}
    ></svc-hits>
  </svc-search>`,
};
export default meta;

type Story = StoryObj<Args>;

export const Highlight: Story = {};

/** Styling the matches with custom properties. */
export const StyledMarks: Story = {
  render: (args) => html`<style>
      .marks svc-highlight {
        --svc-highlight-background: transparent;
        --svc-highlight-color: #b45309;
        --svc-highlight-font-weight: 700;
      }
    </style>
    <svc-search class="marks" app-id=${SERVICE.appId} api-key=${SERVICE.searchKey} index-name=${SERVICE.indexName}
      hosts=${SERVICE.hosts} local-index=${SERVICE.localIndex} .initialState=${{ query: args.query }}>
      <svc-hits><template><svc-highlight attribute="name"></svc-highlight></template></svc-hits>
    </svc-search>`,
};
