import type { PropertyDeclarations, PropertyValues } from 'lit';
import { RecommendationsController } from '../../controllers/recommendations-controller.js';
import { SvcRecommendList } from './recommend-list.js';
import { styles } from './styles.js';

export type { RecommendRenderInfo, RecommendSelectDetail } from './recommend-list.js';

/**
 * @summary Recommendations for one record — related products or frequently bought together — from the
 * Recommend models, rendered like `<svc-hits>` and reported to Insights.
 *
 * @slot heading - The heading (default: an `h2` with "Related products" or "Frequently bought together").
 * @slot empty - Shown when the model has no recommendation for the record (default: "No recommendations yet.").
 * @slot - A `<template>` whose content is rendered for each recommended record, exactly as in `<svc-hits>`:
 * `data-text="name"`, `data-src="image"`, `data-href="url"`, `data-attr-<name>="field"` (values are set as
 * text or attributes, never parsed as HTML), `data-currency="USD"` / `data-decimals="2"` / `data-number`
 * next to `data-text` to format a number for the nearest `lang`; `data-text="_score"` shows the score. A
 * button with `data-svc-conversion="Added to cart"` sends a conversion with the recommendation's queryID (and
 * does not select the item). Give the template a link or a button (around the name, say): a click on it bubbles
 * to the item, so the keyboard can select it too (the default rendering is such a button).
 *
 * @csspart base - The `section` around everything.
 * @csspart heading - The container of the heading slot.
 * @csspart title - The default `h2`.
 * @csspart list - The `ol` of recommendations.
 * @csspart item - Each recommendation's `li` (it carries `data-svc-object-id`, `data-svc-position` (1..n),
 * `data-svc-query-id`, `data-svc-index`).
 * @csspart select - The default rendering's button (the record's name): Tab reaches it, Enter and Space select.
 * @csspart loading - The message shown until the first answer.
 * @csspart empty - The container of the empty slot.
 * @csspart error - The message shown when Recommend failed.
 *
 * @cssproperty --svc-recommendations-columns - `grid-template-columns` of the list (default: as many 12rem columns as fit).
 * @cssproperty --svc-recommendations-gap - Gap between items.
 * @cssproperty --svc-hit-padding-block - Block padding of each item.
 * @cssproperty --svc-hit-padding-inline - Inline padding of each item.
 * @cssproperty --svc-border-color - Border of each item.
 * @cssproperty --svc-radius - Corner radius.
 *
 * @event svc-recommendations-select - The user selected a recommendation: a click anywhere in it (or Enter/Space
 * on its button or link) except on a `data-svc-conversion` control; `detail: { hit, position, queryID }`.
 *
 * Each item is observed by the `<svc-search>`'s Insights: a `Hits Viewed` event when it is visible, a click
 * event with its position 1..n and the answer's queryID when it is clicked.
 *
 * Translations: `headingRelated` ("Related products"), `headingBoughtTogether` ("Frequently bought together"),
 * `loading` ("Loading recommendations…"), `empty` ("No recommendations yet."), `error` ("Recommendations are
 * unavailable right now.").
 *
 * @example
 * ```html
 * <svc-recommendations model="bought-together" object-id="FUR-CH-10000454" max-recommendations="4">
 *   <h3 slot="heading">Customers also bought</h3>
 *   <template><a data-href="url"><span data-text="name"></span></a> <span data-text="price" data-currency="USD"></span></template>
 * </svc-recommendations>
 * ```
 */
export class SvcRecommendations<
  T extends Record<string, unknown> = Record<string, unknown>,
> extends SvcRecommendList<T> {
  static override styles = styles;
  static override properties: PropertyDeclarations = { objectId: { attribute: 'object-id' } };
  static override defaultTranslations = {
    headingRelated: 'Related products',
    headingBoughtTogether: 'Frequently bought together',
    loading: 'Loading recommendations…',
    empty: 'No recommendations yet.',
    error: 'Recommendations are unavailable right now.',
  };

  /** `related-products` (default) or `bought-together`. */
  override model: 'related-products' | 'bought-together' = 'related-products';
  /** The record the recommendations are for. */
  declare objectId: string | undefined;

  protected readonly controller = new RecommendationsController<T>(this, { store: () => this.store });
  protected readonly selectEventName = 'svc-recommendations-select';

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.configure(['related-products', 'bought-together'], { objectID: this.objectId || undefined });
  }

  protected override defaultHeading(): string {
    return this.t(this.controller.model === 'bought-together' ? 'headingBoughtTogether' : 'headingRelated');
  }
}
