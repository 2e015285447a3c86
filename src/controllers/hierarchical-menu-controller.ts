import type { ExtraQueries, IndexState, Needs, SearchStore } from '../store/types.js';
import { orderValues } from './facet-ordering.js';
import { compareBy, type RefinementSortCriterion } from './value-sort.js';
import { StoreController } from './store-controller.js';

/** One value of a hierarchical menu: a path (`Furniture > Chairs`), its last level, and its children when open. */
export interface HierarchicalMenuItem {
  /** The whole path (what is refined). */
  value: string;
  /** The last level of the path (`Chairs`). */
  label: string;
  /** Hits with this value under the other refinements (as if no level of this facet were refined). */
  count: number;
  /** On the refined path (the refined value or one of its parents). */
  isRefined: boolean;
  /** 0 for the first level shown. */
  level: number;
  /** The values of the next level, for a value on the refined path (else `null`). */
  data: HierarchicalMenuItem[] | null;
}

/** The separator of hierarchical paths when none is given (InstantSearch's). */
export const DEFAULT_HIERARCHICAL_SEPARATOR = ' > ';

/**
 * The queries a refined hierarchical facet adds to the search (`Needs.queries`): for each level of the refined
 * path, a facets-only query of that level without the facet's refinement, filtered by the path's parent level
 * (its siblings; the root level unfiltered), whose counts replace the level's. The main query gives the
 * children of the refined value. Nothing when no level is refined.
 *
 * @example
 * // refined `lvl1: Furniture > Chairs`: lvl0 unfiltered, lvl1 filtered by `lvl0: Furniture`
 * store.registerNeeds('menu', { facets: levels, queries: [hierarchicalQueries(levels, ' > ')] });
 */
export function hierarchicalQueries(attributes: string[], separator = DEFAULT_HIERARCHICAL_SEPARATOR): ExtraQueries {
  return {
    key: `hierarchical:${JSON.stringify([attributes, separator])}`,
    build(state, countsQuery) {
      const refined = refinedPath(state, attributes);
      if (!refined) return [];
      const path = refined.value.split(separator);
      const others = Object.fromEntries(
        Object.entries(state.facetRefinements).filter(([attribute]) => !attributes.includes(attribute)),
      );
      return attributes.slice(0, refined.level + 1).map((level, i) => {
        const parent = i > 0 ? { [attributes[i - 1]!]: [path.slice(0, i).join(separator)] } : {};
        const levelState = { ...state, facetRefinements: { ...others, ...parent } };
        return {
          request: countsQuery(levelState, { facets: [level] }, level),
          merge(results, answer) {
            results.facets[level] = { ...answer?.facets?.[level] };
          },
        };
      });
    },
  };
}

/** InstantSearch's default order of a hierarchical menu: by name. */
export const DEFAULT_HIERARCHICAL_SORT: RefinementSortCriterion[] = ['name:asc'];

/**
 * The deepest refined path of a hierarchical facet in a state, and its level (`undefined` when no level is
 * refined).
 *
 * @example refinedPath(snapshot.state, ['lvl0', 'lvl1']) // { value: 'Furniture > Chairs', level: 1 }
 */
export function refinedPath(
  state: IndexState | undefined,
  attributes: string[],
): { value: string; level: number } | undefined {
  for (let level = attributes.length - 1; level >= 0; level--) {
    const value = state?.facetRefinements[attributes[level]!]?.[0];
    if (value !== undefined) return { value, level };
  }
  return undefined;
}

/**
 * Refines a hierarchical facet to `value` (a path): its levels' refinements are replaced by `value` on the
 * level of its depth (one request for the tick, page 0); `undefined` clears the facet.
 *
 * @example refinePath(store, ['lvl0', 'lvl1'], 'Furniture > Chairs')
 */
export function refinePath(
  store: SearchStore,
  attributes: string[],
  value: string | undefined,
  separator = DEFAULT_HIERARCHICAL_SEPARATOR,
): void {
  store.clearRefinements(attributes);
  if (value === undefined) return;
  const attribute = attributes[value.split(separator).length - 1];
  if (attribute) store.toggleRefinement(attribute, value, 'and');
}

/**
 * Headless logic of `<svc-hierarchical-menu>`: InstantSearch's hierarchical menu over one attribute per level
 * (`hierarchicalCategories.lvl0`, `.lvl1`…, values written as paths `A > B`). The values of the first level
 * (or of `rootPath`'s children), and under each value of the refined path the values of the next level, with
 * counts as if the facet were not refined (`hierarchicalQueries`: each level of the path in the same request).
 * `refine(value)` makes a path the refinement (its deepest level), and on the refined value goes up to its
 * parent (or clears a first level). `limit`, show more, `sortBy` (default `name:asc`; the results' value
 * ordering applies while it is the default).
 *
 * @example
 * ```ts
 * const menu = new HierarchicalMenuController(host, { store });
 * menu.attributes = ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'];
 * menu.items; // [{ value: 'Furniture', label: 'Furniture', count: 380, isRefined: false, level: 0, data: null }, …]
 * menu.refine('Furniture > Chairs');
 * ```
 */
export class HierarchicalMenuController extends StoreController {
  /** One attribute per level, first level first. */
  attributes: string[] = [];
  /** Between the levels of a path. */
  separator = DEFAULT_HIERARCHICAL_SEPARATOR;
  /** A path whose children are the first level shown (e.g. `Furniture`); undefined: the first level. */
  rootPath: string | undefined;
  /** Show the siblings of the values on the refined path (else only the path and the refined value's children). */
  showParentLevel = true;
  /** Values shown per level. */
  limit = 10;
  /** Whether `toggleShowMore` may show up to `showMoreLimit` values per level. */
  showMore = false;
  showMoreLimit = 20;
  /** True after `toggleShowMore` showed more values. */
  isShowingMore = false;
  sortBy: RefinementSortCriterion[] = DEFAULT_HIERARCHICAL_SORT;

  /** The queries of the levels, one object per configuration (a new one is a new need). */
  #queries: ExtraQueries | undefined;

  protected override needs(): Needs | undefined {
    const { attributes, limit, separator } = this;
    if (!attributes.length) return undefined;
    const key = `hierarchical:${JSON.stringify([attributes, separator])}`;
    if (this.#queries?.key !== key) this.#queries = hierarchicalQueries(attributes, separator);
    return {
      facets: attributes,
      queries: [this.#queries],
      maxValuesPerFacet: this.showMore ? Math.max(limit, this.showMoreLimit) : limit,
    };
  }

  /** The refined path and its level, if any. */
  get refined(): { value: string; level: number } | undefined {
    return refinedPath(this.snapshot?.state, this.attributes);
  }

  /** The tree to show: the first level, and the next levels under the values of the refined path. */
  get items(): HierarchicalMenuItem[] {
    const root = this.rootPath?.trim();
    const start = root ? root.split(this.separator).length : 0;
    return this.#level(start, root || undefined);
  }

  /** Whether a show more/less button makes sense (more values than `limit` on a level shown). */
  get canToggleShowMore(): boolean {
    if (!this.showMore) return false;
    if (this.isShowingMore) return true;
    const levels = this.#shownLevels();
    return levels.some(({ level, parent }) => this.#values(level, parent).length > this.limit);
  }

  /** Whether there is anything to choose (a value, or a refinement to undo). */
  get canRefine(): boolean {
    return this.items.length > 0 || this.refined !== undefined;
  }

  /**
   * Refines `value` (a path); on the refined value itself, goes up to its parent (a first-level value, or
   * `rootPath`'s child, clears the facet).
   */
  refine(value: string): void {
    const store = this.store;
    if (!store || !this.attributes.length) return;
    refinePath(store, this.attributes, this.#next(value), this.separator);
    this.host.requestUpdate();
  }

  /** The page URL of the state with `value` refined as `refine(value)` would (for a link's `href`). */
  createURL(value: string): string {
    const store = this.store;
    if (!store) return '';
    const next = this.#next(value);
    return store.createURL((state) => {
      const facetRefinements = Object.fromEntries(
        Object.entries(state.facetRefinements).filter(([attribute]) => !this.attributes.includes(attribute)),
      );
      const attribute = next === undefined ? undefined : this.attributes[next.split(this.separator).length - 1];
      if (next !== undefined && attribute) facetRefinements[attribute] = [next];
      return { ...state, page: 0, facetRefinements };
    });
  }

  /** Shows more (up to `showMoreLimit`) or back `limit` values per level. */
  toggleShowMore(): void {
    this.isShowingMore = !this.isShowingMore;
    this.host.requestUpdate();
  }

  /** What choosing `value` refines: `value`, or on the refined value its parent (none above the first level). */
  #next(value: string): string | undefined {
    if (value !== this.refined?.value) return value;
    const parent = value.split(this.separator).slice(0, -1).join(this.separator);
    const root = this.rootPath?.trim();
    return parent && parent !== root ? parent : undefined;
  }

  #limit(): number {
    return this.isShowingMore ? Math.max(this.limit, this.showMoreLimit) : this.limit;
  }

  /** The paths of `level` under `parent` (every value of the level for the first level), sorted. */
  #values(level: number, parent: string | undefined): HierarchicalMenuItem[] {
    const attribute = this.attributes[level];
    if (!attribute) return [];
    const counts = this.snapshot?.results?.facets?.[attribute] ?? {};
    const current = this.refined?.value;
    const prefix = parent === undefined ? undefined : parent + this.separator;
    const items = Object.keys(counts)
      .filter((value) => (prefix === undefined ? !value.includes(this.separator) : value.startsWith(prefix)))
      .filter((value) => value.split(this.separator).length === level + 1)
      .map((value) => ({
        value,
        label: value.split(this.separator).at(-1)!.trim(),
        count: counts[value] ?? 0,
        isRefined: current !== undefined && (current === value || current.startsWith(value + this.separator)),
        level,
        data: null,
      }))
      .sort(compareBy(this.sortBy));
    const byDefault = this.sortBy.join() === DEFAULT_HIERARCHICAL_SORT.join();
    return byDefault ? orderValues(this.snapshot?.results, attribute, items) : items;
  }

  /** The items of `level` under `parent`, limited, with the next level opened under the refined one. */
  #level(level: number, parent: string | undefined): HierarchicalMenuItem[] {
    const current = this.refined;
    let items = this.#values(level, parent);
    // Without showParentLevel, a level at or below the refined value's parent shows only the path.
    const hideSiblings = !this.showParentLevel && current !== undefined && level > 0 && level <= current.level;
    if (hideSiblings && level !== this.#firstLevel()) items = items.filter((item) => item.isRefined);
    const limited = items.slice(0, this.#limit());
    // A refined value beyond the limit stays listed (it can be turned off).
    const refined = items.find((item) => item.isRefined);
    if (refined && !limited.includes(refined)) limited.push(refined);
    return limited.map((item) =>
      item.isRefined && level + 1 < this.attributes.length
        ? { ...item, data: this.#level(level + 1, item.value) }
        : item,
    );
  }

  #firstLevel(): number {
    const root = this.rootPath?.trim();
    return root ? root.split(this.separator).length : 0;
  }

  /** The levels shown and their parents (for show more). */
  #shownLevels(): Array<{ level: number; parent: string | undefined }> {
    const out: Array<{ level: number; parent: string | undefined }> = [];
    const walk = (items: HierarchicalMenuItem[], level: number, parent: string | undefined) => {
      out.push({ level, parent });
      for (const item of items) if (item.data) walk(item.data, level + 1, item.value);
    };
    const first = this.#firstLevel();
    walk(this.items, first, this.rootPath?.trim() || undefined);
    return out;
  }
}
