import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { Hit } from '../src/client/types.js';
import { SERVICE } from './shared.js';

interface Args {
  attribute: string;
  words: number;
  query: string;
}

/**
 * A `<svc-hits>` whose `<template>` holds one `<svc-snippet>` (built as DOM: Lit allows no expression inside a
 * `<template>` element).
 */
function snippetHits(attribute: string, words: number, className = ''): HTMLElement {
  const hits = document.createElement('svc-hits');
  hits.className = className;
  hits.innerHTML = `<template><svc-snippet attribute="${attribute}" words="${Number(words)}"></svc-snippet></template>`;
  return hits;
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

/**
 * `<svc-snippet>` renders the part of an attribute around the matches, `words` words long, with the matched
 * words marked. In a `<svc-hits>` `<template>` it gets its hit automatically and the hits ask the search for
 * the snippet (`attributesToSnippet`); from `renderHit`, set its `hit` and ask with `<svc-configure>`.
 */
const meta: Meta<Args> = {
  title: 'Elements/Snippet',
  component: 'svc-snippet',
  tags: ['autodocs'],
  args: { attribute: 'name', words: 4, query: 'binder' },
  argTypes: {
    attribute: { control: 'select', options: ['name', 'brand', 'category', 'subCategory'] },
    words: { control: { type: 'number', min: 1, max: 20 } },
  },
  render: (args) => root(args.query, snippetHits(args.attribute, args.words)),
};
export default meta;

type Story = StoryObj<Args>;

/** In a `<template>`: the hits ask for `name:4` snippets; long names are cut around the match (…). */
export const Default: Story = {};

/** From `renderHit`: the `hit` property, and the snippets asked for with `<svc-configure>`. */
export const WithRenderHit: Story = {
  render: (args) =>
    root(
      args.query,
      html`<svc-configure attributes-to-snippet=${`${args.attribute}:${args.words}`}></svc-configure>
        <svc-hits .renderHit=${(hit: Hit) => html`<svc-snippet .hit=${hit} attribute=${args.attribute}></svc-snippet>`}></svc-hits>`,
    ),
};

/** Styling the matches with the custom properties it shares with `<svc-highlight>`. */
export const StyledMarks: Story = {
  render: (args) =>
    root(
      args.query,
      html`<style>
          .snippet-marks {
            --svc-highlight-background: transparent;
            --svc-highlight-color: #b45309;
            --svc-highlight-font-weight: 700;
          }
        </style>
        ${snippetHits(args.attribute, args.words, 'snippet-marks')}`,
    ),
};
