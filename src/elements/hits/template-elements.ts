import { SvcHighlight } from '../highlight/svc-highlight.js';
import { SvcSnippet } from '../snippet/svc-snippet.js';

/**
 * Registers `<svc-highlight>` and `<svc-snippet>` unless they are: a hit list's `<template>` may hold them, so the
 * hit lists' define files register both. They call this rather than import the two define files: through the
 * loader each define file is a chunk of its own, and those two would be ≈ 125 B each (min + gzip) on every page
 * with a hit list, mostly the cost of a file.
 *
 * @example
 * defineTemplateElements(); // in a hit list's define file
 */
export function defineTemplateElements(): void {
  if (!customElements.get('svc-highlight')) customElements.define('svc-highlight', SvcHighlight);
  if (!customElements.get('svc-snippet')) customElements.define('svc-snippet', SvcSnippet);
}
