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
import { NUMERIC_OPERATORS, emptyState, normalizeState, type NumericOperator } from './state.js';
import type { IndexState } from './types.js';

const enc = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

/**
 * Serialises `state`; `baseIndex` is the index whose name is left out of the URL.
 *
 * @example
 * stateToQueryString({ ...emptyState('products'), query: 'tv', page: 1 }, 'products') // 'q=tv&page=2'
 */
export function stateToQueryString(state: IndexState, baseIndex: string): string {
  const parts: string[] = [];
  const add = (key: string, value: string) => parts.push(`${key}=${enc(value)}`);
  const bracket = (prefix: string, attribute: string) => `${prefix}[${enc(attribute)}]`;
  if (state.query !== '') add('q', state.query);
  if (state.page > 0) add('page', String(state.page + 1));
  if (state.hitsPerPage !== undefined) add('hitsPerPage', String(state.hitsPerPage));
  if (state.indexName !== baseIndex) add('sortBy', state.indexName);
  for (const [attribute, values] of Object.entries(state.disjunctiveFacetRefinements)) {
    for (const value of values) add(bracket('refinementList', attribute), value);
  }
  for (const [attribute, values] of Object.entries(state.facetRefinements)) {
    for (const value of values) add(bracket('facets', attribute), value);
  }
  for (const [attribute, list] of Object.entries(state.numericRefinements)) {
    // `-0` would print as `0`; keep it so the round trip is exact.
    for (const { operator, value } of list) add(bracket('numeric', attribute), operator + (Object.is(value, -0) ? '-0' : String(value)));
  }
  for (const tag of state.tagRefinements) add('tags', tag);
  for (const context of state.ruleContexts) add('ruleContexts', context);
  return parts.join('&');
}

const BRACKETED = /^(refinementList|facets|numeric)\[([\s\S]*)\]$/;
const NUMERIC = /^(<=|>=|!=|<|>|=)(.+)$/;

/**
 * Parses a query string (with or without the leading `?`) into a normalised state of `baseIndex`.
 *
 * @example
 * queryStringToState('?q=tv&refinementList[brand]=LG', 'products').disjunctiveFacetRefinements // { brand: ['LG'] }
 */
export function queryStringToState(query: string, baseIndex: string): IndexState {
  if (typeof query !== 'string') throw new TypeError('fromQueryString: query must be a string');
  const state = emptyState(baseIndex);
  const fR: Array<[string, string[]]> = [];
  const dfR: Array<[string, string[]]> = [];
  const nR: Array<[string, IndexState['numericRefinements'][string]]> = [];
  const push = <V>(list: Array<[string, V[]]>, attribute: string, value: V) => {
    const entry = list.find(([a]) => a === attribute);
    if (entry) entry[1].push(value);
    else list.push([attribute, [value]]);
  };
  for (const [key, value] of new URLSearchParams(query)) {
    switch (key) {
      case 'q':
        state.query = value;
        continue;
      case 'page': {
        const page = Number(value);
        if (Number.isInteger(page) && page >= 1 && /^\d+$/.test(value)) state.page = page - 1;
        continue;
      }
      case 'hitsPerPage': {
        const hitsPerPage = Number(value);
        if (Number.isInteger(hitsPerPage) && hitsPerPage >= 0 && /^\d+$/.test(value)) state.hitsPerPage = hitsPerPage;
        continue;
      }
      case 'sortBy':
        if (value) state.indexName = value;
        continue;
      case 'tags':
        state.tagRefinements.push(value);
        continue;
      case 'ruleContexts':
        state.ruleContexts.push(value);
        continue;
    }
    const match = BRACKETED.exec(key);
    if (!match) continue;
    const [, kind, attribute] = match as unknown as [string, string, string];
    if (kind === 'refinementList') push(dfR, attribute, value);
    else if (kind === 'facets') push(fR, attribute, value);
    else {
      const numeric = NUMERIC.exec(value);
      const number = numeric ? Number(numeric[2]) : NaN;
      if (numeric && Number.isFinite(number) && NUMERIC_OPERATORS.includes(numeric[1] as NumericOperator)) {
        push(nR, attribute, { operator: numeric[1] as NumericOperator, value: number });
      }
    }
  }
  state.facetRefinements = Object.fromEntries(fR);
  state.disjunctiveFacetRefinements = Object.fromEntries(dfR);
  state.numericRefinements = Object.fromEntries(nR);
  return normalizeState(state, baseIndex);
}
