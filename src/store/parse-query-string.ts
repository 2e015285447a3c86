/**
 * Reading the URL form of an {@link IndexState} (the format is described in `query-string.ts`). A module of its own,
 * shared by the store (`initialState` as a string, `fromQueryString`, routing) and the first-paint script, which
 * reads a routed URL before any chunk is loaded: one parser, in the loader's file, without the writing.
 */
import { emptyState, normalizeState, own, str, type NumericOperator } from './state.js';
import type { IndexState } from './types.js';

/** The bracketed keys (`refinementList[brand]`) and the state field each fills. */
export const BRACKETED: Record<string, 'disjunctiveFacetRefinements' | 'facetRefinements' | 'numericRefinements'> = {
  refinementList: 'disjunctiveFacetRefinements',
  facets: 'facetRefinements',
  numeric: 'numericRefinements',
};

/**
 * Parses a query string (with or without the leading `?`) into a normalised state of `baseIndex`.
 *
 * @example
 * queryStringToState('?q=tv&refinementList[brand]=LG', 'products').disjunctiveFacetRefinements // { brand: ['LG'] }
 */
export function queryStringToState(query: string, baseIndex: string): IndexState {
  return pairsToState(new URLSearchParams(str(query, 'fromQueryString: query')), baseIndex);
}

/** The state of decoded `[key, value]` pairs; the pairs of an added index go to its own state (when its `q` is there). */
function pairsToState(pairs: Iterable<[string, string]>, baseIndex: string): IndexState {
  // Null-prototype maps while parsing, so an attribute named `__proto__` stays a plain key.
  const lists = () => Object.create(null);
  const state = {
    ...emptyState(baseIndex),
    facetRefinements: lists(),
    disjunctiveFacetRefinements: lists(),
    numericRefinements: lists(),
  };
  const added = new Map<string, Array<[string, string]>>();
  for (const [key, value] of pairs) {
    const [, name, attribute] = /^(\w+)\[([\s\S]*)\]$/.exec(key) ?? [];
    const field = own(BRACKETED, name!);
    const dot = field ? -1 : key.indexOf('.');
    const digits = /^\d+$/.test(value) && Number.isInteger(+value) ? +value : -1;
    const numeric = /^([<>!]?=|[<>])(.+)$/.exec(value);
    if (key === 'q') state.query = value;
    else if (key === 'page' && digits > 0) state.page = digits - 1;
    else if (key === 'hitsPerPage' && digits >= 0) state.hitsPerPage = digits;
    else if (key === 'sortBy' && value) state.indexName = value;
    else if (key === 'tags') state.tagRefinements.push(value);
    else if (key === 'ruleContexts') state.ruleContexts.push(value);
    else if (field && (field !== 'numericRefinements' || (numeric !== null && Number.isFinite(+numeric[2]!)))) {
      const refinements = state[field];
      refinements[attribute!] ??= [];
      refinements[attribute!]!.push(
        field === 'numericRefinements' ? { operator: numeric![1] as NumericOperator, value: +numeric![2]! } : value,
      );
    } else if (dot > 0) {
      const index = key
        .slice(0, dot)
        .replace(/%(25|2E|5B|5D)/gi, (code) => String.fromCharCode(parseInt(code.slice(1), 16)));
      if (!added.has(index)) added.set(index, []);
      added.get(index)!.push([key.slice(dot + 1), value]);
    }
  }
  const indices = [...added]
    .filter(([, list]) => list.some(([key]) => key === 'q'))
    .map(([name, list]) => [name, pairsToState(list, name)]);
  return normalizeState(indices.length ? { ...state, indices: Object.fromEntries(indices) } : state, baseIndex);
}
