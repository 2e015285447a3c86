import { SvcHits } from './svc-hits.js';
import { defineTemplateElements } from './template-elements.js';

export { SvcHits };

// A `<template>` child may hold `<svc-highlight>` and `<svc-snippet>`.
defineTemplateElements();
if (!customElements.get('svc-hits')) customElements.define('svc-hits', SvcHits);

declare global {
  interface HTMLElementTagNameMap {
    'svc-hits': SvcHits;
  }
}
