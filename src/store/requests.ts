/**
 * From state + needs to the queries of one multi-query request, and from its answers to one
 * {@link SearchResults}: the disjunctive-faceting technique of InstantSearch's helper.
 *
 * A state with refined OR facets sends the main query plus, per refined OR facet, a facets-only query
 * without that facet's own refinements (`hitsPerPage: 0`, analytics and clickAnalytics off), so each OR
 * facet lists the counts of its values as if none of them were selected yet.
 */
import type { MultiSearchRequest, SearchParams, SearchResponse } from '../client/types.js';
import type { IndexState, Needs, SearchResults } from './types.js';

export interface MergedNeeds {
  facets: string[];
  disjunctiveFacets: string[];
  hitsPerPage?: number;
  maxValuesPerFacet?: number;
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  params: SearchParams;
}

const union = (lists: Array<string[] | undefined>) => [...new Set(lists.flatMap((l) => l ?? []))].sort();

/**
 * Merges the needs of all controllers: facet lists and attribute lists are unions, `hitsPerPage` and
 * `maxValuesPerFacet` the largest asked (every controller gets enough), other params in registration
 * order (later wins).
 *
 * @example
 * mergeNeeds([{ facets: ['brand'] }, { disjunctiveFacets: ['color'], hitsPerPage: 5 }])
 */
export function mergeNeeds(needs: Iterable<Needs>): MergedNeeds {
  const all = [...needs];
  const max = (pick: (n: Needs) => number | undefined) => {
    const values = all.map(pick).filter((v): v is number => typeof v === 'number');
    return values.length ? Math.max(...values) : undefined;
  };
  const lists = (pick: (n: Needs) => string[] | undefined) => (all.some((n) => pick(n) !== undefined) ? union(all.map(pick)) : undefined);
  const merged: MergedNeeds = {
    facets: union(all.map((n) => n.facets)),
    disjunctiveFacets: union(all.map((n) => n.disjunctiveFacets)),
    params: Object.assign({}, ...all.map((n) => n.params ?? {})),
  };
  const hitsPerPage = max((n) => n.hitsPerPage);
  const maxValuesPerFacet = max((n) => n.maxValuesPerFacet);
  const attributesToHighlight = lists((n) => n.attributesToHighlight);
  const attributesToSnippet = lists((n) => n.attributesToSnippet);
  if (hitsPerPage !== undefined) merged.hitsPerPage = hitsPerPage;
  if (maxValuesPerFacet !== undefined) merged.maxValuesPerFacet = maxValuesPerFacet;
  if (attributesToHighlight) merged.attributesToHighlight = attributesToHighlight;
  if (attributesToSnippet) merged.attributesToSnippet = attributesToSnippet;
  return merged;
}

/**
 * `attr:value`, a leading `-` escaped so the engine does not read it as a negation.
 *
 * @example
 * facetFilter('size', '-1') // 'size:\\-1'
 */
export function facetFilter(attribute: string, value: string): string {
  return `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`;
}

function asFilterList(value: unknown): Array<string | string[]> {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value as Array<string | string[]>;
  return [String(value)];
}

/**
 * The filters of `state` (plus `extra`'s own filter lists), leaving out the refinements of `exclude`
 * (a disjunctive facet's own).
 *
 * @example
 * refinementParams(state, {}, 'brand').facetFilters // every facet filter but brand's
 */
export function refinementParams(state: IndexState, extra: SearchParams, exclude?: string): SearchParams {
  const facetFilters: Array<string | string[]> = [...asFilterList(extra.facetFilters)];
  for (const [attribute, values] of Object.entries(state.facetRefinements)) {
    for (const value of values) facetFilters.push(facetFilter(attribute, value));
  }
  for (const [attribute, values] of Object.entries(state.disjunctiveFacetRefinements)) {
    if (attribute === exclude) continue;
    facetFilters.push(values.map((value) => facetFilter(attribute, value)));
  }
  const numericFilters: Array<string | string[]> = [...asFilterList(extra.numericFilters)];
  for (const [attribute, list] of Object.entries(state.numericRefinements)) {
    if (attribute === exclude) continue;
    for (const { operator, value } of list) numericFilters.push(`${attribute}${operator}${value}`);
  }
  const tagFilters: Array<string | string[]> = [...asFilterList(extra.tagFilters), ...state.tagRefinements];
  const out: SearchParams = {};
  if (facetFilters.length) out.facetFilters = facetFilters;
  if (numericFilters.length) out.numericFilters = numericFilters;
  if (tagFilters.length) out.tagFilters = tagFilters;
  return out;
}

export interface BuiltQueries {
  requests: MultiSearchRequest[];
  /** All OR facets (asked by controllers or refined). */
  disjunctiveFacets: string[];
  /** The OR facets that got their own facets-only query, in the order of `requests[1…]`. */
  queriedDisjunctiveFacets: string[];
}

/**
 * The queries for one state: the main query, then one facets-only query per refined OR facet.
 *
 * @example
 * buildQueries(state, mergeNeeds([{ disjunctiveFacets: ['brand'] }])).requests.length // 1 + refined OR facets
 */
export function buildQueries(state: IndexState, needs: MergedNeeds): BuiltQueries {
  const refinedDisjunctive = Object.keys(state.disjunctiveFacetRefinements).sort();
  const disjunctiveFacets = union([needs.disjunctiveFacets, refinedDisjunctive]);
  const facets = union([needs.facets, disjunctiveFacets, Object.keys(state.facetRefinements)]);
  const { facetFilters: _f, numericFilters: _n, tagFilters: _t, ...extra } = needs.params;
  const base: SearchParams = { ...extra };
  if (state.ruleContexts.length) base.ruleContexts = union([asFilterList(extra.ruleContexts) as string[], state.ruleContexts]);
  if (needs.maxValuesPerFacet !== undefined) base.maxValuesPerFacet = needs.maxValuesPerFacet;

  const main: SearchParams = { ...base, query: state.query, page: state.page };
  const hitsPerPage = state.hitsPerPage ?? needs.hitsPerPage ?? (extra.hitsPerPage as number | undefined);
  if (hitsPerPage !== undefined) main.hitsPerPage = hitsPerPage;
  if (facets.length) main.facets = facets;
  if (needs.attributesToHighlight) main.attributesToHighlight = needs.attributesToHighlight;
  if (needs.attributesToSnippet) main.attributesToSnippet = needs.attributesToSnippet;
  Object.assign(main, refinementParams(state, needs.params));

  const requests: MultiSearchRequest[] = [{ indexName: state.indexName, params: main }];
  for (const facet of refinedDisjunctive) {
    requests.push({
      indexName: state.indexName,
      params: {
        ...base,
        query: state.query,
        page: 0,
        hitsPerPage: 0,
        facets: [facet],
        attributesToRetrieve: [],
        attributesToHighlight: [],
        attributesToSnippet: [],
        // Facet counts only: these queries must not count as searches nor produce a queryID.
        analytics: false,
        clickAnalytics: false,
        ...refinementParams(state, needs.params, facet),
      },
    });
  }
  return { requests, disjunctiveFacets, queriedDisjunctiveFacets: refinedDisjunctive };
}

/**
 * Merges the answers of {@link buildQueries}: each queried OR facet takes its counts from its own query;
 * a refined value missing from the counts is listed with 0 so it can still be unselected.
 *
 * @example
 * const results = mergeResults(state, built, answer.results); results.facets.brand // { LG: 12, … }
 */
export function mergeResults<T>(state: IndexState, built: BuiltQueries, answers: Array<SearchResponse<T>>): SearchResults<T> {
  const main = answers[0];
  if (!main) throw new Error('mergeResults: no answer for the main query');
  const facets: Record<string, Record<string, number>> = { ...(main.facets ?? {}) };
  const facetsStats = main.facets_stats ? { ...main.facets_stats } : undefined;
  built.queriedDisjunctiveFacets.forEach((facet, i) => {
    const answer = answers[i + 1];
    facets[facet] = { ...(answer?.facets?.[facet] ?? {}) };
    const stats = answer?.facets_stats?.[facet];
    if (facetsStats && stats) facetsStats[facet] = stats;
  });
  const refined = [...Object.entries(state.facetRefinements), ...Object.entries(state.disjunctiveFacetRefinements)];
  for (const [attribute, values] of refined) {
    const counts = { ...(facets[attribute] ?? {}) };
    // A refined value outside the top maxValuesPerFacet of its own query: the main query (where this facet's
    // refinements apply) counts it exactly the same way; 0 only when nothing matches it any more.
    for (const value of values) if (!Object.hasOwn(counts, value)) counts[value] = main.facets?.[attribute]?.[value] ?? 0;
    facets[attribute] = counts;
  }
  const results: SearchResults<T> = { ...main, facets, disjunctiveFacets: built.disjunctiveFacets };
  if (facetsStats) results.facets_stats = facetsStats;
  return results;
}
