/**
 * The order of facet values by sort criteria (`sort-by` of the refinement list, the menu and the hierarchical
 * menu). A module of its own, apart from the refinement list's controller: the menus sort their values the same
 * way, and importing the comparator does not bring that controller (nor its facet search) into their chunks, so
 * the loader's core carries it only for pages that have a refinement list.
 */

/** Sort criteria of the values, applied in order: `isRefined` (refined first), `count[:asc|:desc]`, `name[:asc|:desc]`. */
export type RefinementSortCriterion =
  | 'isRefined'
  | 'count'
  | 'count:asc'
  | 'count:desc'
  | 'name'
  | 'name:asc'
  | 'name:desc';

const SORT_CRITERIA = ['isRefined', 'count', 'count:asc', 'count:desc', 'name', 'name:asc', 'name:desc'];

/** InstantSearch's default order: refined values first, then by count, then by name. */
export const DEFAULT_REFINEMENT_SORT: RefinementSortCriterion[] = ['isRefined', 'count:desc', 'name:asc'];

/** What the criteria read of a value (a `RefinementItem` of any of the lists). */
export interface SortableValue {
  label: string;
  count: number;
  isRefined: boolean;
}

/**
 * A comparator of refinement items for sort criteria (invalid criteria throw a clear error).
 * @example [...items].sort(compareBy(['count:desc', 'name:asc']))
 */
export function compareBy(criteria: readonly string[]): (a: SortableValue, b: SortableValue) => number {
  for (const criterion of criteria) {
    if (!SORT_CRITERIA.includes(criterion)) {
      throw new TypeError(`svc-search: unknown sort criterion "${criterion}" (use ${SORT_CRITERIA.join(', ')})`);
    }
  }
  return (a, b) => {
    for (const criterion of criteria) {
      const [key, direction] = criterion.split(':');
      const sign = direction === 'asc' || (key === 'name' && direction !== 'desc') ? 1 : -1;
      const order =
        key === 'isRefined'
          ? +b.isRefined - +a.isRefined
          : sign * (key === 'count' ? a.count - b.count : a.label.localeCompare(b.label));
      if (order) return order;
    }
    return 0;
  };
}
