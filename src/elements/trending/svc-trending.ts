import { html, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { TrendingFacetHit } from '../../client/types.js';
import { TrendingController } from '../../controllers/trending-controller.js';
import { SvcRecommendList } from '../recommendations/recommend-list.js';
import { styles } from '../recommendations/styles.js';

/** Detail of `svc-trending-facet-select`. */
export interface TrendingFacetSelectDetail {
  facetName: string;
  facetValue: string;
  position: number;
  queryID?: string;
}

/**
 * @summary What is trending: the hottest records (`model="trending-items"`, globally or within one facet value)
 * or the hottest facet values (`model="trending-facets"`, e.g. categories), from recent Insights events.
 *
 * @slot heading - The heading (default: an `h2` with "Trending now", "Trending in {facetValue}" or "Popular right now").
 * @slot empty - Shown when nothing is trending (default: "Nothing is trending yet.").
 * @slot - A `<template>` rendered for each item, exactly as in `<svc-hits>` (`data-text`, `data-src`,
 * `data-href`, `data-attr-<name>`; never parsed as HTML; numbers formatted with `data-currency`,
 * `data-decimals`, `data-number`). For trending facets its fields are `facetName`, `facetValue` and `_score`.
 * Give it a link or a button: a click on it selects the item, so the keyboard can too (the defaults are buttons).
 *
 * @csspart base - The `section` around everything.
 * @csspart heading - The container of the heading slot.
 * @csspart title - The default `h2`.
 * @csspart list - The `ol` of items.
 * @csspart item - Each item's `li` (trending items carry `data-svc-object-id`, `data-svc-position` (1..n),
 * `data-svc-query-id`, `data-svc-index`).
 * @csspart facet-item - Each trending facet value's `li` (also `item`).
 * @csspart select - The default button of a trending item (its name): Tab reaches it, Enter and Space select.
 * @csspart facet - The default button of a trending facet value (`aria-pressed` when it refines the search).
 * @csspart loading - The message shown until the first answer.
 * @csspart empty - The container of the empty slot.
 * @csspart error - The message shown when Recommend failed.
 *
 * @cssproperty --svc-recommendations-columns - `grid-template-columns` of the list.
 * @cssproperty --svc-recommendations-gap - Gap between items.
 * @cssproperty --svc-hit-padding-block - Block padding of each item.
 * @cssproperty --svc-hit-padding-inline - Inline padding of each item.
 * @cssproperty --svc-border-color - Border of each item.
 * @cssproperty --svc-radius - Corner radius.
 * @cssproperty --svc-accent - Colour of a trending facet value that refines the search.
 *
 * @event svc-trending-select - The user selected a trending item: a click anywhere in it (or Enter/Space on its
 * button or link) except on a `data-svc-conversion` control; `detail: { hit, position, queryID }`.
 * @event svc-trending-facet-select - The user clicked a trending facet value; `detail: { facetName, facetValue,
 * position, queryID }`. Cancelable: by default the value is toggled as a refinement of the search (and
 * `Filter Applied` goes to Insights); `preventDefault()` to navigate instead.
 *
 * Trending items are observed by the `<svc-search>`'s Insights like hits: views when visible, clicks with
 * positions 1..n and the answer's queryID, conversions through `data-svc-conversion`.
 *
 * Translations: `headingItems` ("Trending now"), `headingItemsIn` ("Trending in {facetValue}"), `headingFacets`
 * ("Popular right now"), `loading` ("Loading trends…"), `empty` ("Nothing is trending yet."), `error`
 * ("Trends are unavailable right now.").
 *
 * @example
 * ```html
 * <svc-trending model="trending-facets" facet-name="category" max-recommendations="5">
 *   <h2 slot="heading">Trending categories</h2>
 * </svc-trending>
 * <svc-trending facet-name="category" facet-value="Furniture" max-recommendations="4"></svc-trending>
 * ```
 */
export class SvcTrending<T extends Record<string, unknown> = Record<string, unknown>> extends SvcRecommendList<T> {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    facetName: { attribute: 'facet-name' },
    facetValue: { attribute: 'facet-value' },
  };
  static override defaultTranslations = {
    headingItems: 'Trending now',
    headingItemsIn: 'Trending in {facetValue}',
    headingFacets: 'Popular right now',
    loading: 'Loading trends…',
    empty: 'Nothing is trending yet.',
    error: 'Trends are unavailable right now.',
  };

  /** `trending-items` (default) or `trending-facets`. */
  override model: 'trending-items' | 'trending-facets' = 'trending-items';
  /** trending-facets: the facet (required); trending-items: with `facet-value`, trending within that value. */
  declare facetName: string | undefined;
  /** trending-items only: the facet value to trend within. */
  declare facetValue: string | undefined;

  protected readonly controller = new TrendingController<T>(this, { store: () => this.store });
  protected readonly selectEventName = 'svc-trending-select';
  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.configure(['trending-items', 'trending-facets'], {
      facetName: this.facetName || undefined,
      facetValue: this.facetValue || undefined,
    });
  }

  #facets(): boolean {
    return this.controller.model === 'trending-facets';
  }

  protected override defaultHeading(): string {
    const { facetName, facetValue } = this;
    return this.#facets()
      ? this.t('headingFacets')
      : facetName && facetValue
        ? this.t('headingItemsIn', { facetValue })
        : this.t('headingItems');
  }

  /** trending-facets: the facet values shown, hottest first. */
  get facets(): TrendingFacetHit[] {
    return this.controller.facets;
  }

  protected override renderList(): TemplateResult {
    if (!this.#facets()) return super.renderList();
    const controller = this.controller;
    const queryID = controller.queryID;
    const facets = this.facets;
    return this.list(
      facets.map((facet, index) => {
        const { facetName, facetValue } = facet;
        const position = index + 1;
        const select = () =>
          this.emit<TrendingFacetSelectDetail>(
            'svc-trending-facet-select',
            { facetName, facetValue, position, queryID },
            true,
          ) && controller.refine(facetValue, this.insights);
        const content = this.itemContent(
          {
            hit: facet as unknown as Record<string, unknown>,
            index,
            ref: { objectID: '', position, queryID, indexName: '' },
          },
          this.renderItem,
          () =>
            html`<button part="facet" type="button" aria-pressed=${controller.isRefined(facetValue)} @click=${select}>${facetValue}</button>`,
        );
        // A template's content is clickable as a whole; a renderItem handles its own clicks.
        return html`<li part="item facet-item" data-svc-facet-value=${facetValue}>${this.renderItem || !this.templateChild() ? content : html`<div @click=${select}>${content}</div>`}</li>`;
      }),
      controller.isLoading,
    );
  }
}
