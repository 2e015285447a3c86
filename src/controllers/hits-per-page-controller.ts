import type { Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** One choice of page size. */
export interface HitsPerPageItem {
  value: number;
  /** Text of the choice (default: the element's `item` translation, "{count} per page"). */
  label?: string;
  /** The size used until the user chooses (at most one item; the first when none is marked). */
  default?: boolean;
}

/**
 * Headless logic of `<svc-hits-per-page>`: the page sizes offered, the one in effect, and `refine(n)`.
 * The default item's size is registered with the store as a need, so the first search already uses it;
 * choosing the default again removes the size from the state (and so from the URL).
 *
 * @example
 * ```ts
 * class PageSize extends LitElement {
 *   private size = new HitsPerPageController(this, { store });
 *   constructor() {
 *     super();
 *     this.size.items = [{ value: 12, label: '12 per page', default: true }, { value: 24, label: '24 per page' }];
 *   }
 *   render() {
 *     return html`<select @change=${(e) => this.size.refine(Number(e.target.value))}>
 *       ${this.size.items.map((item) => html`<option value=${item.value} ?selected=${item.value === this.size.current}>${item.label}</option>`)}
 *     </select>`;
 *   }
 * }
 * ```
 */
export class HitsPerPageController extends StoreController {
  private list: HitsPerPageItem[] = [];

  /** The sizes offered. Throws a `TypeError` for a size that is not a positive integer or two defaults. */
  get items(): HitsPerPageItem[] {
    return this.list;
  }
  set items(items: HitsPerPageItem[]) {
    for (const item of items) {
      if (!Number.isInteger(item.value) || item.value < 1 || item.value > 1000) {
        throw new TypeError(
          `svc-hits-per-page: ${JSON.stringify(item.value)} is not a page size (an integer from 1 to 1000)`,
        );
      }
    }
    if (items.filter((item) => item.default).length > 1) {
      throw new TypeError('svc-hits-per-page: more than one item is marked as the default');
    }
    this.list = items;
  }

  /** The size used until the user chooses one. */
  get defaultValue(): number | undefined {
    return (this.list.find((item) => item.default) ?? this.list[0])?.value;
  }

  /** The size in effect: the state's, else the default item's. */
  get current(): number | undefined {
    return this.snapshot?.state.hitsPerPage ?? this.defaultValue;
  }

  protected override needs(): Needs | undefined {
    const hitsPerPage = this.defaultValue;
    return hitsPerPage === undefined ? undefined : { hitsPerPage };
  }

  /** Uses `hitsPerPage` from now on (back to the first page); it must be one of `items`. */
  refine(hitsPerPage: number): void {
    if (!this.list.some((item) => item.value === hitsPerPage)) {
      throw new RangeError(
        `svc-hits-per-page: ${hitsPerPage} is not one of the sizes offered (${this.list.map((item) => item.value).join(', ') || 'none given'})`,
      );
    }
    if (hitsPerPage === this.current) return;
    this.store?.setHitsPerPage(hitsPerPage === this.defaultValue ? undefined : hitsPerPage);
  }
}
