import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

/**
 * The demo index's rule for the query "chairs" answers a banner (`userData`); the element renders it through
 * its `<template>` (or, without one, as a simple banner). Search anything else and it goes away.
 */
const meta: Meta = {
  title: 'Elements/Query rule custom data',
  component: 'svc-query-rule-custom-data',
  tags: ['autodocs'],
  render: () =>
    facetPage(
      html`<svc-search-box></svc-search-box>
        <svc-query-rule-custom-data>
          <template>
            <a data-href="link" style="color: inherit; text-decoration: none">
              <strong data-text="title"></strong>
              <div data-text="text"></div>
            </a>
          </template>
        </svc-query-rule-custom-data>`,
      { initialState: { query: 'chairs' } },
    ),
};
export default meta;

type Story = StoryObj;

/** The banner of "chairs", from a template. */
export const Banner: Story = {};

/** The same banner in the default rendering (title, text, link). */
export const DefaultRendering: Story = {
  render: () =>
    facetPage(html`<svc-query-rule-custom-data></svc-query-rule-custom-data>`, { initialState: { query: 'chairs' } }),
};
