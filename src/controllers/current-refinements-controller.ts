import type { IndexState } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** How a refinement is stored: conjunctive facet, disjunctive facet, numeric, tag, or the query itself. */
export type CurrentRefinementType = 'facet' | 'disjunctive' | 'numeric' | 'tag' | 'query';

export type NumericOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** One refinement in effect. */
export interface CurrentRefinement {
  /** The attribute (`_tags` for tags, `query` for the query). */
  attribute: string;
  type: CurrentRefinementType;
  /** The refined value (a string for facets, tags and the query; a number for numeric refinements). */
  value: string | number;
  /** The numeric operator (numeric refinements only). */
  operator?: NumericOperator;
}

/** The refinements of one attribute, in the order they were applied. */
export interface CurrentRefinementGroup {
  attribute: string;
  refinements: CurrentRefinement[];
}

/** The attribute under which tag refinements are listed. */
export const TAGS_ATTRIBUTE = '_tags';
/** The attribute under which the query is listed (excluded by default, as InstantSearch). */
export const QUERY_ATTRIBUTE = 'query';

/**
 * Lists every refinement in effect (facet values, numeric conditions, tags and, when asked, the query) by
 * attribute, and removes one of them. `includedAttributes` (when set) and `excludedAttributes` (default
 * `['query']`) choose which attributes are listed.
 *
 * @example
 * ```ts
 * class Chips extends LitElement {
 *   private current = new CurrentRefinementsController(this, { store });
 *   render() {
 *     return this.current.items.flatMap((group) => group.refinements.map((refinement) =>
 *       html`<button @click=${() => this.current.remove(refinement)}>${group.attribute}: ${refinement.value} ×</button>`));
 *   }
 * }
 * ```
 */
export class CurrentRefinementsController extends StoreController {
  /** Only these attributes are listed (undefined: every attribute). */
  includedAttributes: string[] | undefined;
  /** These attributes are not listed (default: the query). */
  excludedAttributes: string[] = [QUERY_ATTRIBUTE];

  private isListed(attribute: string): boolean {
    if (this.includedAttributes && !this.includedAttributes.includes(attribute)) return false;
    return !this.excludedAttributes.includes(attribute);
  }

  /** The listed refinements, grouped by attribute (attributes in the order of the state). */
  get items(): CurrentRefinementGroup[] {
    const state = this.snapshot?.state;
    return state ? currentRefinements(state).filter((group) => this.isListed(group.attribute)) : [];
  }

  /** Whether anything is listed. */
  get hasRefinements(): boolean {
    return this.items.length > 0;
  }

  /** Removes one refinement (one search follows). */
  remove(refinement: CurrentRefinement): void {
    const store = this.store;
    if (!store) return;
    switch (refinement.type) {
      case 'facet':
        if (store.isRefined(refinement.attribute, String(refinement.value))) {
          store.toggleRefinement(refinement.attribute, String(refinement.value), 'and');
        }
        break;
      case 'disjunctive':
        if (store.isRefined(refinement.attribute, String(refinement.value))) {
          store.toggleRefinement(refinement.attribute, String(refinement.value), 'or');
        }
        break;
      case 'numeric':
        store.removeNumericRefinement(refinement.attribute, refinement.operator, Number(refinement.value));
        break;
      case 'tag':
        if (store.getSnapshot().state.tagRefinements.includes(String(refinement.value)))
          store.toggleTag(String(refinement.value));
        break;
      case 'query':
        store.setQuery('');
        break;
    }
  }
}

/**
 * Every refinement of a state, grouped by attribute: disjunctive and conjunctive facet values, numeric
 * conditions, tags (`_tags`) and the query (`query`, when not empty).
 *
 * @example
 * ```ts
 * currentRefinements(store.getSnapshot().state)
 * // [{ attribute: 'brand', refinements: [{ attribute: 'brand', type: 'disjunctive', value: 'Acme' }] }]
 * ```
 */
export function currentRefinements(state: IndexState): CurrentRefinementGroup[] {
  const groups = new Map<string, CurrentRefinement[]>();
  const add = (refinement: CurrentRefinement) => {
    const list = groups.get(refinement.attribute) ?? [];
    list.push(refinement);
    groups.set(refinement.attribute, list);
  };
  for (const [attribute, values] of Object.entries(state.disjunctiveFacetRefinements ?? {})) {
    for (const value of values) add({ attribute, type: 'disjunctive', value });
  }
  for (const [attribute, values] of Object.entries(state.facetRefinements ?? {})) {
    for (const value of values) add({ attribute, type: 'facet', value });
  }
  for (const [attribute, conditions] of Object.entries(state.numericRefinements ?? {})) {
    for (const { operator, value } of conditions) add({ attribute, type: 'numeric', operator, value });
  }
  for (const tag of state.tagRefinements ?? []) add({ attribute: TAGS_ATTRIBUTE, type: 'tag', value: tag });
  if (state.query) add({ attribute: QUERY_ATTRIBUTE, type: 'query', value: state.query });
  return [...groups].map(([attribute, refinements]) => ({ attribute, refinements }));
}
