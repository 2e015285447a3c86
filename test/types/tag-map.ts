// Type test (compiled by types.node.test.ts, never run): HTMLElementTagNameMap for every tag, typed events in
// GlobalEventHandlersEventMap / HTMLElementEventMap, and the generic hit type of SvcHits / SvcRecommendations.
import 'svc-search/define';
import type { SvcHits, SvcInfiniteHits, SvcRecommendations, SvcSearch, SvcTrending } from 'svc-search';
import type { SvcTagName } from 'svc-search/react';

type Product = { name: string; brand: string; price: number };

// Every tag is in the map — no more, no fewer (a missing or an extra key is an error).
export const everyTag: Record<SvcTagName, true> = {
  'svc-search': true,
  'svc-search-box': true,
  'svc-index': true,
  'svc-autocomplete': true,
  'svc-hits': true,
  'svc-infinite-hits': true,
  'svc-highlight': true,
  'svc-snippet': true,
  'svc-refinement-list': true,
  'svc-menu': true,
  'svc-pagination': true,
  'svc-stats': true,
  'svc-current-refinements': true,
  'svc-clear-refinements': true,
  'svc-sort-by': true,
  'svc-hits-per-page': true,
  'svc-range-input': true,
  'svc-configure': true,
  'svc-recommendations': true,
  'svc-trending': true,
  'svc-hierarchical-menu': true,
  'svc-breadcrumb': true,
  'svc-toggle-refinement': true,
  'svc-numeric-menu': true,
  'svc-rating-menu': true,
  'svc-range-slider': true,
  'svc-dynamic-widgets': true,
  'svc-query-rule-custom-data': true,
  'svc-query-rule-context': true,
  'svc-panel': true,
};

export const search: SvcSearch = document.createElement('svc-search');
search.indexName = 'products';
search.insightsEnabled = false;
// @ts-expect-error indexName is a string
search.indexName = 42;

// Generic hits: renderHit gets the record type. Ask querySelector for the typed element (a plain `as` cast from
// the tag map's SvcHits<Record<string, unknown>> is refused: the element's controller is invariant in T).
const hits = document.querySelector<SvcHits<Product>>('svc-hits')!;
hits.renderHit = (hit, info) => `${hit.name} ${hit.price.toFixed(2)} #${info.position} ${hit.objectID}`;
// @ts-expect-error Product has no `weight`
hits.renderHit = (hit) => hit.weight;
const moreHits = document.querySelector<SvcInfiniteHits<Product>>('svc-infinite-hits')!;
moreHits.renderHit = (hit, info) => `${hit.brand} #${info.position}`;
// @ts-expect-error price is a number
moreHits.renderHit = (hit) => hit.price.toUpperCase();
export const shownPage: number | undefined = document.createElement('svc-infinite-hits').showMore();
export const plainHits: SvcHits = document.createElement('svc-hits');
plainHits.renderHit = (hit) => String(hit.name); // Record<string, unknown> by default

const related = document.querySelector<SvcRecommendations<Product>>('svc-recommendations')!;
related.renderItem = (item) => item.brand.toUpperCase();
// @ts-expect-error brand is a string
related.renderItem = (item) => item.brand.toFixed();
export const trending = document.querySelector<SvcTrending<Product>>('#trending')!;
trending.renderItem = (item) => item.name;

// Typed events, on any element (they bubble and are composed).
search.addEventListener('svc-search-input', (event) => event.detail.query.toLowerCase());
search.addEventListener('svc-refine', (event) => {
  const refined: boolean = event.detail.refined;
  return `${event.detail.attribute}:${event.detail.value}:${refined}`;
});
search.addEventListener('svc-page-change', (event) => event.detail.page + 1);
search.addEventListener('svc-insights', (event) => event.detail.event.eventType);
document.addEventListener('svc-sort-change', (event) => event.detail);
document.addEventListener(
  'svc-range-change',
  (event) => `${event.detail.attribute}: ${event.detail.min ?? '-∞'}…${event.detail.max?.toFixed(2) ?? '∞'}`,
);
// @ts-expect-error min is a number or undefined
document.addEventListener('svc-range-change', (event) => event.detail.min.toFixed());
document.addEventListener('svc-show-more', (event) =>
  event.detail.direction === 'more' ? event.detail.page + 1 : event.detail.page,
);
// @ts-expect-error direction is 'more' or 'previous'
document.addEventListener('svc-show-more', (event) => event.detail.direction === 'next');
export const menu = document.createElement('svc-menu');
menu.sortBy = ['isRefined', 'count:desc'];
// @ts-expect-error not a sort criterion
menu.sortBy = ['popularity'];
export const selectedCategory: string | undefined = menu.selected;
document.addEventListener('svc-suggestion-select', (event) => event.detail.query.toUpperCase());
// @ts-expect-error the suggestion event carries the query only
document.addEventListener('svc-suggestion-select', (event) => event.detail.category);
export const autocomplete = document.createElement('svc-autocomplete');
autocomplete.maxSuggestions = 8;
export const suggested: string[] = autocomplete.suggestions;
// @ts-expect-error the search box event has no `page`
search.addEventListener('svc-search-input', (event) => event.detail.page);
