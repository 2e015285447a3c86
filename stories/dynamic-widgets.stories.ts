import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { facetPage } from './shared.js';

/**
 * The facets in the order the demo index asks for (`renderingContent` in its settings: category, brand,
 * price, rating, same-day shipping); search "chairs" and a rule puts brands first. The ones without an element
 * are rendered from the `<template>`.
 */
const meta: Meta = {
  title: 'Elements/Dynamic widgets',
  component: 'svc-dynamic-widgets',
  tags: ['autodocs'],
  render: () =>
    facetPage(html`<svc-search-box></svc-search-box>
      <svc-dynamic-widgets>
        <svc-panel header="Category">
          <svc-hierarchical-menu attributes="hierarchicalCategories.lvl0,hierarchicalCategories.lvl1"></svc-hierarchical-menu>
        </svc-panel>
        <svc-panel header="Brand"><svc-refinement-list attribute="brand" searchable></svc-refinement-list></svc-panel>
        <svc-panel header="Price"><svc-range-slider attribute="price" currency="USD"></svc-range-slider></svc-panel>
        <svc-panel header="Rating"><svc-rating-menu attribute="rating"></svc-rating-menu></svc-panel>
        <template>
          <svc-panel data-attr-header="attribute"><svc-refinement-list data-attr-attribute="attribute"></svc-refinement-list></svc-panel>
        </template>
      </svc-dynamic-widgets>`),
};
export default meta;

type Story = StoryObj;

/** The index's facet order; "sameDayShipping" comes from the template. */
export const IndexOrder: Story = {};

/** The query "chairs": the demo rule puts brands first (and shows its banner). */
export const RuleOrder: Story = {
  render: () =>
    facetPage(
      html`<svc-query-rule-custom-data></svc-query-rule-custom-data>
        <svc-dynamic-widgets>
          <svc-panel header="Brand"><svc-refinement-list attribute="brand"></svc-refinement-list></svc-panel>
          <svc-panel header="Price"><svc-range-slider attribute="price" currency="USD"></svc-range-slider></svc-panel>
          <svc-panel header="Rating"><svc-rating-menu attribute="rating"></svc-rating-menu></svc-panel>
        </svc-dynamic-widgets>`,
      { initialState: { query: 'chairs' } },
    ),
};
