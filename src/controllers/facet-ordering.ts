/**
 * The order of facets and of their values that the results ask for (`renderingContent.facetOrdering`, set in
 * the index settings or by a rule): an extension of the hosted API beyond the API documents, applied here as
 * InstantSearch applies it.
 */
import type { RenderingContent } from '../protocol/types.js';
import type { SearchResults } from '../store/types.js';

/** How the values of one facet are ordered (`renderingContent.facetOrdering.values.<attribute>`). */
export type FacetValuesOrdering = NonNullable<NonNullable<RenderingContent['facetOrdering']>['values']>[string];

/**
 * The `renderingContent` of the results (undefined when the answer has none).
 *
 * @example renderingContentOf(snapshot.results)?.facetOrdering?.facets?.order // ['brand', 'price']
 */
export function renderingContentOf(results: SearchResults | null | undefined): RenderingContent | undefined {
  const content = results?.renderingContent;
  return content && typeof content === 'object' ? content : undefined;
}

/**
 * The facets in the order the results ask for, out of `attributes`: those named in `facets.order` first, in that
 * order; `*` in the order stands for every other one (in the order given). Without a facet order: undefined.
 *
 * @example orderedFacets(results, ['price', 'brand', 'rating']) // ['brand', 'price'] for order ['brand', 'price']
 */
export function orderedFacets(results: SearchResults | null | undefined, attributes: string[]): string[] | undefined {
  const order = renderingContentOf(results)?.facetOrdering?.facets?.order;
  if (!Array.isArray(order)) return undefined;
  const out: string[] = [];
  for (const name of order) {
    if (name === '*') out.push(...attributes.filter((attribute) => !order.includes(attribute)));
    else if (typeof name === 'string' && !out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * `items` ordered as `renderingContent.facetOrdering.values[attribute]` asks: the named values first, then the
 * others by count or name (or not at all with `hidden`); `hide` drops values. A refined value is never dropped
 * (it could not be turned off) and comes first among the others (a limit never pushes it out of the list).
 * Without such an ordering: `items` as they are.
 *
 * @example orderValues(results, 'brand', items) // Hon first when `order: ['Hon']`
 */
export function orderValues<I extends { value: string; label: string; count: number; isRefined: boolean }>(
  results: SearchResults | null | undefined,
  attribute: string,
  items: I[],
): I[] {
  const ordering: FacetValuesOrdering | undefined = renderingContentOf(results)?.facetOrdering?.values?.[attribute];
  if (!ordering || typeof ordering !== 'object') return items;
  const order = Array.isArray(ordering.order) ? ordering.order : [];
  const hide = new Set(Array.isArray(ordering.hide) ? ordering.hide : []);
  const visible = items.filter((item) => item.isRefined || !hide.has(item.value));
  const pinned = order.flatMap((value) => visible.filter((item) => item.value === value));
  let rest = visible.filter((item) => !order.includes(item.value));
  if (ordering.sortRemainingBy === 'hidden') rest = rest.filter((item) => item.isRefined);
  else if (ordering.sortRemainingBy === 'alpha') rest = [...rest].sort((a, b) => a.label.localeCompare(b.label));
  else if (ordering.sortRemainingBy === 'count') rest = [...rest].sort((a, b) => b.count - a.count);
  const refinedFirst = [...rest].sort((a, b) => Number(b.isRefined) - Number(a.isRefined));
  return [...pinned, ...refinedFirst];
}
