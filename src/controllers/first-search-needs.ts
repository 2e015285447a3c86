/**
 * What a hit list and a refinement list ask of the search, as functions of their options: the controllers
 * register them, and the first-paint script (src/prepaint) derives the same needs from the elements' attributes
 * before any element is loaded, so its request is the one the store would send.
 */
import type { Needs } from '../store/types.js';
import { HIGHLIGHT_PARAMS } from './highlight-tags.js';

/** The attributes a hit list asks for (see `hitAttributes` in elements/base/hit-fields.ts). */
export interface HitListFields {
  attributesToRetrieve: string[];
  attributesToHighlight: string[];
  attributesToSnippet: string[];
}

/**
 * The needs of a hit list: highlight tags it can parse safely and the attributes its rendering shows.
 *
 * @example
 * hitListNeeds({ attributesToRetrieve: ['name'], attributesToHighlight: ['name'], attributesToSnippet: [] })
 */
export function hitListNeeds({
  attributesToRetrieve,
  attributesToHighlight,
  attributesToSnippet,
}: HitListFields): Needs {
  return {
    params: { ...HIGHLIGHT_PARAMS },
    attributesToRetrieve,
    attributesToHighlight,
    ...(attributesToSnippet.length ? { attributesToSnippet } : {}),
  };
}

/** The options of a refinement list that shape its request. */
export interface RefinementListOptions {
  attribute: string;
  operator: 'or' | 'and';
  limit: number;
  showMore: boolean;
  showMoreLimit: number;
}

/** A refinement list's defaults (its element's and controller's). */
export const REFINEMENT_LIST_DEFAULTS: Omit<RefinementListOptions, 'attribute'> = {
  operator: 'or',
  limit: 10,
  showMore: false,
  showMoreLimit: 20,
};

/**
 * The needs of a refinement list: its attribute as an OR (or AND) facet, enough values for "show more".
 *
 * @example
 * refinementListNeeds({ ...REFINEMENT_LIST_DEFAULTS, attribute: 'brand' }) // { disjunctiveFacets: ['brand'], maxValuesPerFacet: 10 }
 */
export function refinementListNeeds(options: RefinementListOptions): Needs | undefined {
  const { attribute, operator, limit, showMore, showMoreLimit } = options;
  return attribute
    ? {
        [operator === 'and' ? 'facets' : 'disjunctiveFacets']: [attribute],
        maxValuesPerFacet: showMore ? Math.max(limit, showMoreLimit) : limit,
      }
    : undefined;
}
