import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-pagination>`: the current page, the number of pages, the window of page numbers
 * around the current one, real URLs for each page, and `setPage`. Pages are 0-based, as in the store; URLs
 * and labels show them 1-based.
 *
 * @example
 * ```ts
 * class Pager extends LitElement {
 *   private pager = new PaginationController(this, { store });
 *   render() {
 *     return this.pager.pages.map((page) => html`<a href=${this.pager.createURL(page)}
 *       @click=${(e) => { e.preventDefault(); this.pager.setPage(page); }}>${page + 1}</a>`);
 *   }
 * }
 * ```
 */
export class PaginationController extends StoreController {
  /** Pages shown on each side of the current one (default 3). */
  padding = 3;
  /** Largest number of pages reachable (undefined: all the results' pages). */
  totalPages: number | undefined;

  /** The current page, 0-based (the state's page: it moves at once, before the results arrive). */
  get currentPage(): number {
    return this.store?.getSnapshot().state.page ?? this.snapshot?.state.page ?? 0;
  }

  /** Number of pages (capped by `totalPages`). */
  get nbPages(): number {
    const nbPages = this.snapshot?.results?.nbPages ?? 0;
    const total = this.totalPages ?? -1;
    return total >= 0 ? Math.min(nbPages, total) : nbPages;
  }

  get isFirstPage(): boolean {
    return this.currentPage <= 0;
  }

  get isLastPage(): boolean {
    return this.currentPage >= this.nbPages - 1;
  }

  /** The page numbers to show: `2 × padding + 1` of them around the current page, shifted at the ends (InstantSearch's window). */
  get pages(): number[] {
    const total = this.nbPages;
    const padding = Math.max(0, Math.floor(this.padding));
    const shown = Math.min(2 * padding + 1, total);
    const first = Math.max(0, Math.min(Math.min(this.currentPage, total - 1) - padding, total - shown));
    return Array.from({ length: shown }, (_, i) => first + i);
  }

  /** The URL (`?…` query string of the state) of a page, for real links. */
  createURL(page: number): string {
    return this.store?.createURL((state) => ({ ...state, page })) ?? '';
  }

  /** Goes to a page (0-based), clamped to the existing pages. */
  setPage(page: number): void {
    const target = Math.max(0, Math.min(Math.floor(page), this.nbPages - 1));
    if (target >= 0 && target !== this.currentPage) this.store?.setPage(target);
  }
}
