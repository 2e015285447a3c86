import type { Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** One choice of a rating menu: "`stars` & up" and its number of hits. */
export interface RatingMenuItem {
  /** The lowest rating of the choice (1 … max − 1). */
  stars: number;
  /** Hits rated `stars` to `max` under the other refinements. */
  count: number;
  isRefined: boolean;
}

/**
 * Headless logic of `<svc-rating-menu>`: InstantSearch's rating menu. Choices "4 & up" … "1 & up" (from
 * `max − 1` down to 1), each refining `attribute >= stars` and `attribute <= max`; choosing the refined one
 * removes it. Counts are sums of the attribute's facet values in the range — the attribute is an OR facet, so
 * they leave the menu's own refinement out. The attribute must be in `attributesForFaceting`, with integer
 * (or few distinct) values: the counts add up the facet values the answer lists.
 *
 * @example
 * ```ts
 * const rating = new RatingMenuController(host, { store });
 * rating.attribute = 'rating';
 * rating.items; // [{ stars: 4, count: 1473, isRefined: false }, …]
 * rating.refine(4);
 * ```
 */
export class RatingMenuController extends StoreController {
  /** The numeric attribute holding the rating. */
  attribute = '';
  /** The highest rating (default 5). */
  max = 5;

  protected override needs(): Needs | undefined {
    return this.attribute ? { disjunctiveFacets: [this.attribute] } : undefined;
  }

  /** The lowest rating refined (`>=`), if the state has one. */
  get refined(): number | undefined {
    return this.snapshot?.state.numericRefinements[this.attribute]?.find((r) => r.operator === '>=')?.value;
  }

  /** The choices, highest first. */
  get items(): RatingMenuItem[] {
    const values = Object.entries(this.snapshot?.results?.facets?.[this.attribute] ?? {});
    const refined = this.refined;
    const out: RatingMenuItem[] = [];
    for (let stars = Math.floor(this.max) - 1; stars >= 1; stars--) {
      const count = values
        .filter(([value]) => Number(value) >= stars && Number(value) <= this.max)
        .reduce((sum, [, n]) => sum + n, 0);
      out.push({ stars, count, isRefined: refined === stars });
    }
    return out;
  }

  /** Whether a rating is refined (it can be undone), or a choice has hits. */
  get canRefine(): boolean {
    return this.refined !== undefined || this.items.some((item) => item.count > 0);
  }

  /** Refines "`stars` & up"; on the refined choice, removes it. Returns whether it is now refined. */
  refine(stars: number): boolean {
    const { store, attribute } = this;
    if (!store || !attribute) return false;
    const on = this.refined !== stars;
    store.removeNumericRefinement(attribute, '>=');
    store.removeNumericRefinement(attribute, '<=');
    if (on) {
      store.addNumericRefinement(attribute, '>=', stars);
      store.addNumericRefinement(attribute, '<=', this.max);
    }
    this.host.requestUpdate();
    return on;
  }

  /** The page URL with "`stars` & up" chosen as `refine(stars)` would (for a link's `href`). */
  createURL(stars: number): string {
    const { store, attribute } = this;
    if (!store || !attribute) return '';
    const on = this.refined !== stars;
    return store.createURL((state) => {
      const others = (state.numericRefinements[attribute] ?? []).filter(
        (r) => r.operator !== '>=' && r.operator !== '<=',
      );
      const range = on
        ? [
            { operator: '>=' as const, value: stars },
            { operator: '<=' as const, value: this.max },
          ]
        : [];
      return {
        ...state,
        page: 0,
        numericRefinements: { ...state.numericRefinements, [attribute]: [...others, ...range] },
      };
    });
  }
}
