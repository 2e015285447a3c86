/**
 * From state + needs to the queries of one multi-query request, and from its answers to one
 * {@link SearchResults}: the disjunctive-faceting technique of InstantSearch's helper.
 *
 * A state with refined OR facets sends the main query plus, per refined OR facet, a facets-only query
 * without that facet's own refinements (`hitsPerPage: 0`, analytics and clickAnalytics off), so each OR
 * facet lists the counts of its values as if none of them were selected yet. An attribute asked as an OR
 * facet that has numeric refinements (a range) gets such a query too, so its `facets_stats` are those of the
 * results without its own range.
 */
import type { MultiSearchRequest, SearchParams, SearchResponse } from '../client/types.js';
import { own } from './state.js';
import type { ExtraQueries, IndexState, Needs, SearchResults } from './types.js';

export interface MergedNeeds {
  facets: string[];
  disjunctiveFacets: string[];
  hitsPerPage?: number;
  maxValuesPerFacet?: number;
  attributesToRetrieve?: string[];
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  params: SearchParams;
  /** Every controller's rule contexts, lists or functions of the state (resolved when the queries are built). */
  ruleContexts: Array<string[] | ((state: IndexState) => string[])>;
  /** The queries controllers add (one builder per key). */
  queries: ExtraQueries[];
}

const union = (lists: unknown[]) => [...new Set(lists.flat().filter((v) => v !== undefined) as string[])].sort();
const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter((entry) => entry[1] !== undefined)) as T;
/** The first of each key, in order. */
const uniqueBy = <T>(list: T[], key: (item: T) => string): T[] => {
  const byKey = new Map<string, T>();
  for (const item of list) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()];
};
const asList = (value: unknown) =>
  value == null || value === '' ? [] : Array.isArray(value) ? value : [String(value)];

/**
 * Merges the needs of all controllers: facet lists and attribute lists are unions, `hitsPerPage` and
 * `maxValuesPerFacet` the largest asked (every controller gets enough), rule contexts kept for the queries
 * (united with the state's when they are built), other params in registration order (later wins). The hit
 * attributes to retrieve and highlight are those all needs (and their `params`) name together, or the index's
 * default (left out) as soon as one asks for `'*'` or none names any.
 *
 * @example
 * mergeNeeds([{ facets: ['brand'] }, { disjunctiveFacets: ['color'], hitsPerPage: 5 }])
 */
export function mergeNeeds(needs: Iterable<Needs>): MergedNeeds {
  const all = [...needs];
  const merged = {
    facets: [],
    disjunctiveFacets: [],
    params: Object.assign({}, ...all.map((n) => n.params)),
    ruleContexts: all.flatMap((n) => (n.ruleContexts ? [n.ruleContexts] : [])),
    queries: uniqueBy(
      all.flatMap((n) => n.queries ?? []),
      (queries) => queries.key,
    ),
  } as unknown as Record<string, unknown>;
  for (const key of ['facets', 'disjunctiveFacets', 'attributesToSnippet'] as const) {
    const lists = all.map((n) => n[key]).filter(Boolean);
    if (lists.length) merged[key] = union(lists);
  }
  for (const key of ['attributesToRetrieve', 'attributesToHighlight'] as const) {
    const lists = all.flatMap((n) => [n[key], n.params?.[key] === undefined ? undefined : asList(n.params[key])]);
    const named = union(lists.filter(Boolean));
    if (lists.some(Boolean) && !named.includes('*')) merged[key] = named;
  }
  for (const key of ['hitsPerPage', 'maxValuesPerFacet'] as const) {
    const values = all.map((n) => n[key]).filter((v) => typeof v === 'number');
    if (values.length) merged[key] = Math.max(...(values as number[]));
  }
  return merged as unknown as MergedNeeds;
}

/**
 * `attr:value`, a leading `-` escaped so the engine does not read it as a negation.
 *
 * @example
 * facetFilter('size', '-1') // 'size:\\-1'
 */
export const facetFilter = (attribute: string, value: string): string =>
  `${attribute}:${value[0] === '-' ? '\\' : ''}${value}`;

/**
 * The filters of `state` (plus `extra`'s own filter lists), leaving out the refinements of `exclude`
 * (a disjunctive facet's own).
 *
 * @example
 * refinementParams(state, {}, 'brand').facetFilters // every facet filter but brand's
 */
export function refinementParams(state: IndexState, extra: SearchParams, exclude?: string): SearchParams {
  const entries = <V>(map: Record<string, V>) => Object.entries(map).filter(([attribute]) => attribute !== exclude);
  const nonEmpty = (list: unknown[]) => (list.length ? list : undefined);
  return defined({
    facetFilters: nonEmpty([
      ...asList(extra.facetFilters),
      ...Object.entries(state.facetRefinements).flatMap(([attribute, values]) =>
        values.map((value) => facetFilter(attribute, value)),
      ),
      ...entries(state.disjunctiveFacetRefinements).map(([attribute, values]) =>
        values.map((value) => facetFilter(attribute, value)),
      ),
    ]),
    numericFilters: nonEmpty([
      ...asList(extra.numericFilters),
      ...entries(state.numericRefinements).flatMap(([attribute, list]) =>
        list.map((r) => attribute + r.operator + r.value),
      ),
    ]),
    tagFilters: nonEmpty([...asList(extra.tagFilters), ...state.tagRefinements]),
  }) as SearchParams;
}

export interface BuiltQueries {
  requests: MultiSearchRequest[];
  /** All OR facets (asked by controllers or refined). */
  disjunctiveFacets: string[];
  /** The OR facets that got their own facets-only query, in the order of `requests[1…]`. */
  queriedDisjunctiveFacets: string[];
  /** How the answers of the controllers' queries (after the OR facets' ones, in order) go into the results. */
  extraMerges: Array<(results: SearchResults, answer: SearchResponse | undefined) => void>;
}

/** One query of `state`: the controllers' params, the state's query and filters (without `exclude`'s own), then `params`. */
function query(state: IndexState, needs: MergedNeeds, params: SearchParams, exclude?: string): MultiSearchRequest {
  const { facetFilters: _f, numericFilters: _n, tagFilters: _t, ...base } = needs.params;
  const contexts = (needs.ruleContexts ?? []).map((given) => (typeof given === 'function' ? given(state) : given));
  if (state.ruleContexts.length || contexts.some((list) => list.length)) {
    base.ruleContexts = union([asList(base.ruleContexts), state.ruleContexts, ...contexts]);
  }
  return {
    indexName: state.indexName,
    params: defined({
      ...base,
      maxValuesPerFacet: needs.maxValuesPerFacet ?? base.maxValuesPerFacet,
      query: state.query,
      ...defined(params),
      ...refinementParams(state, needs.params, exclude),
    }),
  };
}

/** Counts only: these queries must not count as searches nor produce a queryID. */
const COUNTS_ONLY: SearchParams = {
  page: 0,
  hitsPerPage: 0,
  attributesToRetrieve: [],
  attributesToHighlight: [],
  attributesToSnippet: [],
  analytics: false,
  clickAnalytics: false,
};

/**
 * The facets-only query of `facet`: every refinement but the facet's own OR (and numeric) ones, no hits,
 * analytics and clickAnalytics off — the counts of its values as if none were selected yet. Also the
 * parameters of a search for facet values.
 *
 * @example
 * facetCountsQuery(state, mergeNeeds([]), 'brand').params.facetFilters // every filter but brand's OR ones
 */
export const facetCountsQuery = (state: IndexState, needs: MergedNeeds, facet: string): MultiSearchRequest =>
  query(state, needs, { ...COUNTS_ONLY, facets: [facet] }, facet);

/**
 * The queries for one state: the main query, then one facets-only query per refined OR facet, then the queries
 * the controllers add (`Needs.queries`).
 *
 * @example
 * buildQueries(state, mergeNeeds([{ disjunctiveFacets: ['brand'] }])).requests.length // 1 + refined OR facets
 */
export function buildQueries(state: IndexState, needs: MergedNeeds): BuiltQueries {
  // A numeric attribute asked as an OR facet (a range) gets its own query too: its stats without its own range.
  const refined = union([
    Object.keys(state.disjunctiveFacetRefinements),
    Object.keys(state.numericRefinements).filter((a) => needs.disjunctiveFacets.includes(a)),
  ]);
  const disjunctiveFacets = union([needs.disjunctiveFacets, refined]);
  const facets = union([needs.facets, disjunctiveFacets, Object.keys(state.facetRefinements)]);
  const main = query(state, needs, {
    page: state.page,
    hitsPerPage: state.hitsPerPage ?? needs.hitsPerPage ?? needs.params.hitsPerPage,
    facets: facets.length ? facets : undefined,
    attributesToRetrieve: needs.attributesToRetrieve,
    attributesToHighlight: needs.attributesToHighlight,
    attributesToSnippet: needs.attributesToSnippet,
  });
  const countsQuery = (of: IndexState, params: SearchParams, exclude?: string) =>
    query(of, needs, { ...COUNTS_ONLY, ...params }, exclude);
  const extra = needs.queries.flatMap((queries) => queries.build(state, countsQuery));
  return {
    requests: [main, ...refined.map((facet) => facetCountsQuery(state, needs, facet)), ...extra.map((e) => e.request)],
    disjunctiveFacets,
    queriedDisjunctiveFacets: refined,
    extraMerges: extra.map((e) => e.merge),
  };
}

/**
 * Merges the answers of {@link buildQueries}: each queried OR facet takes its counts from its own query;
 * a refined value missing from the counts is listed with 0 so it can still be unselected.
 *
 * @example
 * const results = mergeResults(state, built, answer.results); results.facets.brand // { LG: 12, … }
 */
export function mergeResults<T>(
  state: IndexState,
  built: BuiltQueries,
  [main, ...others]: Array<SearchResponse<T>>,
): SearchResults<T> {
  const facets = { ...main!.facets };
  const stats = main!.facets_stats && { ...main!.facets_stats };
  built.queriedDisjunctiveFacets.forEach((facet, i) => {
    facets[facet] = { ...others[i]?.facets?.[facet] };
    const facetStats = others[i]?.facets_stats?.[facet];
    if (stats && facetStats) stats[facet] = facetStats;
  });

  for (const [attribute, values] of [
    ...Object.entries(state.facetRefinements),
    ...Object.entries(state.disjunctiveFacetRefinements),
  ]) {
    const counts = { ...own(facets, attribute) };
    // A refined value outside the top maxValuesPerFacet of its own query: the main query (where this facet's
    // refinements apply) counts it exactly the same way; 0 only when nothing matches it any more.
    for (const value of values)
      if (!Object.hasOwn(counts, value)) counts[value] = own(own(main!.facets, attribute), value) ?? 0;
    facets[attribute] = counts;
  }
  const results: SearchResults<T> = {
    ...main!,
    facets,
    disjunctiveFacets: built.disjunctiveFacets,
    ...(stats && { facets_stats: stats }),
  };
  const extraAt = built.queriedDisjunctiveFacets.length;
  built.extraMerges.forEach((merge, i) => {
    merge(results as SearchResults, others[extraAt + i] as SearchResponse | undefined);
  });
  return results;
}

/**
 * The requests as a comparable text without their `userToken`: a server searching for a page rarely knows the
 * browser's anonymous token, and the results do not depend on it.
 *
 * @example
 * requestsDigest([{ indexName: 'products', params: { query: 'a', userToken: 'u1' } }]) // '[{"indexName":"products","params":{"query":"a"}}]'
 */
export const requestsDigest = (requests: MultiSearchRequest[]): string =>
  JSON.stringify(requests, (key, value: unknown) => (key === 'userToken' ? undefined : value));
