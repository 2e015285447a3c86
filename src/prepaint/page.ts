/**
 * Whether the first-paint script can paint a page, and what the store's first search will ask: read from the
 * elements' attributes before any element is defined. Only what it can reproduce exactly is accepted; anything
 * else (an element or attribute it does not know, a `<template>` holding what it does not render as the element
 * does, properties set by code, a server-rendered root) means no first paint, and the page loads as it does
 * without it. The root's Insights attributes (and its `insightsConsent` property, which a consent banner may set
 * before the element is defined) and `routing` are read as the element reads them: the first search asks what the
 * store's will (its `clickAnalytics` and user token, the state in the URL).
 */
import { REFINEMENT_LIST_DEFAULTS, refinementListNeeds } from '../controllers/first-search-needs.js';
import { attributeList, hitAttributes } from '../elements/base/hit-fields.js';
import { hitListNeeds } from '../controllers/first-search-needs.js';
import { consentOf, insightsEnabledFrom } from '../elements/search/insights-attributes.js';
import type { Needs } from '../store/types.js';

/** A page the script paints: its root, its hit list, and the needs of its elements (Insights' aside). */
export interface PrepaintPage {
  root: Element;
  hits: Element;
  appId: string;
  apiKey: string;
  indexName: string;
  hosts: string | undefined;
  /** The highlighted attribute of the hit list (`attribute`), if given. */
  attribute: string | undefined;
  /** The hit list's `<template>` child, if it has one (the hits are that template filled). */
  template: HTMLTemplateElement | undefined;
  needs: Needs[];
  /** Insights as `<svc-search>` will create it (`insights`, `insights-*`), or undefined with `insights="false"`. */
  insights: { consent: boolean; useCookie: boolean; userToken: string | null } | undefined;
  /** The URL state the store starts from (`routing`: the page's query string), '' for none. */
  route: string;
}

/** Attributes any element may carry without changing what it asks or renders. */
const GLOBAL_ATTRIBUTES = ['id', 'class', 'style', 'title', 'dir', 'lang', 'slot'];

/** The attributes of `<svc-recommendations>` and `<svc-trending>` (their own `index-name` is for Recommend). */
const RECOMMEND_LIST_ATTRIBUTES = [
  'model',
  'threshold',
  'max-recommendations',
  'index-name',
  'attribute',
  'query-parameters',
  'fallback-parameters',
];

/**
 * The elements the script knows: the attributes each may carry, and its needs (none for the elements whose
 * controllers ask nothing of the search request: the search box, the pagination, Recommend and trends).
 */
const KNOWN: Record<string, { attributes: string[]; needs?: (element: Element) => Needs | undefined }> = {
  'svc-search': {
    attributes: [
      'app-id',
      'api-key',
      'index-name',
      'hosts',
      'routing',
      'insights',
      'insights-consent',
      'insights-cookie',
      'insights-user-token',
    ],
  },
  'svc-search-box': { attributes: ['placeholder', 'autofocus', 'search-as-you-type'] },
  'svc-pagination': {
    attributes: ['padding', 'total-pages', 'show-first', 'show-previous', 'show-next', 'show-last', 'scroll-to'],
  },
  'svc-recommendations': { attributes: [...RECOMMEND_LIST_ATTRIBUTES, 'object-id'] },
  'svc-trending': { attributes: [...RECOMMEND_LIST_ATTRIBUTES, 'facet-name', 'facet-value'] },
  'svc-refinement-list': {
    attributes: ['attribute', 'operator', 'limit', 'show-more', 'show-more-limit', 'searchable', 'sort-by'],
    needs: (element) => refinementListNeeds(refinementListOptions(element)),
  },
  'svc-hits': {
    attributes: ['attribute', 'attributes-to-retrieve'],
    needs: (element) =>
      hitListNeeds(
        hitAttributes({
          template: templateChild(element) ?? null,
          attribute: element.getAttribute('attribute') || undefined,
          custom: false,
          explicit: attributeList(element.getAttribute('attributes-to-retrieve')),
        }),
      ),
  },
};

/** A refinement list's options from its attributes, converted as Lit and the element do. */
function refinementListOptions(element: Element) {
  const number = (name: string, fallback: number) =>
    element.hasAttribute(name) ? Number(element.getAttribute(name)) : fallback;
  const limit = number('limit', REFINEMENT_LIST_DEFAULTS.limit);
  return {
    attribute: element.getAttribute('attribute') ?? '',
    operator: element.getAttribute('operator') === 'and' ? ('and' as const) : ('or' as const),
    limit: limit > 0 ? limit : REFINEMENT_LIST_DEFAULTS.limit,
    showMore: element.hasAttribute('show-more'),
    showMoreLimit: number('show-more-limit', REFINEMENT_LIST_DEFAULTS.showMoreLimit),
  };
}

/** The attributes `<svc-highlight>` and `<svc-snippet>` may carry in a template: what they read, and parts. */
const HIGHLIGHT_ATTRIBUTES = ['attribute', 'separator', 'words', 'part'];

/**
 * Whether an element of a hit template is one the script renders as the element does: plain HTML (no other custom
 * element, no customised built-in), or `<svc-highlight>` / `<svc-snippet>` with the attributes they read (and
 * `data-*` that set no attribute of theirs).
 */
function reproducible(element: Element): boolean {
  if (element.hasAttribute('is')) return false;
  if (!element.localName.includes('-')) return true;
  if (!/^svc-(highlight|snippet)$/.test(element.localName)) return false;
  return [...element.attributes].every(
    ({ name }) =>
      HIGHLIGHT_ATTRIBUTES.includes(name) ||
      GLOBAL_ATTRIBUTES.includes(name) ||
      (name.startsWith('data-') && !/^data-(src|href|attr-)/.test(name)),
  );
}

/**
 * The hit list's `<template>`, when it is its only child element; undefined without children. The element renders
 * its first `:scope > template` only, so any other child (which it would not show) means no first paint either.
 */
function templateChild(hits: Element): HTMLTemplateElement | undefined {
  const [first] = hits.children;
  return hits.children.length === 1 && first instanceof HTMLTemplateElement ? first : undefined;
}

/**
 * Whether `element` is as the script expects: known attributes only, no property set by code (but the root's
 * `insightsConsent`, read as the element reads it), no children.
 */
function plain(element: Element): boolean {
  const known = KNOWN[element.localName]!.attributes;
  const attributes = [...element.attributes].every(
    ({ name }) => known.includes(name) || GLOBAL_ATTRIBUTES.includes(name),
  );
  // A property set before the element is defined (`renderHit`, `translations`, `store`…) is an own property.
  return (
    attributes && Object.keys(element).every((key) => key === 'insightsConsent' && element.localName === 'svc-search')
  );
}

/**
 * The page as the script can paint it, or undefined when it cannot (see the module's comment).
 *
 * @example
 * const page = readPage(document); // undefined on a server-rendered page
 */
export function readPage(document: Document): PrepaintPage | undefined {
  const elements = [...document.querySelectorAll('*')].filter((element) => element.localName.startsWith('svc-'));
  const roots = elements.filter((element) => element.localName === 'svc-search');
  const hitLists = elements.filter((element) => element.localName === 'svc-hits');
  if (roots.length !== 1 || hitLists.length !== 1) return undefined;
  const [root] = roots as [Element];
  const [hits] = hitLists as [Element];
  for (const element of elements) {
    if (!Object.hasOwn(KNOWN, element.localName) || !plain(element)) return undefined;
    if (element !== root && !root.contains(element)) return undefined;
  }
  // The hit list's children: none, or one `<template>` the script renders as the element does.
  const template = templateChild(hits);
  if (hits.childElementCount > 0 && !template) return undefined;
  if (template && ![...template.content.querySelectorAll('*')].every(reproducible)) return undefined;
  const appId = root.getAttribute('app-id');
  const apiKey = root.getAttribute('api-key');
  const indexName = root.getAttribute('index-name');
  if (!appId || !apiKey || !indexName) return undefined;
  const needs = elements.flatMap((element) => KNOWN[element.localName]!.needs?.(element) ?? []);
  return {
    root,
    hits,
    appId,
    apiKey,
    indexName,
    hosts: root.getAttribute('hosts') ?? undefined,
    attribute: hits.getAttribute('attribute') || undefined,
    template,
    needs,
    insights: insightsEnabledFrom(root.getAttribute('insights'))
      ? {
          consent: consentOf(root),
          useCookie: root.hasAttribute('insights-cookie'),
          userToken: root.getAttribute('insights-user-token'),
        }
      : undefined,
    // As `<svc-search>` gives it to its store (`initialState`): the query string without its `?`.
    route: root.hasAttribute('routing') ? location.search.slice(1) : '',
  };
}
