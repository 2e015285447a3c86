import { getPath } from './highlight.js';

/** Attributes whose value is a URL: only http(s) and relative URLs are set (never `javascript:`, `data:`…). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'poster', 'cite', 'background', 'xlink:href', 'ping']);
/** Attributes never set from record values (script, frames' documents, styles, image candidate lists). */
const FORBIDDEN_ATTRIBUTES = new Set(['srcdoc', 'style', 'srcset', 'is', 'slot', 'id']);

/**
 * Whether a record value may be used as a URL: absolute `http:`/`https:` URLs and relative URLs
 * (path, query, fragment) only. Control characters and whitespace that browsers strip before parsing the
 * scheme are taken into account (`java\tscript:` is rejected too).
 *
 * @example
 * isSafeUrl('/p/1') // true
 * isSafeUrl(' javascript:alert(1)') // false
 */
export function isSafeUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return scheme ? /^https?$/i.test(scheme[1]) : true;
}

/** A record value as text for an attribute or a text node (objects are ignored, arrays joined). */
export function fieldText(hit: Record<string, unknown>, path: string): string | undefined {
  const value = getPath(hit, path);
  if (value == null) return undefined;
  if (Array.isArray(value)) return value.filter((v) => v == null || typeof v !== 'object').join(', ');
  return typeof value === 'object' ? undefined : String(value);
}

/** Sets a record value as an attribute, refusing event handlers, forbidden attributes and unsafe URLs. */
function setField(element: Element, name: string, value: string | undefined): void {
  name = name.toLowerCase();
  if (value === undefined || name.startsWith('on') || FORBIDDEN_ATTRIBUTES.has(name)) return;
  if (URL_ATTRIBUTES.has(name) && !isSafeUrl(value)) return;
  element.setAttribute(name, value);
}

/**
 * Clones a `<template>`'s content for one hit and fills it from the hit's fields, without ever parsing a
 * record value as HTML:
 * - elements with an `attribute` (such as `<svc-highlight attribute="name">`, `<svc-snippet>`) get `.hit`;
 * - `data-text="field"` sets the text content; `data-src="field"` / `data-href="field"` set `src` / `href`
 *   (http(s) and relative URLs only); `data-attr-<name>="field"` sets attribute `<name>` (never `on…`,
 *   `style`, `srcdoc`, nor an unsafe URL).
 * `<style>` elements are left out (render them once with `templateStyles`). Returns the top-level nodes.
 * Reused by `<svc-hits>`, `<svc-recommendations>` and `<svc-trending>`.
 *
 * @example
 * ```ts
 * html`<li>${renderTemplate(this.querySelector('template')!, hit)}</li>`
 * ```
 */
export function renderTemplate(template: HTMLTemplateElement, hit: Record<string, unknown>): Node[] {
  const fragment = document.importNode(template.content, true);
  for (const style of fragment.querySelectorAll('style, script')) style.remove();
  for (const element of fragment.querySelectorAll('*')) {
    for (const { name, value } of [...element.attributes]) {
      if (name === 'data-text') element.textContent = fieldText(hit, value) ?? '';
      else if (name === 'data-src') setField(element, 'src', fieldText(hit, value));
      else if (name === 'data-href') setField(element, 'href', fieldText(hit, value));
      else if (name.startsWith('data-attr-')) setField(element, name.slice(10), fieldText(hit, value));
    }
    if (element.localName.startsWith('svc-') && element.hasAttribute('attribute')) {
      (element as Element & { hit?: unknown }).hit = hit;
    }
  }
  return [...fragment.childNodes];
}

/** The CSS of the `<style>` elements of a template (author CSS, applied once in the shadow root). */
export function templateStyles(template: HTMLTemplateElement | null): string {
  return template ? [...template.content.querySelectorAll('style')].map((style) => style.textContent).join('\n') : '';
}

/**
 * Caches the nodes rendered for each hit object, so a re-render keeps the same DOM (Lit sees the same
 * nodes and leaves them in place) until the results or the template change.
 *
 * @example
 * ```ts
 * private cache = new TemplateCache();
 * render() { return this.hits.map((hit) => html`<li>${this.cache.render(template, hit)}</li>`); }
 * ```
 */
export class TemplateCache {
  private nodes = new WeakMap<object, { template: HTMLTemplateElement; html: string; nodes: Node[] }>();
  /** The template's markup, read once per synchronous render (serialising it per hit would be wasteful). */
  private markup: { template: HTMLTemplateElement; html: string } | undefined;

  render(template: HTMLTemplateElement, hit: Record<string, unknown>): Node[] {
    if (this.markup?.template !== template) {
      this.markup = { template, html: template.innerHTML };
      queueMicrotask(() => (this.markup = undefined));
    }
    const { html } = this.markup;
    const cached = this.nodes.get(hit);
    if (cached && cached.template === template && cached.html === html) return cached.nodes;
    const nodes = renderTemplate(template, hit);
    this.nodes.set(hit, { template, html, nodes });
    return nodes;
  }
}
