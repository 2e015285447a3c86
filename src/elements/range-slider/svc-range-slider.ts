import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { NumericRange } from '../../controllers/range-input-controller.js';
import { RangeSliderController, type Thumb } from '../../controllers/range-slider-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { formatNumber } from '../base/translate.js';
import type { SvcRangeChangeEventDetail } from '../range-input/svc-range-input.js';
import { styles } from './styles.js';

/** A number attribute: undefined when absent or not a number. */
const optionalNumber = {
  converter: (value: string | null) => {
    const number = value === null || value.trim() === '' ? Number.NaN : Number(value);
    return Number.isFinite(number) ? number : undefined;
  },
};

/**
 * @tagname svc-range-slider
 * @summary A two-thumb slider refining a numeric attribute to a range ("Price $10 — $200"), its bounds those of
 * the results.
 *
 * The bounds are the attribute's minimum and maximum in the results (`facets_stats`, as `<svc-range-input>`;
 * the attribute must be in `attributesForFaceting`), or the `min` / `max` attributes, rounded outward to
 * `precision` decimals; the thumbs move by `step` (default `10^-precision`). Each thumb is an ARIA `slider`
 * ("Minimum price" / "Maximum price") with `aria-valuenow`, `aria-valuetext` (the number formatted for the
 * element's language, as a price with `currency`) and the other thumb's value as its limit. Keys: arrows one
 * step (Right is down under `dir="rtl"`), Page Up / Page Down a tenth of the range, Home / End the bounds,
 * Escape drops the move; the range is refined when the key is released. The pointer drags a thumb (refined on
 * release) or, pressed on the track, moves the nearer thumb there. A thumb at its bound leaves that side open.
 * It shares the attribute's `>=` / `<=` refinements with `<svc-range-input>` and `<svc-numeric-menu>`: they all
 * show the same range. Without bounds (no hits, not numeric) the thumbs are disabled.
 *
 * @csspart track - The track (pressing it moves the nearer thumb).
 * @csspart range - The part of the track between the thumbs.
 * @csspart thumb - Both thumbs (`role="slider"`); also `thumb-min` or `thumb-max`.
 * @csspart thumb-min - The lower thumb.
 * @csspart thumb-max - The upper thumb.
 * @csspart values - The values shown under the track.
 * @csspart min-value - The lower value shown.
 * @csspart max-value - The upper value shown.
 *
 * @cssproperty --svc-range-slider-thumb-size - Diameter of the thumbs (default `1.25rem`).
 * @cssproperty --svc-range-slider-track-height - Thickness of the track (default `0.25rem`).
 * @cssproperty --svc-range-slider-thumb-background - Inside of the thumbs (default `Canvas`).
 * @cssproperty --svc-accent - Thumbs, selected range, focus ring.
 * @cssproperty --svc-border-color - The track outside the range.
 * @cssproperty --svc-muted-color - The values under the track.
 *
 * @event {CustomEvent<SvcRangeChangeEventDetail>} svc-range-change - The user moved a thumb and released it (key or pointer), changing the range. `detail: { attribute, min, max }` (a side is undefined when open).
 *
 * Translations: `minLabel` ("Minimum {attribute}"), `maxLabel` ("Maximum {attribute}"), `value` ("{value}": a
 * thumb's value text and the values shown).
 */
export class SvcRangeSlider extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    min: optionalNumber,
    max: optionalNumber,
    step: optionalNumber,
    precision: { type: Number },
    currency: {},
  };
  static override defaultTranslations = {
    minLabel: 'Minimum {attribute}',
    maxLabel: 'Maximum {attribute}',
    value: '{value}',
  };

  /** The numeric attribute. */
  attribute = '';
  /** Lower bound instead of the results' minimum. */
  declare min: number | undefined;
  /** Upper bound instead of the results' maximum. */
  declare max: number | undefined;
  /** The step of the thumbs (default `10^-precision`). */
  declare step: number | undefined;
  /** Decimal places of the bounds and of the range refined (0 to 20; default 0). */
  precision = 0;
  /** An ISO 4217 code (`USD`): values are shown as prices of that currency. */
  declare currency: string | undefined;

  #slider = new RangeSliderController(this, { store: () => this.store });
  /** The thumb being dragged with the pointer. */
  #dragging: Thumb | undefined;
  #warnedCurrency = false;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const slider = this.#slider;
    slider.attribute = this.attribute;
    slider.min = this.min;
    slider.max = this.max;
    slider.stepOverride = this.step;
    const precision =
      Number.isInteger(this.precision) && this.precision >= 0 && this.precision <= 20 ? this.precision : 0;
    slider.precision = precision;
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-range-slider>: the `attribute` attribute is required.');
  }

  /** The bounds in effect. */
  get range(): NumericRange {
    return this.#slider.range;
  }

  /** The range refined in the state. */
  get value(): NumericRange {
    return this.#slider.value;
  }

  /** Whether the slider can be moved (the bounds are known and apart) or a range is refined. */
  get canRefine(): boolean {
    const { min, max } = this.#slider.range;
    return this.#slider.isRefined || (min !== undefined && max !== undefined && max > min);
  }

  /** Refines a range as if the user moved the thumbs (fires no event). */
  refine(range: NumericRange): void {
    this.#slider.refine(range);
  }

  #format(value: number): string {
    if (this.currency) {
      try {
        const text = new Intl.NumberFormat(this.language, { style: 'currency', currency: this.currency }).format(value);
        return this.t('value', { value: text });
      } catch {
        if (!this.#warnedCurrency) console.error(`<svc-range-slider>: "${this.currency}" is not a currency code.`);
        this.#warnedCurrency = true;
      }
    }
    return this.t('value', { value: formatNumber(value, this.language) });
  }

  #commit(): void {
    const applied = this.#slider.commit();
    if (!applied) return;
    this.emit<SvcRangeChangeEventDetail>('svc-range-change', {
      attribute: this.attribute,
      min: applied.min,
      max: applied.max,
    });
  }

  #onKeydown(event: KeyboardEvent, thumb: Thumb): void {
    const slider = this.#slider;
    if (!slider.hasBounds) return;
    const rtl = getComputedStyle(this).direction === 'rtl';
    const { min, max } = slider.range as Required<NumericRange>;
    const page = Math.max(1, Math.round((max - min) / 10 / slider.step));
    const keys: Record<string, () => void> = {
      ArrowUp: () => slider.nudge(thumb, 1),
      ArrowDown: () => slider.nudge(thumb, -1),
      ArrowRight: () => slider.nudge(thumb, rtl ? -1 : 1),
      ArrowLeft: () => slider.nudge(thumb, rtl ? 1 : -1),
      PageUp: () => slider.nudge(thumb, page),
      PageDown: () => slider.nudge(thumb, -page),
      Home: () => slider.moveToEnd(thumb, 'min'),
      End: () => slider.moveToEnd(thumb, 'max'),
      Escape: () => slider.cancel(),
    };
    const action = keys[event.key];
    if (!action) return;
    if (event.key !== 'Escape' || slider.draft) {
      event.preventDefault();
      if (event.key === 'Escape') event.stopPropagation(); // only the move, not an enclosing dialog
    }
    action();
  }

  #onKeyup(event: KeyboardEvent): void {
    if (['ArrowUp', 'ArrowDown', 'ArrowRight', 'ArrowLeft', 'PageUp', 'PageDown', 'Home', 'End'].includes(event.key))
      this.#commit();
  }

  /** Where a pointer is along the track, 0 … 1 (mirrored under `dir="rtl"`). */
  #ratioAt(event: PointerEvent): number {
    const track = this.renderRoot.querySelector<HTMLElement>('[part~="track"]')!;
    const rect = track.getBoundingClientRect();
    const ratio = rect.width > 0 ? (event.clientX - rect.left) / rect.width : 0;
    return getComputedStyle(this).direction === 'rtl' ? 1 - ratio : ratio;
  }

  #onPointerDown(event: PointerEvent): void {
    const slider = this.#slider;
    if (!slider.hasBounds || event.button !== 0) return;
    const thumbElement = (event.target as Element).closest<HTMLElement>('[role="slider"]');
    const thumb = (thumbElement?.dataset.thumb as Thumb | undefined) ?? slider.nearest(this.#ratioAt(event));
    this.#dragging = thumb;
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    this.renderRoot.querySelector<HTMLElement>(`[data-thumb="${thumb}"]`)?.focus();
    event.preventDefault();
    slider.moveToRatio(thumb, this.#ratioAt(event));
  }

  #onPointerMove(event: PointerEvent): void {
    if (this.#dragging) this.#slider.moveToRatio(this.#dragging, this.#ratioAt(event));
  }

  #onPointerUp(): void {
    if (!this.#dragging) return;
    this.#dragging = undefined;
    this.#commit();
  }

  #renderThumb(thumb: Thumb, value: number, lo: number | undefined, hi: number | undefined) {
    const slider = this.#slider;
    const disabled = !slider.hasBounds;
    const label = this.t(thumb === 'min' ? 'minLabel' : 'maxLabel', { attribute: this.attribute });
    return html`
      <div
        part="thumb thumb-${thumb}"
        data-thumb=${thumb}
        role="slider"
        tabindex=${disabled ? -1 : 0}
        aria-label=${label}
        aria-orientation="horizontal"
        aria-disabled=${disabled ? 'true' : 'false'}
        aria-valuemin=${String(lo ?? 0)}
        aria-valuemax=${String(hi ?? 0)}
        aria-valuenow=${String(value)}
        aria-valuetext=${this.#format(value)}
        style="inset-inline-start: ${slider.ratioOf(value) * 100}%"
        @keydown=${(event: KeyboardEvent) => this.#onKeydown(event, thumb)}
        @keyup=${this.#onKeyup}
        @blur=${() => this.#commit()}
      ></div>
    `;
  }

  override render() {
    const slider = this.#slider;
    const { min, max } = slider.values;
    const range = slider.range;
    const start = slider.ratioOf(min) * 100;
    const end = slider.ratioOf(max) * 100;
    return html`
      <div
        part="track"
        @pointerdown=${this.#onPointerDown}
        @pointermove=${this.#onPointerMove}
        @pointerup=${this.#onPointerUp}
        @pointercancel=${this.#onPointerUp}
      >
        <div part="range" style="inset-inline-start: ${start}%; inset-inline-end: ${100 - end}%"></div>
        ${this.#renderThumb('min', min, range.min, max)} ${this.#renderThumb('max', max, min, range.max)}
      </div>
      <div part="values" aria-hidden="true">
        <span part="min-value">${slider.hasBounds ? this.#format(min) : ''}</span>
        <span part="max-value">${slider.hasBounds ? this.#format(max) : ''}</span>
      </div>
    `;
  }
}
