import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { RangeInputController, type NumericRange } from '../../controllers/range-input-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** `detail` of `svc-range-change`. */
export interface SvcRangeChangeEventDetail {
  attribute: string;
  /** The lower bound now refined (`attribute >= min`), undefined when that side is open. */
  min: number | undefined;
  /** The upper bound now refined (`attribute <= max`), undefined when that side is open. */
  max: number | undefined;
}

type Side = 'min' | 'max';

/** Why the last submission was refused, and which fields are at fault. */
interface FormError {
  key: 'invalidRange' | 'invalidNumber';
  params?: Record<string, number>;
  fields: Side[];
}

/** A number attribute: undefined when absent, NaN (reported) when not a number. */
const optionalNumber = {
  converter: (value: string | null) => (value === null || value.trim() === '' ? undefined : Number(value)),
};

/**
 * Two number fields and a submit button refining a numeric attribute to a range ("Price: 10 to 200 Go").
 *
 * Submitting (Enter in a field, or the button) refines the search with `attribute >= min` and/or
 * `attribute <= max`; an empty field removes that side; the search goes back to the first page. A minimum
 * greater than the maximum, or a field that is not a number, is refused with an inline message
 * (`role="alert"`, the fields `aria-invalid` and described by it) and nothing is sent. The fields show the
 * range in effect, whoever set it (URL state, `<svc-current-refinements>`, clear refinements).
 *
 * The bounds — placeholders and the fields' `min` / `max` — are the attribute's minimum and maximum in the
 * results (`facets_stats`; the attribute must be in the index's `attributesForFaceting`), or the `min` / `max`
 * attributes; they guide the user but do not filter by themselves. `precision` sets the decimals of the
 * bounds, of the fields' `step` and of what is sent (a minimum is rounded down, a maximum up). Without stats
 * (no hits, an attribute that is not numeric) the fields have no bounds and still work. Nothing is sent to
 * Insights: numeric ranges are not `attribute:value` filters.
 *
 * Translations: `minLabel` ("Minimum {attribute}"), `maxLabel` ("Maximum {attribute}"), `minPlaceholder`
 * ("{value}", the lower bound), `maxPlaceholder` ("{value}", the upper bound), `separator` ("to"), `submit`
 * ("Go"), `invalidRange` ("The minimum ({min}) is greater than the maximum ({max})."), `invalidNumber`
 * ("Enter a number.").
 *
 * @tagname svc-range-input
 * @summary Two number fields and a submit button refining a numeric attribute to a range ("Price: 10 to 200 Go").
 *
 * @example
 * ```html
 * <svc-range-input attribute="price"></svc-range-input>
 * <svc-range-input attribute="rating" min="0" max="5" precision="1"></svc-range-input>
 * ```
 *
 * @csspart form - The `form`.
 * @csspart input - Both number fields.
 * @csspart min - The minimum field (with `input`).
 * @csspart max - The maximum field (with `input`).
 * @csspart separator - The text between the fields ("to").
 * @csspart submit - The submit button.
 * @csspart error - The message of a refused submission (`role="alert"`; empty and hidden otherwise).
 *
 * @cssproperty --svc-range-input-height - Height of the fields and the button (default `2.25rem`).
 * @cssproperty --svc-range-input-min-width - Smallest width of each field (default `3.5rem`; they share the rest of the line).
 * @cssproperty --svc-range-input-background - Background of the fields (default transparent: the page's).
 * @cssproperty --svc-button-background - Background of the submit button (default transparent).
 * @cssproperty --svc-error-color - Colour of the message and of the refused fields' border (default: a red mixed with the text colour).
 * @cssproperty --svc-border-color - Border of the fields and the button.
 * @cssproperty --svc-muted-color - Colour of the placeholders and the separator.
 * @cssproperty --svc-accent - Focus ring, button hover.
 * @cssproperty --svc-radius - Corner radius.
 * @cssproperty --svc-gap - Space between the fields and the button.
 *
 * @event {CustomEvent<SvcRangeChangeEventDetail>} svc-range-change - The user submitted a new range. `detail: { attribute, min, max }` (a side is undefined when open).
 */
export class SvcRangeInput extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    min: optionalNumber,
    max: optionalNumber,
    precision: { type: Number },
  };
  static override defaultTranslations = {
    minLabel: 'Minimum {attribute}',
    maxLabel: 'Maximum {attribute}',
    minPlaceholder: '{value}',
    maxPlaceholder: '{value}',
    separator: 'to',
    submit: 'Go',
    invalidRange: 'The minimum ({min}) is greater than the maximum ({max}).',
    invalidNumber: 'Enter a number.',
  };
  static override shadowRootOptions = { ...SvcElement.shadowRootOptions, delegatesFocus: true };

  /** The numeric attribute (in the index's `attributesForFaceting`). */
  attribute = '';
  /** Lower bound shown, instead of the attribute's minimum in the results. */
  declare min: number | undefined;
  /** Upper bound shown, instead of the attribute's maximum in the results. */
  declare max: number | undefined;
  /** Decimal places of the bounds, the step and the refinements (0 to 20, default 0). */
  precision = 0;

  #range = new RangeInputController(this, { store: () => this.store });
  /** The range in effect last written into the fields (`JSON`), to see a change made elsewhere. */
  #shown: string | undefined;
  /** The field values to write in `updated()` (only when the range in effect changed: never while the user types). */
  #write: [string, string] | undefined;
  #error: FormError | undefined;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const range = this.#range;
    range.attribute = this.attribute;
    let { min, max } = this;
    for (const [side, value] of [
      ['min', min],
      ['max', max],
    ] as const) {
      if (value !== undefined && !Number.isFinite(value)) {
        if (changed.has(side)) console.error(`<svc-range-input>: ${side} must be a number; ignored.`);
        if (side === 'min') min = undefined;
        else max = undefined;
      }
    }
    if (min !== undefined && max !== undefined && min > max) {
      if (changed.has('min') || changed.has('max'))
        console.error(`<svc-range-input>: min (${min}) is greater than max (${max}); both ignored.`);
      min = max = undefined;
    }
    range.min = min;
    range.max = max;
    try {
      range.precision = this.precision ?? 0; // a removed attribute is null
    } catch (error) {
      if (changed.has('precision')) console.error(`<svc-range-input>: ${(error as Error).message}; using 0.`);
      range.precision = 0;
    }
    // The range in effect changed (this element's submission, the URL, another element): show it, drop any error.
    const value = range.value;
    const shown = JSON.stringify([value.min, value.max]);
    if (range.snapshot && shown !== this.#shown) {
      this.#shown = shown;
      this.#write = [
        value.min === undefined ? '' : String(value.min),
        value.max === undefined ? '' : String(value.max),
      ];
      this.#error = undefined;
    }
  }

  protected override firstUpdated(): void {
    if (!this.attribute)
      console.error('<svc-range-input>: the `attribute` attribute is required (the numeric attribute to refine).');
  }

  protected override updated(): void {
    if (!this.#write) return;
    const [min, max] = this.#write;
    this.#write = undefined;
    const fields = this.#fields();
    if (fields.min && fields.min.value !== min) fields.min.value = min;
    if (fields.max && fields.max.value !== max) fields.max.value = max;
  }

  /** The bounds shown: `min` / `max`, else the attribute's minimum and maximum in the results (rounded to `precision`). */
  get range(): NumericRange {
    return this.#range.range;
  }

  /** The range in effect (the state's `>=` and `<=` refinements of the attribute). */
  get value(): NumericRange {
    return this.#range.value;
  }

  /** Whether there is a range to choose in (bounds known and apart) or one to undo: `<svc-panel>` reads it. */
  get canRefine(): boolean {
    const { min, max } = this.#range.range;
    return this.#range.isRefined || (min !== undefined && max !== undefined && max > min);
  }

  /** Refines to `range` as if the user submitted it (fires no event); returns the range applied, undefined when unchanged. Throws a `RangeError` when `min > max`. */
  refine(range: NumericRange): NumericRange | undefined {
    return this.#range.refine(range);
  }

  #fields(): Partial<Record<Side, HTMLInputElement>> {
    const root = this.renderRoot;
    return {
      min: root.querySelector<HTMLInputElement>('#min') ?? undefined,
      max: root.querySelector<HTMLInputElement>('#max') ?? undefined,
    };
  }

  #refuse(error: FormError): void {
    this.#error = error;
    this.requestUpdate();
  }

  #submit(event: Event): void {
    event.preventDefault();
    const fields = this.#fields();
    const read: Partial<Record<Side, number>> = {};
    const bad: Side[] = [];
    for (const side of ['min', 'max'] as const) {
      const field = fields[side];
      if (!field || (field.value === '' && !field.validity.badInput)) continue;
      const value = field.valueAsNumber;
      if (field.validity.badInput || !Number.isFinite(value)) bad.push(side);
      else read[side] = value;
    }
    if (bad.length) {
      this.#refuse({ key: 'invalidNumber', fields: bad });
      return;
    }
    const { min, max } = read;
    if (min !== undefined && max !== undefined && min > max) {
      this.#refuse({ key: 'invalidRange', params: { min, max }, fields: ['min', 'max'] });
      return;
    }
    this.#error = undefined;
    const applied = this.#range.refine({ min, max });
    if (applied) {
      this.emit<SvcRangeChangeEventDetail>('svc-range-change', {
        attribute: this.attribute,
        min: applied.min,
        max: applied.max,
      });
    } else {
      // Nothing changed (e.g. "100.0" for 100): show the range in effect as the store has it.
      this.#shown = undefined;
    }
    this.requestUpdate();
  }

  #input(): void {
    // The user is correcting: the message of the last refusal no longer applies.
    if (!this.#error) return;
    this.#error = undefined;
    this.requestUpdate();
  }

  override render() {
    const { attribute } = this;
    const range = this.#range.range;
    const step = this.#range.step;
    const error = this.#error;
    const field = (side: Side) => {
      const invalid = error?.fields.includes(side);
      const bound = range[side];
      return html`<label class="visually-hidden" for=${side}>${this.t(side === 'min' ? 'minLabel' : 'maxLabel', { attribute })}</label
        ><input
          id=${side}
          part="input ${side}"
          type="number"
          autocomplete="off"
          min=${range.min ?? nothing}
          max=${range.max ?? nothing}
          step=${step}
          placeholder=${bound === undefined ? nothing : this.t(side === 'min' ? 'minPlaceholder' : 'maxPlaceholder', { value: String(bound) })}
          aria-invalid=${invalid ? 'true' : nothing}
          aria-describedby=${invalid ? 'error' : nothing}
          @input=${this.#input}
        />`;
    };
    return html`<form part="form" novalidate action="" @submit=${this.#submit}>
      ${field('min')}<span part="separator" aria-hidden="true">${this.t('separator')}</span>${field('max')}<button part="submit" type="submit">
        ${this.t('submit')}
      </button>
      <p part="error" id="error" role="alert">${error ? this.t(error.key, error.params) : nothing}</p>
    </form>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-range-change': CustomEvent<SvcRangeChangeEventDetail>;
  }
}
