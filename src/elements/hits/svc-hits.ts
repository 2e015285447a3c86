import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Hit } from '../../client/types.js';
import { HitsController } from '../../controllers/hits-controller.js';
import { attributeList, hitAttributes } from '../base/hit-fields.js';
import { SvcHitList, type ItemRenderInfo } from '../base/hit-list.js';
import { defaultAttribute, highlightedValue, renderHighlight } from '../base/highlight.js';
import { clearPrepainted, isPrepainted } from '../../prepaint/takeover.js';
import { styles } from './styles.js';

/** What `renderHit` receives besides the hit. */
export type HitRenderInfo = ItemRenderInfo;

/**
 * @tagname svc-hits
 * @summary The hits of the current page, one list item per hit: the highlighted name by default, your markup
 * through a `<template>` child, or your code through `renderHit`.
 *
 * @slot - A `<template>` whose content is rendered for each hit. Its elements name the fields they show:
 * `<svc-highlight attribute="name">`, `<svc-snippet attribute="description">`, `data-text="brand"` (text),
 * `data-src="image"`, `data-href="url"` (http(s) and relative URLs only), `data-attr-alt="name"` (any
 * attribute but `on…`/`style`). Values are always set as text or attributes, never parsed as HTML. A number
 * shown by `data-text` is formatted for the nearest `lang` when its element also has `data-currency="USD"`
 * (ISO 4217 code: `$58.10`, `58,10 $` in German), `data-decimals="2"` (fraction digits, 0–20, with or
 * without a currency) or `data-number` (digit grouping: `1,234.5`); an invalid code or count shows the raw
 * value and warns once in the console; other values (strings too) are shown as they are. Give an
 * element `part="…"` to style it from the page (`svc-hits::part(…)`), or put a `<style>` in the template.
 * Add `data-svc-conversion="Added to cart"` to a button to send a conversion when it is clicked.
 *
 * @csspart list - The `ol` of hits.
 * @csspart item - Each hit's `li` (it carries `data-svc-object-id`, `data-svc-position`, `data-svc-query-id`, `data-svc-index`).
 * @csspart highlighted - The `mark` around matched words in the default rendering.
 * @csspart empty - The "no results" message.
 * @csspart error - The message shown when the search failed.
 *
 * @cssproperty --svc-hits-columns - `grid-template-columns` of the list (default `1fr`).
 * @cssproperty --svc-hits-gap - Gap between hits.
 * @cssproperty --svc-hit-padding-block - Block padding of each hit.
 * @cssproperty --svc-hit-padding-inline - Inline padding of each hit.
 * @cssproperty --svc-border-color - Border of each hit (default: the text colour at 22 %).
 * @cssproperty --svc-radius - Corner radius.
 * @cssproperty --svc-accent - Background tint of matches.
 *
 * Translations: `listLabel` ("Search results"), `noResults` ("No results for “{query}”."), `noResultsNoQuery`
 * ("No results."), `error` ("The search is unavailable right now. Please try again.").
 */
export class SvcHits<T extends Record<string, unknown> = Record<string, unknown>> extends SvcHitList {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: {},
    attributesToRetrieve: { attribute: 'attributes-to-retrieve', converter: attributeList },
    renderHit: { attribute: false },
  };
  // Written out for the element reference (docs/elements.md is generated from it); the first-paint script's copy
  // (translations.ts) is checked equal by test/prepaint/page.browser.test.ts.
  static override defaultTranslations = {
    listLabel: 'Search results',
    noResults: 'No results for “{query}”.',
    noResultsNoQuery: 'No results.',
    error: 'The search is unavailable right now. Please try again.',
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
  declare renderHit: ((hit: Hit<T>, info: HitRenderInfo) => unknown) | undefined;

  #results = new HitsController<T>(this, { store: () => this.store });

  /**
   * Hits painted before the element was defined (src/prepaint) stay until there is something to render in their
   * place: the first render with results (or an error) replaces them in one task, with the same markup and styles.
   * Meanwhile the list still asks the store for what it shows (its needs are in the store's first search).
   */
  protected override shouldUpdate(changed: PropertyValues): boolean {
    if (isPrepainted(this.shadowRoot)) {
      this.#askForShownFields();
      this.#results.sync();
      const results = this.#results;
      if (!(results.items.length > 0 || results.isEmpty || results.error !== null)) return false;
    }
    return super.shouldUpdate(changed);
  }

  protected override update(changed: PropertyValues): void {
    if (isPrepainted(this.shadowRoot)) {
      clearPrepainted(this.shadowRoot!);
      // Lit renders before the first node it found in the shadow root (`renderBefore`): a painted node, now gone.
      this.renderOptions.renderBefore = null;
    }
    super.update(changed);
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.#askForShownFields();
  }

  /** Only what the rendering shows is asked for (snippets of the template's `<svc-snippet>`s included). */
  #askForShownFields(): void {
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

  /** The hits of the current page. */
  get hits(): Array<Hit<T>> {
    return this.#results.hits;
  }

  override render() {
    const results = this.#results;
    const query = results.query;
    return html`${this.templateStyle()}<div role="status" aria-live="polite">${
      results.error
        ? html`<p part="error">${this.t('error')}</p>`
        : results.isEmpty
          ? html`<p part="empty">${query ? this.t('noResults', { query }) : this.t('noResultsNoQuery')}</p>`
          : nothing
    }</div>${this.list(
      results.items.map((item) =>
        this.recordItem(
          item,
          this.itemContent(item, this.renderHit, () =>
            renderHighlight(highlightedValue(item.hit, this.attribute || defaultAttribute(item.hit))),
          ),
        ),
      ),
      results.isLoading,
      this.t('listLabel'),
    )}`;
  }
}
