import { html, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { RecommendHit, SearchParams } from '../../client/types.js';
import type { RecommendItem, RecommendRequestController } from '../../controllers/recommendations-controller.js';
import { SvcHitList, type ItemRenderInfo } from '../base/hit-list.js';
import { getPath, toText } from '../base/highlight.js';

/** What `renderItem` receives besides the item. */
export type RecommendRenderInfo = ItemRenderInfo;

/** Detail of the `…-select` events: the item the user clicked. */
export interface RecommendSelectDetail<T = Record<string, unknown>> {
  hit: RecommendHit<T>;
  position: number;
  queryID?: string;
}

/** Parses a JSON attribute (`query-parameters='{"filters":"brand:Hon"}'`); invalid JSON is reported and ignored. */
export const jsonAttribute = {
  fromAttribute(value: string | null): SearchParams | undefined {
    if (!value?.trim()) return undefined;
    try {
      const parsed = JSON.parse(value) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as SearchParams;
    } catch {
      // reported below
    }
    console.warn(`svc-search: expected a JSON object of search parameters, got ${value}`);
    return undefined;
  },
  toAttribute(value: SearchParams | undefined): string | null {
    return value ? JSON.stringify(value) : null;
  },
};

/**
 * What `<svc-recommendations>` and `<svc-trending>` share: the heading slot, the loading, empty and error states,
 * the items rendered like `<svc-hits>` (a `<template>` child or `renderItem`), and Insights (each item is
 * observed with its objectID, the answer's queryID and position 1..n; clicks inside it and
 * `data-svc-conversion` buttons are reported by the `<svc-search>`'s Insights).
 */
export abstract class SvcRecommendList<T extends Record<string, unknown> = Record<string, unknown>> extends SvcHitList {
  static override properties: PropertyDeclarations = {
    model: { reflect: true },
    threshold: { type: Number },
    maxRecommendations: { attribute: 'max-recommendations', type: Number },
    indexName: { attribute: 'index-name' },
    attribute: {},
    queryParameters: { attribute: 'query-parameters', converter: jsonAttribute },
    fallbackParameters: { attribute: 'fallback-parameters', converter: jsonAttribute },
    renderItem: { attribute: false },
  };

  /** The model asked (each element documents its models and its default). */
  declare model: string;

  /**
   * Recommend answers are not part of a page's search: a server would only render the loading state (and ask
   * Recommend for nothing), so these lists are rendered in the browser.
   */
  protected override serverRenderable(): boolean {
    return false;
  }
  /** Minimum score of a recommendation, 0 to 100 (the same scale on every model). */
  threshold = 0;
  /** Most recommendations shown; 0 shows every one the model has. */
  maxRecommendations = 0;
  /** The index recommended from (default: the `<svc-search>`'s index). */
  declare indexName: string | undefined;
  /** Record field shown by the default rendering (default `name`, else the objectID). */
  declare attribute: string | undefined;
  /** Search parameters applied to the recommended records (property, or a JSON attribute). */
  declare queryParameters: SearchParams | undefined;
  /** Parameters of the search that fills up to `max-recommendations` when the model has too few. */
  declare fallbackParameters: SearchParams | undefined;
  /** Renders an item (a Lit template, a node or text); takes precedence over the `<template>` child. */
  declare renderItem: ((hit: RecommendHit<T>, info: RecommendRenderInfo) => unknown) | undefined;

  protected abstract readonly controller: RecommendRequestController<T>;

  /** The name of the event fired when the user clicks an item (`svc-recommendations-select`, `svc-trending-select`). */
  protected abstract readonly selectEventName: string;

  /** The default heading (shown unless the `heading` slot is filled). */
  protected abstract defaultHeading(): string;

  /** Passes the attributes to the controller (the model is `model` when it is one of `models`, else the first). */
  protected configure(models: string[], fields: object): void {
    Object.assign(this.controller, {
      model: models.includes(this.model) ? this.model : models[0],
      threshold: Number.isFinite(this.threshold) ? this.threshold : 0,
      maxRecommendations: Number.isFinite(this.maxRecommendations) ? this.maxRecommendations : 0,
      index: this.indexName || undefined,
      queryParameters: this.queryParameters,
      fallbackParameters: this.fallbackParameters,
      ...fields,
    });
  }

  /** The recommended records shown, with positions and the queryID. */
  get items(): Array<RecommendItem<T>> {
    return this.controller.items;
  }

  /** The queryID of the answer shown. */
  get queryID(): string | undefined {
    return this.controller.queryID;
  }

  /** The list of the answer (records by default; trending facet values override it). */
  protected renderList(): TemplateResult {
    return this.list(
      this.items.map((item) =>
        this.recordItem(
          item,
          // The default rendering is a button, so the keyboard reaches every item (Enter and Space click it).
          this.itemContent(
            item,
            this.renderItem,
            () =>
              html`<button part="select" type="button">${toText(getPath(item.hit, this.attribute || 'name')) ?? item.hit.objectID}</button>`,
          ),
          // A click anywhere in the item selects it, except on a `data-svc-conversion` control (a conversion, as for Insights).
          (event) =>
            (event.target as Element).closest('[data-svc-conversion]') ||
            this.emit<RecommendSelectDetail<T>>(this.selectEventName, {
              hit: item.hit,
              position: item.ref.position,
              queryID: item.ref.queryID,
            }),
        ),
      ),
      this.controller.isLoading,
    );
  }

  override render() {
    const { status, result } = this.controller;
    // The loading message only before a first answer; later requests dim the list (aria-busy) instead.
    const loading = status === 'loading' && !result;
    const error = status === 'error';
    return html`${this.templateStyle()}<section part="base" aria-labelledby="heading"><div part="heading" id="heading"><slot name="heading"><h2 part="title">${this.defaultHeading()}</h2></slot></div><div role="status" aria-live="polite"><p part="loading" ?hidden=${!loading}>${loading ? this.t('loading') : ''}</p><div part="empty" ?hidden=${!this.controller.isEmpty}><slot name="empty"><p>${this.t('empty')}</p></slot></div><p part="error" ?hidden=${!error}>${error ? this.t('error') : ''}</p></div>${this.renderList()}</section>`;
  }
}
