import { SvcInfiniteHits } from './svc-infinite-hits.js';
import { defineTemplateElements } from '../hits/template-elements.js';

export { SvcInfiniteHits };

// A `<template>` child may hold `<svc-highlight>` and `<svc-snippet>`.
defineTemplateElements();
if (!customElements.get('svc-infinite-hits')) customElements.define('svc-infinite-hits', SvcInfiniteHits);

declare global {
  interface HTMLElementTagNameMap {
    'svc-infinite-hits': SvcInfiniteHits;
  }
}
