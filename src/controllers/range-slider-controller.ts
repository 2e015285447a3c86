import { type NumericRange, RangeInputController, roundTo } from './range-input-controller.js';

/** One thumb of the slider. */
export type Thumb = 'min' | 'max';

/**
 * Headless logic of `<svc-range-slider>`: the range input's logic (bounds from `facets_stats`, the refined
 * range, `refine`) with what a two-thumb slider adds — a `step` (default `10^-precision`), the thumbs' values
 * (the range being dragged, else the refined one, else the bounds), moves by steps or to a position along the
 * track that never cross the other thumb, and `commit()`, which refines the range shown (a thumb at its bound
 * leaves that side open). It shares the attribute's `>=` / `<=` refinements with `<svc-range-input>`, so both
 * show the same range.
 *
 * @example
 * ```ts
 * const price = new RangeSliderController(host, { store });
 * price.attribute = 'price';
 * price.nudge('min', 10); // ten steps up, not sent yet
 * price.commit();         // refines price >= …
 * ```
 */
export class RangeSliderController extends RangeInputController {
  /** The step of the thumbs (undefined: `10^-precision`). */
  stepOverride: number | undefined;
  /** The range being moved (keys held, a drag), not refined yet. */
  draft: NumericRange | undefined;

  /** The step of the thumbs. */
  override get step(): number {
    return this.stepOverride !== undefined && this.stepOverride > 0 ? this.stepOverride : super.step;
  }

  /** Whether the bounds are known (the results have stats for the attribute, or `min` / `max` are given). */
  get hasBounds(): boolean {
    const { min, max } = this.range;
    return min !== undefined && max !== undefined && max >= min;
  }

  /** The values of the thumbs: the draft, else the refined range, else the bounds (clamped to them). */
  get values(): { min: number; max: number } {
    const range = this.range;
    const lo = range.min ?? 0;
    const hi = range.max ?? lo;
    const shown = { ...this.value, ...this.draft };
    return {
      min: clamp(shown.min ?? lo, lo, hi),
      max: clamp(shown.max ?? hi, lo, hi),
    };
  }

  /** Where a value sits along the track, from 0 (lower bound) to 1 (upper bound). */
  ratioOf(value: number): number {
    const { min, max } = this.range;
    if (min === undefined || max === undefined || max <= min) return 0;
    return clamp((value - min) / (max - min), 0, 1);
  }

  /** Moves a thumb by `steps` steps (negative: down), not past the other thumb nor the bounds. */
  nudge(thumb: Thumb, steps: number): void {
    this.moveTo(thumb, this.values[thumb] + steps * this.step);
  }

  /** Moves a thumb to a bound (`Home` / `End`), or to the other thumb when that is nearer. */
  moveToEnd(thumb: Thumb, end: 'min' | 'max'): void {
    const value = this.range[end];
    if (value !== undefined) this.moveTo(thumb, value);
  }

  /** Moves a thumb to the position `ratio` (0 … 1) along the track. */
  moveToRatio(thumb: Thumb, ratio: number): void {
    const { min, max } = this.range;
    if (min === undefined || max === undefined) return;
    this.moveTo(thumb, min + clamp(ratio, 0, 1) * (max - min));
  }

  /** The thumb nearer to `ratio` (for a press on the track). */
  nearest(ratio: number): Thumb {
    const { min, max } = this.values;
    return Math.abs(this.ratioOf(min) - ratio) <= Math.abs(this.ratioOf(max) - ratio) ? 'min' : 'max';
  }

  /**
   * Moves a thumb to `value`, snapped to the step from the lower bound (the bounds themselves excepted), within
   * the bounds and the other thumb.
   */
  moveTo(thumb: Thumb, value: number): void {
    if (!this.hasBounds) return;
    const { min: lo, max: hi } = this.range as Required<NumericRange>;
    const step = this.step;
    // The bounds themselves are always reachable (End, a drag to the end), whatever the step.
    const snapped =
      value >= hi ? hi : value <= lo ? lo : roundTo(lo + Math.round((value - lo) / step) * step, decimalsOf(step));
    const values = this.values;
    const next =
      thumb === 'min' ? clamp(snapped, lo, Math.min(values.max, hi)) : clamp(snapped, Math.max(values.min, lo), hi);
    this.draft = { ...values, [thumb]: next };
    this.host.requestUpdate();
  }

  /** Refines the range of the thumbs (a thumb at its bound leaves that side open); returns the range applied. */
  commit(): NumericRange | undefined {
    const draft = this.draft;
    this.draft = undefined;
    if (!draft || !this.hasBounds) return undefined;
    const { min: lo, max: hi } = this.range;
    const range = {
      min: draft.min !== undefined && draft.min > lo! ? draft.min : undefined,
      max: draft.max !== undefined && draft.max < hi! ? draft.max : undefined,
    };
    const applied = this.refine(range);
    this.host.requestUpdate();
    return applied;
  }

  /** Drops the range being moved (Escape). */
  cancel(): void {
    this.draft = undefined;
    this.host.requestUpdate();
  }
}

const clamp = (value: number, lo: number, hi: number) => Math.min(Math.max(value, lo), hi);

/** Decimal places of a step (`0.25` → 2), so snapped values carry no binary-fraction tail. */
const decimalsOf = (step: number) => {
  const text = String(step);
  return text.includes('e-') ? Number(text.split('e-')[1]) : (text.split('.')[1]?.length ?? 0);
};
