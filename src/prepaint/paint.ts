/**
 * The hits of the first results painted as plain DOM in `<svc-hits>`' shadow root, before Lit is loaded: the same
 * elements, attributes, text and styles as the element's first render of the same results (compared in
 * test/e2e/prepaint-paint.node.test.ts), so when the element takes the shadow root over nothing moves. Record values
 * only ever become text nodes (highlighting as `<svc-highlight>` does it: base/highlight-text.ts).
 *
 * A `<template>` child is filled by the element's own code (base/hit-template.ts: `renderTemplate`, its `<style>`s
 * applied once by `templateCss`), for the element's language; its `<svc-highlight>` / `<svc-snippet>` elements are
 * given the shadow root their first render makes (marked as painted: they replace it when they are upgraded).
 */
import { BASE_CSS, LIST_CSS } from '../elements/base/style-text.js';
import { defaultAttribute, highlightedValue, parseHighlight } from '../elements/base/highlight-text.js';
import { renderTemplate, templateCss } from '../elements/base/hit-template.js';
import { closestLang, documentLanguage } from '../elements/base/language.js';
import { HIGHLIGHT_CSS } from '../elements/highlight/style-text.js';
import { HITS_CSS } from '../elements/hits/style-text.js';
import { HITS_LIST_LABEL } from '../elements/hits/translations.js';
import type { HitRef } from '../insights/types.js';
import type { SearchResults } from '../store/types.js';
import { PREPAINT_KEY, type PrepaintMark } from './handoff.js';

/** The element `tag` with `attributes`, holding `children`. */
function element(tag: string, attributes: Record<string, string>, children: Array<Node | string> = []): Element {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** What Insights needs of each hit of `results`, as `<svc-hits>` computes it (`HitsController.items`). */
export function hitRefs(results: SearchResults, indexName: string): HitRef[] {
  const { page, hitsPerPage, queryID } = results;
  return results.hits.map((hit, index) => ({
    objectID: hit.objectID,
    queryID,
    position: page * hitsPerPage + index + 1,
    indexName: results.index ?? indexName,
  }));
}

/** Constructable stylesheets of CSS `texts`, as Lit adopts an element's styles. */
const sheets = (texts: string[]): CSSStyleSheet[] =>
  texts.map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });

/** A highlighted value as text and `<mark part="highlighted">`, as `renderHighlight` renders it. */
const highlightNodes = (value: string): Array<Node | string> =>
  parseHighlight(value).map((part) =>
    part.highlighted ? element('mark', { part: 'highlighted' }, [part.value]) : part.value,
  );

/** Marks `root` as painted by the script: its element replaces the nodes at its first render. */
function markPainted(root: ShadowRoot): void {
  (root as ShadowRoot & { [PREPAINT_KEY]?: PrepaintMark })[PREPAINT_KEY] = true;
}

/**
 * Gives each `<svc-highlight>` / `<svc-snippet>` of a filled template's `nodes` its first render: the `hit`
 * `renderTemplate` set on it (none without an `attribute`), its `attribute` and `separator` read as the element
 * reads them, `_snippetResult` for a snippet.
 */
function paintHighlights(nodes: Node[]): void {
  for (const node of nodes) {
    if (!(node instanceof Element)) continue;
    for (const highlight of [node, ...node.querySelectorAll('*')]) {
      if (!/^svc-(highlight|snippet)$/.test(highlight.localName)) continue;
      const value = highlightedValue(
        (highlight as Element & { hit?: Record<string, unknown> }).hit,
        highlight.getAttribute('attribute') ?? '',
        highlight.localName === 'svc-snippet' ? '_snippetResult' : '_highlightResult',
        highlight.getAttribute('separator') ?? ', ',
      );
      const root = highlight.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = sheets([BASE_CSS, HIGHLIGHT_CSS]);
      root.append(...highlightNodes(value));
      markPainted(root);
    }
  }
}

/**
 * Paints the hits of `results` in a new open shadow root of `host` (marked as painted here) and returns it, with
 * the `li` of each hit and its `HitRef`; nothing when `host` already has a shadow root or there are no hits. Each
 * hit is `template` filled with it (page.ts accepts only templates rendered here as the element renders them), else
 * the highlighted `attribute` (or the hit's first highlighted attribute).
 *
 * @example
 * const painted = paintHits(document.querySelector('svc-hits'), results, 'products', { attribute: 'name' });
 */
export function paintHits(
  host: Element,
  results: SearchResults,
  indexName: string,
  rendering: { attribute?: string; template?: HTMLTemplateElement },
): { root: ShadowRoot; items: Map<Element, HitRef> } | undefined {
  if (host.shadowRoot || !results.hits.length) return undefined;
  const { attribute, template } = rendering;
  const lang = closestLang(host) ?? documentLanguage();
  const refs = hitRefs(results, indexName);
  const items = new Map<Element, HitRef>();
  const list = results.hits.map((hit, index) => {
    const ref = refs[index]!;
    let content: Array<Node | string>;
    if (template) {
      const nodes = renderTemplate(template, hit, lang);
      paintHighlights(nodes);
      content = nodes;
    } else {
      content = highlightNodes(highlightedValue(hit, attribute || defaultAttribute(hit)));
    }
    const item = element(
      'li',
      {
        part: 'item',
        'data-svc-object-id': ref.objectID,
        'data-svc-position': String(ref.position),
        'data-svc-query-id': ref.queryID ?? '',
        'data-svc-index': ref.indexName,
      },
      content,
    );
    items.set(item, ref);
    return item;
  });
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = sheets([BASE_CSS, LIST_CSS, HITS_CSS]);
  // The template's styles, once, before the list (`templateStyle()` of the hit list).
  const css = templateCss(template ?? null);
  if (css) root.append(element('style', {}, [css]));
  root.append(
    element('div', { role: 'status', 'aria-live': 'polite' }),
    element('ol', { part: 'list', 'aria-label': HITS_LIST_LABEL, 'aria-busy': 'false' }, list),
  );
  markPainted(root);
  return { root, items };
}
