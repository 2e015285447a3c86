import type { ExtraQueries, Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** One choice of a numeric menu: a label and a range (`start <= value <= end`; an undefined side is open). */
export interface NumericMenuItem {
  label: string;
  start?: number;
  end?: number;
}

/** A choice as shown: whether it is the range in effect, and (with `showCounts`) its number of hits. */
export interface NumericMenuEntry extends NumericMenuItem {
  /** Index in `items`. */
  index: number;
  isRefined: boolean;
  /** Hits in the range under the other refinements (with `showCounts`, once answered). */
  count: number | undefined;
}

/**
 * Reads `start:end` (`":10"`, `"10:100"`, `"100:"`, `""` for all) as a range; undefined for anything else.
 *
 * @example parseNumericRange('10:100') // { start: 10, end: 100 }
 */
export function parseNumericRange(text: string): { start?: number; end?: number } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  const match = /^([^:]*):([^:]*)$/.exec(trimmed);
  if (!match) return undefined;
  const side = (part: string) => (part.trim() === '' ? undefined : Number(part));
  const start = side(match[1]!);
  const end = side(match[2]!);
  if ((start !== undefined && !Number.isFinite(start)) || (end !== undefined && !Number.isFinite(end)))
    return undefined;
  if (start !== undefined && end !== undefined && start > end) return undefined;
  return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
}

const filtersOf = (attribute: string, item: NumericMenuItem) => [
  ...(item.start === undefined ? [] : [`${attribute}>=${item.start}`]),
  ...(item.end === undefined ? [] : [`${attribute}<=${item.end}`]),
];

/** Where a range's count goes in `results.counts`. */
const countKey = (attribute: string, item: NumericMenuItem) => `${attribute}:${item.start ?? ''}:${item.end ?? ''}`;

/**
 * The queries counting the hits of each range under the state's other refinements (`Needs.queries`): one no-hit
 * query per range, without the state's own range of `attribute`; each count goes in `results.counts`.
 *
 * @example store.registerNeeds('price', { queries: [rangeCounts('price-ranges', 'price', [{ label: 'Cheap', end: 10 }])] })
 */
export function rangeCounts(key: string, attribute: string, items: NumericMenuItem[]): ExtraQueries {
  return {
    key,
    build(state, countsQuery) {
      const { [attribute]: _own, ...numericRefinements } = state.numericRefinements;
      return items.map((item) => {
        const request = countsQuery({ ...state, numericRefinements }, {});
        const params = request.params!;
        const given = params.numericFilters;
        params.numericFilters = [
          ...(Array.isArray(given) ? given : given ? [given] : []),
          ...filtersOf(attribute, item),
        ];
        return {
          request,
          merge(results, answer) {
            results.counts = { ...results.counts, [countKey(attribute, item)]: answer?.nbHits ?? 0 };
          },
        };
      });
    },
  };
}

/**
 * Headless logic of `<svc-numeric-menu>`: InstantSearch's numeric menu. One choice of numeric ranges at a time,
 * each `attribute >= start` and/or `attribute <= end` (an item without either is "All"); the choice in effect is
 * the item whose bounds are exactly the state's `>=` / `<=` refinements of the attribute (so a range set
 * elsewhere, by `<svc-range-input>` or a URL, selects the item that matches it, or none). With `showCounts`, the
 * number of hits of each range under the other refinements comes with the search (one facets-only query per
 * range, in the same request).
 *
 * @example
 * ```ts
 * const price = new NumericMenuController(host, { store });
 * price.attribute = 'price';
 * price.items = [{ label: 'All' }, { label: 'Under $10', end: 10 }, { label: '$10 to $100', start: 10, end: 100 }];
 * price.refine(1);
 * ```
 */
export class NumericMenuController extends StoreController {
  /** The numeric attribute. */
  attribute = '';
  /** The choices, in order. */
  items: NumericMenuItem[] = [];
  /** Ask the number of hits of each range (one facets-only query per range in the same request). */
  showCounts = false;

  /** The count queries, one object per configuration (a new one is a new need). */
  #queries: ExtraQueries | undefined;

  protected override needs(): Needs | undefined {
    if (!this.attribute || !this.showCounts || !this.items.length) return undefined;
    const key = `numeric-menu:${JSON.stringify([this.attribute, this.items])}`;
    if (this.#queries?.key !== key) this.#queries = rangeCounts(key, this.attribute, this.items);
    return { queries: [this.#queries] };
  }

  /** The choices with the one in effect and their counts. */
  get entries(): NumericMenuEntry[] {
    const list = this.snapshot?.state.numericRefinements[this.attribute] ?? [];
    const start = list.find((r) => r.operator === '>=')?.value;
    const end = list.find((r) => r.operator === '<=')?.value;
    const counts = this.snapshot?.results?.counts;
    return this.items.map((item, index) => ({
      ...item,
      index,
      isRefined: item.start === start && item.end === end,
      count: counts?.[this.#key(index)],
    }));
  }

  /** Whether a range is refined (it can be undone), or the results have hits to narrow. */
  get canRefine(): boolean {
    const list = this.snapshot?.state.numericRefinements[this.attribute] ?? [];
    const refined = list.some((r) => r.operator === '>=' || r.operator === '<=');
    return refined || (this.snapshot?.results?.nbHits ?? 0) > 0;
  }

  /** Makes choice `index` the range (one request for the tick, page 0); returns whether it changed anything. */
  refine(index: number): boolean {
    const { store, attribute } = this;
    const item = this.items[index];
    if (!store || !attribute || !item || this.entries[index]?.isRefined) return false;
    store.removeNumericRefinement(attribute, '>=');
    store.removeNumericRefinement(attribute, '<=');
    if (item.start !== undefined) store.addNumericRefinement(attribute, '>=', item.start);
    if (item.end !== undefined) store.addNumericRefinement(attribute, '<=', item.end);
    this.host.requestUpdate();
    return true;
  }

  #key(index: number): string {
    const item = this.items[index]!;
    return countKey(this.attribute, item);
  }
}
