/**
 * Hostile record values for the Recommend element tests: the hits' `HOSTILE` records plus one whose facet
 * values and URL are `javascript:` (plain, mixed case, obfuscated with a tab), a template that puts every field
 * into text, URL attributes (`href`, `src`, `<object data>`, `action`, `formaction`, `poster`, `cite`,
 * `background`, SVG `href`/`xlink:href` and an animation `to`/`values`) and refused attributes, and the check
 * that nothing ran and nothing was injected anywhere in the shadow trees.
 */
import { expect, html } from '@open-wc/testing';
import { HOSTILE, deepQueryAll } from './search-fixture.js';

/** `HOSTILE` (evil1, evil2) and evil3, whose brand and category — trending facet values — are `javascript:` URLs. */
export const HOSTILE_RECORDS = [
  ...HOSTILE,
  {
    objectID: 'evil3',
    name: 'Evil three <img src=x onerror="window.__svcPwned = 14"> phone',
    brand: 'javascript:window.__svcPwned = 12',
    category: ' java\tscript:window.__svcPwned = 13',
    description: '<iframe src="javascript:window.__svcPwned = 16"></iframe> phone',
    url: 'JaVaScRiPt:window.__svcPwned = 15',
    image: 'vbscript:msgbox(1)',
    rank: 2,
  },
];

/** A `<template>` child that uses every field of a record as text, as URL attributes and as refused attributes. */
export const HOSTILE_TEMPLATE = html`<template>
  <a class="link" data-href="url" data-attr-title="name" data-attr-onclick="name" data-attr-style="name" data-attr-srcdoc="description"><img data-src="image" data-attr-alt="brand" /></a>
  <svc-highlight attribute="name"></svc-highlight> <span class="name" data-text="name"></span> <span class="brand" data-text="brand"></span>
  <span class="category" data-text="category"></span> <span class="description" data-text="description"></span>
  <object data-attr-data="url"></object> <embed data-attr-src="url" /> <iframe data-src="url" data-attr-srcdoc="description"></iframe>
  <form data-attr-action="url"><button type="submit" data-attr-formaction="url">go</button></form>
  <video data-attr-poster="image"></video> <blockquote data-attr-cite="url"></blockquote> <table data-attr-background="image"></table>
  <svg><a data-attr-href="url" data-attr-xlink:href="url"><set attributeName="href" data-attr-to="url" data-attr-values="url"></set><text>x</text></a></svg>
</template>`;

/** Attributes that take a URL (or, for an SVG animation, the value of one). */
const URL_ATTRIBUTES = [
  'href',
  'xlink:href',
  'src',
  'data',
  'action',
  'formaction',
  'poster',
  'cite',
  'background',
  'to',
  'values',
  'srcdoc',
];

/**
 * Asserts that no hostile value ran (`window.__svcPwned` unset) and none was injected below `root`: no script,
 * no event-handler or style attribute, no element parsed from a value, and no URL attribute set except to one
 * of the `relative` values the test expects (every URL field of the hostile records is unsafe).
 */
export function expectNothingInjected(root: Element, relative: string[] = []): void {
  expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
  expect(
    deepQueryAll(
      root,
      'script, [onerror], [onload], [onmouseover], [onclick], [style], b, em, svg[onload], img[src]',
    ).map((e) => e.outerHTML),
  ).to.deep.equal([]);
  const urls = deepQueryAll(root, '*').flatMap((element) =>
    URL_ATTRIBUTES.filter((name) => element.hasAttribute(name)).map((name) => element.getAttribute(name)!),
  );
  expect(urls.filter((url) => !relative.includes(url))).to.deep.equal([]);
}
