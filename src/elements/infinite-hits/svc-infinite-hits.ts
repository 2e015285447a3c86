import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Hit } from '../../client/types.js';
import { InfiniteHitsController } from '../../controllers/infinite-hits-controller.js';
import { attributeList, hitAttributes } from '../base/hit-fields.js';
import { SvcHitList, type ItemRenderInfo } from '../base/hit-list.js';
import { defaultAttribute, highlightedValue, renderHighlight } from '../base/highlight.js';
import { SvcHits } from '../hits/svc-hits.js';
import { styles } from './styles.js';

/** What `renderHit` receives besides the hit. */
export type InfiniteHitRenderInfo = ItemRenderInfo;

/** `detail` of `svc-show-more`. */
export interface SvcShowMoreEventDetail {
  /** The page asked for (0-based). */
  page: number;
  /** `more`: the page after the last one shown; `previous`: the page before the first one. */
  direction: 'more' | 'previous';
}

/**
 * "Show more results" comes after the list; "Show previous results" before it when the list begins after
 * the first page (e.g. on arrival from a URL with a page). The list starts over when the query, a
 * refinement, the index (sort) or the page size changes. The store's page is the page last loaded, so with
 * `routing` the URL brings the reader back to it. After either button the focus moves to the first hit just
 * loaded — the keyboard and screen-reader user carries on reading from there, as a sighted user does —
 * unless the focus was taken elsewhere in the meantime; the button stays `aria-disabled` while its page
 * loads. Insights like `<svc-hits>`: each hit carries its own page's queryID and its absolute position
 * (`page × hitsPerPage + index + 1`) for `Hits Viewed` and `Hit Clicked`.
 *
 * Translations: `listLabel` ("Search results"), `noResults` ("No results for “{query}”."),
 * `noResultsNoQuery` ("No results."), `error` ("The search is unavailable right now. Please try again."),
 * `showMore` ("Show more results"), `showPrevious` ("Show previous results").
 *
 * @tagname svc-infinite-hits
 * @summary The hits of every page shown so far, with "Show more results" (and "Show previous results")
 * buttons, rendered like `<svc-hits>`.
 *
 * @example
 * ```html
 * <svc-infinite-hits>
 *   <template><svc-highlight attribute="name"></svc-highlight> <span data-text="price" data-currency="USD"></span></template>
 * </svc-infinite-hits>
 * ```
 *
 * @slot - A `<template>` rendered for each hit, exactly as in `<svc-hits>` (`<svc-highlight>`, `<svc-snippet>`,
 * `data-text`, `data-src`, `data-href`, `data-attr-*`, `data-currency` / `data-decimals` / `data-number`,
 * `data-svc-conversion`); record values are set as text or attributes, never parsed as HTML.
 *
 * @csspart list - The `ol` of hits.
 * @csspart item - Each hit's `li` (it carries `data-svc-object-id`, `data-svc-position`, `data-svc-query-id`, `data-svc-index`).
 * @csspart highlighted - The `mark` around matched words in the default rendering.
 * @csspart show-more - The "Show more results" button (hidden after the last page).
 * @csspart show-previous - The "Show previous results" button (hidden when the first page is shown).
 * @csspart empty - The "no results" message.
 * @csspart error - The message shown when the search failed.
 *
 * @cssproperty --svc-infinite-hits-columns - `grid-template-columns` of the list (default: `--svc-hits-columns`, else `1fr`).
 * @cssproperty --svc-infinite-hits-gap - Gap between hits and around the buttons (default: `--svc-hits-gap`, else `--svc-gap`).
 * @cssproperty --svc-hit-padding-block - Block padding of each hit.
 * @cssproperty --svc-hit-padding-inline - Inline padding of each hit.
 * @cssproperty --svc-button-background - Background of the buttons (default transparent).
 * @cssproperty --svc-border-color - Border of each hit and of the buttons.
 * @cssproperty --svc-radius - Corner radius.
 * @cssproperty --svc-accent - Background tint of matches, focus ring, button hover.
 *
 * @event {CustomEvent<SvcShowMoreEventDetail>} svc-show-more - The user asked for another page. `detail: { page, direction }` (`more` or `previous`).
 */
export class SvcInfiniteHits<T extends Record<string, unknown> = Record<string, unknown>> extends SvcHitList {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: {},
    attributesToRetrieve: { attribute: 'attributes-to-retrieve', converter: attributeList },
    renderHit: { attribute: false },
  };
  static override defaultTranslations = {
    ...SvcHits.defaultTranslations, // the list, empty and error strings of <svc-hits>, defined once
    showMore: 'Show more results',
    showPrevious: 'Show previous results',
  };

  /** Attribute shown highlighted by default (default: the first highlighted attribute of each hit). */
  declare attribute: string | undefined;
  /**
   * Hit attributes asked for besides those the rendering shows (for code reading `hits`); `*` asks for
   * everything the index returns. Without it the list asks for what its `<template>` names, or the highlighted
   * attribute of the default rendering; with `renderHit`, for everything (or for these only).
   */
  declare attributesToRetrieve: string[] | undefined;
  /** Renders a hit (a Lit template, a node or text); takes precedence over the `<template>` child. */
  declare renderHit: ((hit: Hit<T>, info: InfiniteHitRenderInfo) => unknown) | undefined;

  #results = new InfiniteHitsController<T>(this, { store: () => this.store });
  /** The page asked for by a button, until its first hit has the focus. */
  #pending: SvcShowMoreEventDetail | undefined;
  /** Index in the list of the first hit of the pending page once it is rendered (-1 before). */
  #focusIndex = -1;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // Only what the rendering shows is asked for (snippets of the template's `<svc-snippet>`s included).
    Object.assign(
      this.#results,
      hitAttributes({
        template: this.templateChild(),
        attribute: this.attribute,
        custom: Boolean(this.renderHit),
        explicit: this.attributesToRetrieve,
      }),
    );
  }

  protected override updated(): void {
    super.updated();
    if (!this.#pending) return;
    // Its first hit is not rendered: wait while a search runs; else the page will not come (an error, a new query).
    if (this.#focusIndex < 0) {
      if (!this.#results.isLoading) this.#pending = undefined;
      return;
    }
    this.#pending = undefined;
    const item = this.renderRoot.querySelectorAll<HTMLElement>('li[part~="item"]')[this.#focusIndex];
    // Only when the focus is still on the button pressed (or was lost with it): never take it from elsewhere.
    const active = this.shadowRoot!.activeElement;
    const outside = (this.getRootNode() as Document | ShadowRoot).activeElement;
    const ours = active
      ? active.matches('[part~="show-more"],[part~="show-previous"]')
      : !outside || outside === document.body;
    if (item && ours) {
      item.tabIndex = -1; // focusable by script only: Tab still goes from link to link
      item.focus();
    }
  }

  /** Every hit of the pages shown, in order. */
  get hits(): Array<Hit<T>> {
    return this.#results.hits;
  }

  /** Shows the page after the last one shown (as the button does, without the event); returns it, undefined after the last page. */
  showMore(): number | undefined {
    return this.#results.showMore();
  }

  /** Shows the page before the first one shown (as the button does, without the event); returns it, undefined from the first page. */
  showPrevious(): number | undefined {
    return this.#results.showPrevious();
  }

  #ask(direction: SvcShowMoreEventDetail['direction']): void {
    if (this.#pending && this.#results.isLoading) return; // that page is on its way
    const page = direction === 'more' ? this.#results.showMore() : this.#results.showPrevious();
    if (page === undefined) return;
    this.#pending = { page, direction };
    this.#focusIndex = -1;
    this.emit<SvcShowMoreEventDetail>('svc-show-more', { page, direction });
  }

  override render() {
    const results = this.#results;
    const query = results.query;
    const items = results.items;
    const pending = this.#pending;
    if (pending) this.#focusIndex = items.findIndex((item) => item.page === pending.page);
    const button = (direction: SvcShowMoreEventDetail['direction'], shown: boolean) =>
      html`<button
        part="show-${direction}"
        type="button"
        aria-disabled=${pending?.direction === direction && results.isLoading ? 'true' : nothing}
        ?hidden=${!shown}
        @click=${() => this.#ask(direction)}
      >
        ${this.t(direction === 'more' ? 'showMore' : 'showPrevious')}
      </button>`;
    return html`${this.templateStyle()}<div role="status" aria-live="polite">${
      results.error
        ? html`<p part="error">${this.t('error')}</p>`
        : results.isEmpty
          ? html`<p part="empty">${query ? this.t('noResults', { query }) : this.t('noResultsNoQuery')}</p>`
          : nothing
    }</div>${button('previous', results.canShowPrevious)}${this.list(
      items.map((item) =>
        this.recordItem(
          item,
          this.itemContent(item, this.renderHit, () =>
            renderHighlight(highlightedValue(item.hit, this.attribute || defaultAttribute(item.hit))),
          ),
        ),
      ),
      results.isLoading,
      this.t('listLabel'),
    )}${button('more', results.canShowMore)}`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-show-more': CustomEvent<SvcShowMoreEventDetail>;
  }
}
