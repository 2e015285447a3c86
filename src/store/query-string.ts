/**
 * The URL form of an {@link IndexState}. Readable keys in the spirit of InstantSearch's URLs, repeated
 * keys for lists (so order survives), 1-based `page`:
 *
 * | key | state |
 * |---|---|
 * | `q` | query (omitted when empty) |
 * | `page` | page + 1 (omitted on the first page) |
 * | `hitsPerPage` | hitsPerPage (omitted when unset) |
 * | `sortBy` | indexName (omitted when it is the base index) |
 * | `refinementList[attr]` | one per disjunctive (OR) value |
 * | `facets[attr]` | one per conjunctive (AND) value |
 * | `numeric[attr]` | one per numeric refinement, operator then number, e.g. `>=10` |
 * | `tags` | one per tag |
 * | `ruleContexts` | one per rule context |
 *
 * `fromQueryString(toQueryString(s))` equals `s` for every normalised state; unknown keys and invalid
 * values in a hand-edited URL are ignored rather than thrown on (a bad link still opens the page).
 */
import { emptyState, normalizeState, own, str, type NumericOperator } from './state.js';
import type { IndexState } from './types.js';

const enc = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
const BRACKETED: Record<string, 'disjunctiveFacetRefinements' | 'facetRefinements' | 'numericRefinements'> = {
  refinementList: 'disjunctiveFacetRefinements',
  facets: 'facetRefinements',
  numeric: 'numericRefinements',
};

/**
 * Serialises `state`; `baseIndex` is the index whose name is left out of the URL.
 *
 * @example
 * stateToQueryString({ ...emptyState('products'), query: 'tv', page: 1 }, 'products') // 'q=tv&page=2'
 */
export function stateToQueryString(state: IndexState, baseIndex: string): string {
  const parts: string[] = [];
  const add = (key: string, values: unknown[]) => values.forEach((value) => parts.push(key + '=' + enc(String(value))));
  add('q', state.query ? [state.query] : []);
  add('page', state.page ? [state.page + 1] : []);
  add('hitsPerPage', state.hitsPerPage === undefined ? [] : [state.hitsPerPage]);
  add('sortBy', state.indexName != baseIndex ? [state.indexName] : []);
  for (const [key, field] of Object.entries(BRACKETED)) {
    for (const [attribute, values] of Object.entries(state[field])) {
      // `-0` would print as `0`; kept so the round trip is exact.
      add(`${key}[${enc(attribute)}]`, (values as any[]).map((v) => (typeof v == 'object' ? v.operator + (Object.is(v.value, -0) ? '-0' : v.value) : v)));
    }
  }
  add('tags', state.tagRefinements);
  add('ruleContexts', state.ruleContexts);
  return parts.join('&');
}

/**
 * Parses a query string (with or without the leading `?`) into a normalised state of `baseIndex`.
 *
 * @example
 * queryStringToState('?q=tv&refinementList[brand]=LG', 'products').disjunctiveFacetRefinements // { brand: ['LG'] }
 */
export function queryStringToState(query: string, baseIndex: string): IndexState {
  // Null-prototype maps while parsing, so an attribute named `__proto__` stays a plain key.
  const lists = () => Object.create(null);
  const state = { ...emptyState(baseIndex), facetRefinements: lists(), disjunctiveFacetRefinements: lists(), numericRefinements: lists() };
  for (const [key, value] of new URLSearchParams(str(query, 'fromQueryString: query'))) {
    const [, name, attribute] = /^(\w+)\[([^]*)\]$/.exec(key) ?? [];
    const field = own(BRACKETED, name!);
    const digits = /^\d+$/.test(value) && Number.isInteger(+value) ? +value : -1;
    const numeric = /^([<>!]?=|[<>])(.+)$/.exec(value);
    if (key == 'q') state.query = value;
    else if (key == 'page' && digits > 0) state.page = digits - 1;
    else if (key == 'hitsPerPage' && digits >= 0) state.hitsPerPage = digits;
    else if (key == 'sortBy' && value) state.indexName = value;
    else if (key == 'tags') state.tagRefinements.push(value);
    else if (key == 'ruleContexts') state.ruleContexts.push(value);
    else if (field && (field != 'numericRefinements' || Number.isFinite(+numeric?.[2]!))) {
      (state[field][attribute!] ??= []).push(field == 'numericRefinements' ? { operator: numeric![1] as NumericOperator, value: +numeric![2]! } : value);
    }
  }
  return normalizeState(state, baseIndex);
}
