import { DEFAULT_HIERARCHICAL_SEPARATOR, refinedPath, refinePath } from './hierarchical-menu-controller.js';
import { StoreController } from './store-controller.js';

/** One level of the refined path: its label and the path up to it (what choosing it refines). */
export interface BreadcrumbItem {
  label: string;
  /** The path up to this level (`Furniture > Chairs`). */
  value: string;
}

/**
 * Headless logic of `<svc-breadcrumb>`: the levels of the current hierarchical refinement (the deepest refined
 * value of `attributes`, read from the state, split by `separator`), `refine(value)` going back to a level,
 * `refine(undefined)` to the root (no refinement). With `rootPath`, the levels of the root path are left out.
 * It asks nothing of the requests: `<svc-hierarchical-menu>` (or the URL) makes the refinement.
 *
 * @example
 * ```ts
 * const crumbs = new BreadcrumbController(host, { store });
 * crumbs.attributes = ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'];
 * crumbs.items; // [{ label: 'Furniture', value: 'Furniture' }, { label: 'Chairs', value: 'Furniture > Chairs' }]
 * crumbs.refine('Furniture'); // back to Furniture
 * ```
 */
export class BreadcrumbController extends StoreController {
  /** One attribute per level, first level first (those of the hierarchical menu). */
  attributes: string[] = [];
  /** Between the levels of a path. */
  separator = DEFAULT_HIERARCHICAL_SEPARATOR;
  /** A path the items start after (the hierarchical menu's `rootPath`). */
  rootPath: string | undefined;

  /** The levels of the refined path, first level first (after `rootPath`). */
  get items(): BreadcrumbItem[] {
    const refined = refinedPath(this.snapshot?.state, this.attributes);
    if (!refined) return [];
    const parts = refined.value.split(this.separator);
    const skip = this.rootPath?.trim() ? this.rootPath.trim().split(this.separator).length : 0;
    return parts
      .map((label, i) => ({ label: label.trim(), value: parts.slice(0, i + 1).join(this.separator) }))
      .slice(skip);
  }

  /** Whether there is a refinement to go back from. */
  get canRefine(): boolean {
    return this.items.length > 0;
  }

  /** Goes back to the level `value` (a path of `items`), or to the root (no refinement) with `undefined`. */
  refine(value: string | undefined): void {
    const store = this.store;
    if (!store || !this.attributes.length) return;
    refinePath(store, this.attributes, value, this.separator);
    this.host.requestUpdate();
  }

  /** The page URL of the state refined to `value` (undefined: the root), for a link's `href`. */
  createURL(value: string | undefined): string {
    const store = this.store;
    if (!store) return '';
    const next = value;
    return store.createURL((state) => {
      const facetRefinements = Object.fromEntries(
        Object.entries(state.facetRefinements).filter(([attribute]) => !this.attributes.includes(attribute)),
      );
      const attribute = next === undefined ? undefined : this.attributes[next.split(this.separator).length - 1];
      if (next !== undefined && attribute) facetRefinements[attribute] = [next];
      return { ...state, page: 0, facetRefinements };
    });
  }
}
