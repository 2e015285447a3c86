import type { Needs, SearchStore } from '../store/types.js';
import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-toggle-refinement>`: InstantSearch's toggle refinement. On, the search is refined on
 * `attribute: on`; off, on `attribute: off` when `off` is given, else not at all. The attribute is an OR facet
 * (it must be in the index's `attributesForFaceting`): its counts leave its own refinement out, so `count` is
 * the number of hits the toggle gives when on — also while it is off. With `off`, an element bound to a store
 * whose state refines neither value refines `off` at once (the default state, in the same request as the first
 * search when the element is there from the start).
 *
 * @example
 * ```ts
 * const sameDay = new ToggleRefinementController(host, { store, insights });
 * Object.assign(sameDay, { attribute: 'sameDayShipping', on: 'true' });
 * sameDay.count; // 468
 * sameDay.toggle(); // on
 * ```
 */
export class ToggleRefinementController extends StoreController {
  /** The facet attribute. */
  attribute = '';
  /** The value refined when on (as the facet's values are written: `true`, `In stock`…). */
  on = 'true';
  /** The value refined when off; undefined: no refinement when off. */
  off: string | undefined;

  #defaulted: SearchStore | undefined;

  protected override needs(): Needs | undefined {
    return this.attribute ? { disjunctiveFacets: [this.attribute] } : undefined;
  }

  override sync(): void {
    super.sync();
    // The `off` value is the state of an untouched toggle: refined once per store, when neither value is.
    const store = this.connected ? this.store : undefined;
    if (store && store !== this.#defaulted && this.attribute && this.off !== undefined) {
      this.#defaulted = store;
      if (!store.isRefined(this.attribute, this.on) && !store.isRefined(this.attribute, this.off))
        store.toggleRefinement(this.attribute, this.off, 'or');
    }
  }

  /** Whether the toggle is on (the state refines `on`). */
  get isRefined(): boolean {
    const values = this.snapshot?.state.disjunctiveFacetRefinements[this.attribute] ?? [];
    const and = this.snapshot?.state.facetRefinements[this.attribute] ?? [];
    return values.includes(this.on) || and.includes(this.on);
  }

  /** Hits with `on` under the other refinements: what the toggle shows when on. */
  get count(): number {
    return this.snapshot?.results?.facets?.[this.attribute]?.[this.on] ?? 0;
  }

  /** Whether turning it on gives anything (or it is on, and can be turned off). */
  get canRefine(): boolean {
    return this.isRefined || this.count > 0;
  }

  /** Turns the toggle on or off (the other way by default); returns whether it is now on. */
  toggle(on = !this.isRefined): boolean {
    const { store, attribute } = this;
    if (!store || !attribute || on === this.isRefined) return this.isRefined;
    const results = this.snapshot?.results;
    // One request for the tick: the old value out, the new one in (page 0).
    store.clearRefinements([attribute]);
    const value = on ? this.on : this.off;
    if (value !== undefined) store.toggleRefinement(attribute, value, 'or');
    if (on)
      this.insights?.filterApplied(
        results?.index ?? store.getSnapshot().state.indexName,
        attribute,
        this.on,
        results?.queryID,
      );
    this.host.requestUpdate();
    return on;
  }
}
