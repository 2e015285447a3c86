/**
 * The hits of the first results painted as plain DOM in `<svc-hits>`' shadow root, before Lit is loaded: the same
 * elements, attributes, text and styles as the element's first render of the same results (compared in
 * test/e2e/prepaint.node.test.ts), so when the element takes the shadow root over nothing moves. Record values
 * only ever become text nodes (highlighting as `<svc-highlight>` does it: base/highlight-text.ts).
 */
import { BASE_CSS, LIST_CSS } from '../elements/base/style-text.js';
import { defaultAttribute, highlightedValue, parseHighlight } from '../elements/base/highlight-text.js';
import { HITS_CSS } from '../elements/hits/style-text.js';
import { HITS_TRANSLATIONS } from '../elements/hits/translations.js';
import type { HitRef } from '../insights/types.js';
import type { SearchResults } from '../store/types.js';
import { PREPAINT_KEY } from './handoff.js';

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

/**
 * Paints the hits of `results` in a new open shadow root of `host` (marked as painted here) and returns it, with
 * the `li` of each hit and its `HitRef`; nothing when `host` already has a shadow root or there are no hits.
 *
 * @example
 * const painted = paintHits(document.querySelector('svc-hits'), results, 'products');
 */
export function paintHits(
  host: Element,
  results: SearchResults,
  indexName: string,
  attribute?: string,
): { root: ShadowRoot; items: Map<Element, HitRef> } | undefined {
  if (host.shadowRoot || !results.hits.length) return undefined;
  const refs = hitRefs(results, indexName);
  const items = new Map<Element, HitRef>();
  const list = results.hits.map((hit, index) => {
    const ref = refs[index]!;
    const value = highlightedValue(hit, attribute || defaultAttribute(hit));
    const content = parseHighlight(value).map((part) =>
      part.highlighted ? element('mark', { part: 'highlighted' }, [part.value]) : part.value,
    );
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
  root.adoptedStyleSheets = [BASE_CSS, LIST_CSS, HITS_CSS].map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  root.append(
    element('div', { role: 'status', 'aria-live': 'polite' }),
    element('ol', { part: 'list', 'aria-label': HITS_TRANSLATIONS.listLabel, 'aria-busy': 'false' }, list),
  );
  (root as ShadowRoot & { [PREPAINT_KEY]?: boolean })[PREPAINT_KEY] = true;
  return { root, items };
}
