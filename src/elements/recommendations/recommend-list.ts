import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { RecommendHit, SearchParams } from '../../client/types.js';
import type { RecommendItem, RecommendRequestController } from '../../controllers/recommendations-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { fieldText, TemplateCache, templateStyles } from '../base/hit-template.js';
import { ObservedHits } from '../base/observed-hits.js';

/** What `renderItem` receives besides the item. */
export interface RecommendRenderInfo {
  /** 0-based index in the answer. */
  index: number;
  /** 1-based position (what Insights reports). */
  position: number;
  /** The answer's queryID. */
  queryID?: string;
}

/** Detail of the `…-select` events: the item the user clicked. */
export interface RecommendSelectDetail<T = Record<string, unknown>> {
  hit: RecommendHit<T>;
  position: number;
  queryID?: string;
}

/** Parses a JSON attribute (`query-parameters='{"filters":"brand:Hon"}'`); invalid JSON is reported and ignored. */
export const jsonAttribute = {
  fromAttribute(value: string | null): SearchParams | undefined {
    if (value === null || value.trim() === '') return undefined;
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
export abstract class SvcRecommendList<T extends Record<string, unknown> = Record<string, unknown>> extends SvcElement {
  static override properties: PropertyDeclarations = {
    threshold: { type: Number },
    maxRecommendations: { attribute: 'max-recommendations', type: Number },
    indexName: { attribute: 'index-name' },
    attribute: {},
    queryParameters: { attribute: 'query-parameters', converter: jsonAttribute },
    fallbackParameters: { attribute: 'fallback-parameters', converter: jsonAttribute },
    renderItem: { attribute: false },
  };

  /** Minimum score of a recommendation, 0 to 100 (the same scale on every model). */
  declare threshold: number;
  /** Most recommendations shown; 0 shows every one the model has. */
  declare maxRecommendations: number;
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
  private readonly templates = new TemplateCache();
  private readonly observed = new ObservedHits();
  private readonly childObserver = new MutationObserver(() => this.requestUpdate());
  private styleElement: HTMLStyleElement | undefined;

  constructor() {
    super();
    this.threshold = 0;
    this.maxRecommendations = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.childObserver.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.childObserver.disconnect();
    this.observed.clear();
  }

  protected override updated(): void {
    this.observed.sync(this.insights, this.renderRoot.querySelectorAll('li[data-svc-object-id]'));
  }

  /** The name of the event fired when the user clicks an item (`svc-recommendations-select`, `svc-trending-select`). */
  protected abstract get selectEventName(): string;

  /** The default heading (shown unless the `heading` slot is filled). */
  protected abstract defaultHeading(): string;

  /** The recommended records shown, with positions and the queryID. */
  get items(): Array<RecommendItem<T>> {
    return this.controller.items;
  }

  /** The queryID of the answer shown. */
  get queryID(): string | undefined {
    return this.controller.queryID;
  }

  protected template(): HTMLTemplateElement | null {
    return this.querySelector(':scope > template');
  }

  protected templateStyle(template: HTMLTemplateElement | null) {
    const css = templateStyles(template);
    if (!css) return nothing;
    if (this.styleElement?.textContent !== css) {
      this.styleElement = document.createElement('style');
      this.styleElement.textContent = css;
    }
    return this.styleElement;
  }

  protected renderRecord({ hit, index, ref }: RecommendItem<T>, template: HTMLTemplateElement | null): unknown {
    if (this.renderItem) return this.renderItem(hit, { index, position: ref.position, queryID: ref.queryID });
    if (template) return this.templates.render(template, hit);
    return fieldText(hit, this.attribute || 'name') ?? hit.objectID;
  }

  protected renderTemplateFor(template: HTMLTemplateElement, value: Record<string, unknown>): Node[] {
    return this.templates.render(template, value);
  }

  private select(item: RecommendItem<T>): void {
    this.dispatchEvent(
      new CustomEvent<RecommendSelectDetail<T>>(this.selectEventName, {
        detail: { hit: item.hit, position: item.ref.position, queryID: item.ref.queryID },
        bubbles: true,
        composed: true,
      }),
    );
  }

  protected renderRecords(template: HTMLTemplateElement | null): TemplateResult {
    const items = this.items;
    return html`<ol part="list" aria-labelledby="heading" aria-busy=${this.controller.isLoading} ?hidden=${!items.length}>
      ${repeat(
        items,
        (item) => item.hit.objectID,
        (item) =>
          html`<li
            part="item"
            data-svc-object-id=${item.ref.objectID}
            data-svc-position=${item.ref.position}
            data-svc-query-id=${item.ref.queryID ?? ''}
            data-svc-index=${item.ref.indexName}
            @click=${() => this.select(item)}
          >${this.renderRecord(item, template)}</li>`,
      )}
    </ol>`;
  }

  /** The list of the answer (records by default; trending facet values override it). */
  protected renderList(template: HTMLTemplateElement | null): TemplateResult {
    return this.renderRecords(template);
  }

  /** True when there is nothing to show and nothing is loading. */
  protected get isEmpty(): boolean {
    return this.controller.isEmpty;
  }

  override render() {
    const template = this.template();
    const { status } = this.controller;
    // The loading message only before a first answer; later requests dim the list (aria-busy) instead.
    const loading = status === 'loading' && !this.controller.result;
    return html`${this.templateStyle(template)}
      <section part="base" aria-labelledby="heading">
        <div part="heading" id="heading"><slot name="heading"><h2 part="title">${this.defaultHeading()}</h2></slot></div>
        <div role="status" aria-live="polite">
          <p part="loading" ?hidden=${!loading}>${loading ? this.t('loading') : ''}</p>
          <div part="empty" ?hidden=${!this.isEmpty}><slot name="empty"><p>${this.t('empty')}</p></slot></div>
          <p part="error" ?hidden=${status !== 'error'}>${status === 'error' ? this.t('error') : ''}</p>
        </div>
        ${this.renderList(template)}
      </section>`;
  }
}
