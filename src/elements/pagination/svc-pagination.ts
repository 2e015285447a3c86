import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { PaginationController } from '../../controllers/pagination-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { formatNumber } from '../base/translate.js';
import { styles } from './styles.js';

/** `detail` of `svc-page-change`. */
export interface SvcPageChangeEventDetail {
  /** The new page, 0-based. */
  page: number;
}

/** `show-*` attributes: present (any value but `"false"`) turns on, `"false"` turns off, absent keeps the default. */
const optionalBoolean = (value: string | null) => (value === null ? undefined : value !== 'false');

/**
 * @tagname svc-pagination
 * @summary Page links in a labelled `nav`: real links (`href` of each page's URL state, so middle-click and
 * "open in new tab" work), `aria-current="page"`, first/previous/next/last.
 *
 * A plain click changes the page without loading a new document; a click with a modifier key or the middle
 * button follows the link. Pages are 0-based in code (`goto(0)` is the first page), 1-based on screen and in
 * URLs. Nothing is rendered while there is at most one page.
 *
 * @csspart nav - The `nav` landmark.
 * @csspart list - The `ul` of links.
 * @csspart item - Each `li`.
 * @csspart link - Each link (also `first`, `previous`, `page`, `next`, `last`, and `disabled` when it leads nowhere).
 *
 * @cssproperty --svc-pagination-size - Size of each link (default `2.25rem`).
 * @cssproperty --svc-pagination-gap - Gap between links.
 * @cssproperty --svc-pagination-justify - `justify-content` of the list (default `center`).
 * @cssproperty --svc-pagination-current-color - Text colour of the current page (default the accent, on a tint of it).
 * @cssproperty --svc-accent - Background of the current page.
 * @cssproperty --svc-border-color - Border of the links.
 *
 * @event svc-page-change - The user chose a page (plain click). `detail.page` is 0-based.
 *
 * Translations: `label` ("Pagination"), `first` ("First page"), `previous` ("Previous page"), `next`
 * ("Next page"), `last` ("Last page"), `page` ("Page {page}"); the visible arrows (hidden from assistive
 * technology, which reads the labels) `firstSymbol` ("«"), `previousSymbol` ("‹"), `nextSymbol` ("›"),
 * `lastSymbol` ("»"). The default arrows are Unicode bidi-mirrored characters, so under `dir="rtl"` the
 * browser draws them pointing the other way; a replacement that is not mirrored (`←`) does not turn.
 */
export class SvcPagination extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    padding: { type: Number },
    totalPages: { type: Number, attribute: 'total-pages' },
    showFirst: { attribute: 'show-first', converter: optionalBoolean },
    showPrevious: { attribute: 'show-previous', converter: optionalBoolean },
    showNext: { attribute: 'show-next', converter: optionalBoolean },
    showLast: { attribute: 'show-last', converter: optionalBoolean },
    scrollTarget: { attribute: 'scroll-to' },
  };
  static override defaultTranslations = {
    label: 'Pagination',
    first: 'First page',
    previous: 'Previous page',
    next: 'Next page',
    last: 'Last page',
    page: 'Page {page}',
    firstSymbol: '«',
    previousSymbol: '‹',
    nextSymbol: '›',
    lastSymbol: '»',
  };

  /** Pages shown on each side of the current one (default 3). */
  padding = 3;
  /** Largest number of pages reachable (default: all). */
  declare totalPages: number | undefined;
  /** Link to the first page (default shown). */
  declare showFirst: boolean | undefined;
  /** Link to the previous page (default shown). */
  declare showPrevious: boolean | undefined;
  /** Link to the next page (default shown). */
  declare showNext: boolean | undefined;
  /** Link to the last page (default hidden: the last page of a large result set is rarely useful). */
  declare showLast: boolean | undefined;

  /**
   * Where to scroll after the user changes the page, when it is above the viewport (as InstantSearch): a CSS
   * selector, by default the enclosing `<svc-search>` (else the page top); `"false"` does not scroll.
   */
  declare scrollTarget: string | undefined;

  #pager = new PaginationController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.#pager.padding = Number.isFinite(this.padding) ? this.padding : 3;
    this.#pager.totalPages = Number.isFinite(this.totalPages) ? this.totalPages : undefined;
  }

  /** The current page (0-based). */
  get currentPage(): number {
    return this.#pager.currentPage;
  }

  /** The number of pages. */
  get nbPages(): number {
    return this.#pager.nbPages;
  }

  /** Goes to the next page. */
  next(): void {
    this.goto(this.currentPage + 1);
  }

  /** Goes to the previous page. */
  previous(): void {
    this.goto(this.currentPage - 1);
  }

  /** Goes to a page (0-based, clamped). */
  goto(page: number): void {
    this.#pager.setPage(page);
  }

  /** A link to `page`, or a disabled one (no `href`: not focusable) when it leads nowhere. */
  #link(kind: string, page: number, label: string, content: unknown, disabled = false, current = false) {
    return html`<li part="item"><a part="link ${kind}${disabled ? ' disabled' : ''}" role=${disabled ? 'link' : nothing} aria-disabled=${disabled || nothing} aria-current=${current ? 'page' : nothing} aria-label=${label} href=${disabled ? nothing : this.#pager.createURL(page)} @click=${(
      event: MouseEvent,
    ) => {
      // Let the browser follow the link for a new tab/window (modifier keys, middle button).
      if (disabled || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      if (current) return;
      this.goto(page);
      // Bring the results back into view when they are above the viewport (InstantSearch's scrollTo).
      const target = this.scrollTarget;
      const scrollTo =
        target === 'false'
          ? null
          : target
            ? document.querySelector(target)
            : (this.closest('svc-search') ?? document.body);
      if (scrollTo && scrollTo.getBoundingClientRect().top < 0) scrollTo.scrollIntoView({ block: 'start' });
      this.emit<SvcPageChangeEventDetail>('svc-page-change', { page });
    }}>${content}</a></li>`;
  }

  override render() {
    const { currentPage: current, isFirstPage, isLastPage, nbPages } = this.#pager;
    if (nbPages < 2) return nothing;
    const lang = this.language;
    // The default ‹ › « » are Unicode bidi-mirrored characters: under dir="rtl" the text engine flips them itself.
    const arrow = (kind: 'first' | 'previous' | 'next' | 'last', show: boolean, page: number, disabled: boolean) =>
      show
        ? this.#link(
            kind,
            page,
            this.t(kind),
            html`<span aria-hidden="true">${this.t(`${kind}Symbol`)}</span>`,
            disabled,
          )
        : nothing;
    return html`<nav part="nav" aria-label=${this.t('label')}><ul part="list">${arrow('first', this.showFirst ?? true, 0, isFirstPage)}${arrow(
      'previous',
      this.showPrevious ?? true,
      current - 1,
      isFirstPage,
    )}${this.#pager.pages.map((page) =>
      this.#link(
        page === current ? 'page current' : 'page',
        page,
        this.t('page', { page: page + 1 }),
        formatNumber(page + 1, lang),
        false,
        page === current,
      ),
    )}${arrow('next', this.showNext ?? true, current + 1, isLastPage)}${arrow('last', !!this.showLast, nbPages - 1, isLastPage)}</ul></nav>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-page-change': CustomEvent<SvcPageChangeEventDetail>;
  }
}
