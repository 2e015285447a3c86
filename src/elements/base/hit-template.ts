import { getPath, toText } from './highlight-text.js';

/**
 * Attributes whose value is a URL: only http(s) and relative URLs are set (never `javascript:`, `data:`…).
 * `data`/`codebase` are `<object>`'s; `to`/`from`/`by`/`values` are SVG animations', which can set an `href`.
 */
const URL_ATTRIBUTE =
  /^(href|src|action|formaction|poster|cite|background|xlink:href|ping|data|codebase|to|from|by|values)$/i;
/** Attributes never set from record values: event handlers, frames' documents, styles, image candidate lists… */
const FORBIDDEN_ATTRIBUTE = /^(on|srcdoc$|style$|srcset$|is$|slot$|id$|attributename$)/i;

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
  const scheme = /^([a-z][\w+.-]*):/i.exec(value.replace(/[\0- \x7f-\x9f]/g, ''))?.[1];
  return !scheme || /^https?$/i.test(scheme);
}

/**
 * The `format` of each `Intl.NumberFormat` of `data-currency` / `data-decimals` / `data-number`, per
 * `[lang, currency, decimals]`; `String` for an invalid combination (so it warns once).
 */
const formats: Record<string, (value: number) => string> = {};

/**
 * Clones a `<template>`'s content for one hit and fills it from the hit's fields, without ever parsing a
 * record value as HTML:
 * - elements with an `attribute` (such as `<svc-highlight attribute="name">`, `<svc-snippet>`) get `.hit`;
 * - `data-text="field"` sets the text content; `data-src="field"` / `data-href="field"` set `src` / `href`
 *   (http(s) and relative URLs only); `data-attr-<name>="field"` sets attribute `<name>` (never `on…`,
 *   `style`, `srcdoc`, nor an unsafe URL);
 * - a number shown by `data-text` is formatted for `lang` by `Intl.NumberFormat` when the element has
 *   `data-currency="USD"` (an ISO 4217 code), `data-decimals="2"` (fraction digits, 0–20, with or without a
 *   currency) or `data-number` (grouping); an invalid code or count (or `lang`) leaves the raw number and
 *   warns once. Other values (strings too) are shown as they are.
 * `<style>` and `<script>` elements are left out (the list renders the styles once). Returns the top-level
 * nodes. Used by `<svc-hits>`, `<svc-recommendations>` and `<svc-trending>`, which pass the `lang` of their
 * closest element that has one (else the page's).
 *
 * @example
 * ```ts
 * html`<li>${renderTemplate(this.querySelector('template')!, hit, 'de')}</li>`
 * ```
 */
export function renderTemplate(template: HTMLTemplateElement, hit: Record<string, unknown>, lang?: string): Node[] {
  const fragment = document.importNode(template.content, true);
  for (const element of fragment.querySelectorAll('*')) {
    if (/^(style|script)$/.test(element.localName)) element.remove();
    for (const { name, value } of [...element.attributes]) {
      const field = getPath(hit, value);
      let text = toText(field);
      if (name === 'data-text') {
        const { currency, decimals, number } = (element as HTMLElement).dataset;
        const key = JSON.stringify([lang, currency, decimals]);
        try {
          if (typeof field === 'number' && (currency ?? decimals ?? number) != null) {
            formats[key] ??= new Intl.NumberFormat(lang, {
              style: (currency && 'currency') as never, // '' is invalid too
              currency,
              minimumFractionDigits: decimals as never,
              maximumFractionDigits: (+decimals! > 20 ? -1 : decimals) as never, // Intl takes up to 100
            }).format;
            text = formats[key](field);
          }
        } catch (error) {
          console.warn(`svc-search: data-currency/data-decimals ${key}:`, error);
          formats[key] = String;
        }
        element.textContent = text!; // undefined → ''
      }
      const target = /^data-(?:(src|href)$|attr-(.+))/.exec(name);
      const attribute = target && (target[1] ?? target[2]!);
      if (
        attribute &&
        text != null &&
        !FORBIDDEN_ATTRIBUTE.test(attribute) &&
        (!URL_ATTRIBUTE.test(attribute) || isSafeUrl(text))
      ) {
        element.setAttribute(attribute, text);
      }
    }
    if (element.localName.startsWith('svc-') && element.hasAttribute('attribute'))
      (element as Element & { hit?: unknown }).hit = hit;
  }
  return [...fragment.childNodes];
}

/**
 * The CSS of a `<template>`'s `<style>`s, joined: a hit list applies it once in its shadow root (`renderTemplate`
 * leaves the `<style>`s out of each hit), as does the first-paint script.
 *
 * @example
 * templateCss(template) // 'p { margin: 0 }' — '' without a <style>
 */
export const templateCss = (template: HTMLTemplateElement | null): string =>
  template ? [...template.content.querySelectorAll('style')].map((style) => style.textContent).join('\n') : '';
