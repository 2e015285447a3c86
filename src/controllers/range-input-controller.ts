import type { IndexState, Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** A numeric range; an undefined side is open (no bound, or no refinement on that side). */
export interface NumericRange {
  min?: number;
  max?: number;
}

/**
 * `value` rounded to `precision` decimal places: `floor` for a lower bound, `ceil` for an upper one (so the
 * range never gets narrower than asked), `round` otherwise. Immune to binary fractions (`1.15` stays `1.15`).
 *
 * @example
 * roundTo(12.345, 2, 'floor') // 12.34
 * roundTo(12.341, 2, 'ceil') // 12.35
 */
export function roundTo(value: number, precision: number, mode: 'floor' | 'ceil' | 'round' = 'round'): number {
  const pow = 10 ** precision;
  // 1.15 * 100 is 114.99999999999999: take the product at 15 significant digits before rounding.
  return Math[mode](Number((value * pow).toPrecision(15))) / pow;
}

/**
 * Headless logic of `<svc-range-input>`: the bounds of a numeric attribute (`facets_stats` of the results,
 * overridden by `min` / `max`, rounded to `precision`), the range refined in the state (its `>=` and `<=`
 * numeric refinements), and `refine({ min, max })`, which replaces them (an undefined side is removed; the
 * store goes back to the first page and makes one request).
 *
 * The attribute is declared as an OR (disjunctive) facet (it must be in the index's `attributesForFaceting`):
 * while it has a range, the store asks its stats in a facets-only query without that range, so the bounds are
 * those of the results without it — a refined range never narrows its own bounds, also on arrival from a URL.
 *
 * @example
 * ```ts
 * class PriceFilter extends LitElement {
 *   private price = new RangeInputController(this, { store });
 *   constructor() { super(); this.price.attribute = 'price'; }
 *   render() {
 *     const { range, value } = this.price;
 *     return html`<form @submit=${(e: SubmitEvent) => {
 *       e.preventDefault();
 *       const [min, max] = [...(e.target as HTMLFormElement).querySelectorAll('input')].map((input) => input.value);
 *       this.price.refine({ min: min ? Number(min) : undefined, max: max ? Number(max) : undefined });
 *     }}>
 *       <input type="number" aria-label="Minimum price" placeholder=${range.min ?? ''} .value=${String(value.min ?? '')} />
 *       <input type="number" aria-label="Maximum price" placeholder=${range.max ?? ''} .value=${String(value.max ?? '')} />
 *       <button>Go</button>
 *     </form>`;
 *   }
 * }
 * ```
 */
export class RangeInputController extends StoreController {
  /** The numeric attribute (must be in the index's `attributesForFaceting`). */
  attribute = '';
  /** Lower bound given by the page, instead of the results' minimum. */
  min: number | undefined;
  /** Upper bound given by the page, instead of the results' maximum. */
  max: number | undefined;

  #precision = 0;

  /** Decimal places of the bounds, the step and the refinements (an integer from 0 to 20; default 0). */
  get precision(): number {
    return this.#precision;
  }
  set precision(precision: number) {
    if (!Number.isInteger(precision) || precision < 0 || precision > 20) {
      throw new RangeError(`svc-range-input: precision must be an integer from 0 to 20, got ${precision}`);
    }
    this.#precision = precision;
  }

  /** The step of the inputs: `1` for precision 0, `0.01` for precision 2. */
  get step(): number {
    return 10 ** -this.#precision;
  }

  protected override needs(): Needs | undefined {
    return this.attribute ? { disjunctiveFacets: [this.attribute] } : undefined;
  }

  /**
   * The bounds: `min` / `max` when given, else the minimum and maximum of the attribute in the results
   * (`facets_stats`), the lower one rounded down and the upper one up to `precision`. A side is undefined when
   * there are no stats (no results yet, no hits, or an attribute that is not numeric).
   */
  get range(): NumericRange {
    const stats = this.snapshot?.results?.facets_stats?.[this.attribute];
    const min = this.min ?? stats?.min;
    const max = this.max ?? stats?.max;
    return {
      min: Number.isFinite(min) ? roundTo(min!, this.#precision, 'floor') : undefined,
      max: Number.isFinite(max) ? roundTo(max!, this.#precision, 'ceil') : undefined,
    };
  }

  /** The range refined in the state: its first `>=` (min) and `<=` (max) refinements of the attribute. */
  get value(): NumericRange {
    return this.#refinement(this.snapshot?.state);
  }

  /** Whether the state has a `>=` or `<=` refinement of the attribute. */
  get isRefined(): boolean {
    const { min, max } = this.value;
    return min !== undefined || max !== undefined;
  }

  /**
   * Refines the attribute to `range` (`attribute >= min`, `attribute <= max`; an undefined side is removed),
   * rounded to `precision` (min down, max up). Returns the range applied, or undefined when the state already
   * had it (no request). Throws a `RangeError` when a side is not a finite number or `min > max`.
   */
  refine(range: NumericRange): NumericRange | undefined {
    const { store, attribute } = this;
    if (!store || !attribute) return undefined;
    for (const side of ['min', 'max'] as const) {
      const value = range[side];
      if (value !== undefined && !Number.isFinite(value))
        throw new RangeError(`svc-range-input: ${side} must be a finite number, got ${value}`);
    }
    if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
      throw new RangeError(`svc-range-input: min (${range.min}) is greater than max (${range.max})`);
    }
    const next: NumericRange = {
      min: range.min === undefined ? undefined : roundTo(range.min, this.#precision, 'floor'),
      max: range.max === undefined ? undefined : roundTo(range.max, this.#precision, 'ceil'),
    };
    // Read the store's state, not the last snapshot: an action of the same tick may not be notified yet.
    const state = store.getSnapshot().state;
    const current = state.numericRefinements[attribute] ?? [];
    const own = current.filter((r) => r.operator === '>=' || r.operator === '<=');
    const wanted = [
      ...(next.min === undefined ? [] : [`>=${next.min}`]),
      ...(next.max === undefined ? [] : [`<=${next.max}`]),
    ];
    if (own.length === wanted.length && own.every((r) => wanted.includes(r.operator + r.value))) return undefined;
    // One request for all of these (the store searches once per tick); every one resets the page.
    store.removeNumericRefinement(attribute, '>=');
    store.removeNumericRefinement(attribute, '<=');
    if (next.min !== undefined) store.addNumericRefinement(attribute, '>=', next.min);
    if (next.max !== undefined) store.addNumericRefinement(attribute, '<=', next.max);
    this.host.requestUpdate();
    return next;
  }

  /** Removes both sides of the range (same as `refine({})`). */
  clear(): NumericRange | undefined {
    return this.refine({});
  }

  #refinement(state: IndexState | undefined): NumericRange {
    const list = state?.numericRefinements[this.attribute] ?? [];
    return { min: list.find((r) => r.operator === '>=')?.value, max: list.find((r) => r.operator === '<=')?.value };
  }
}
