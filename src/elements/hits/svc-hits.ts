import { html, nothing, type PropertyDeclarations } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Hit } from '../../client/types.js';
import { HitsController, type HitItem } from '../../controllers/hits-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { defaultAttribute, highlightedValue, renderHighlight } from '../base/highlight.js';
import { TemplateCache, templateStyles } from '../base/hit-template.js';
import { ObservedHits } from '../base/observed-hits.js';
import { styles } from './styles.js';

/** What `renderHit` receives besides the hit. */
export interface HitRenderInfo {
  /** Index within the page, 0-based. */
  index: number;
  /** Absolute 1-based position in the results. */
  position: number;
  queryID?: string;
}

/**
 * @tagname svc-hits
 * @summary The hits of the current page, one list item per hit: the highlighted name by default, your markup
 * through a `<template>` child, or your code through `renderHit`.
 *
 * @slot - A `<template>` whose content is rendered for each hit. Its elements name the fields they show:
 * `<svc-highlight attribute="name">`, `<svc-snippet attribute="description">`, `data-text="brand"` (text),
 * `data-src="image"`, `data-href="url"` (http(s) and relative URLs only), `data-attr-alt="name"` (any
 * attribute but `on…`/`style`). Values are always set as text or attributes, never parsed as HTML. Give an
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
export class SvcHits<T extends Record<string, unknown> = Record<string, unknown>> extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: {},
    renderHit: { attribute: false },
  };
  static override defaultTranslations = {
    listLabel: 'Search results',
    noResults: 'No results for “{query}”.',
    noResultsNoQuery: 'No results.',
    error: 'The search is unavailable right now. Please try again.',
  };

  /** Attribute shown highlighted by default (default: the first highlighted attribute of each hit). */
  declare attribute: string | undefined;
  /** Renders a hit (a Lit template, a node or text); takes precedence over the `<template>` child. */
  declare renderHit: ((hit: Hit<T>, info: HitRenderInfo) => unknown) | undefined;

  private readonly results = new HitsController<T>(this, { store: () => this.store });
  private readonly templates = new TemplateCache();
  private readonly observed = new ObservedHits();
  private readonly childObserver = new MutationObserver(() => this.requestUpdate());
  private styleElement: HTMLStyleElement | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.childObserver.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
    this.requestUpdate(); // re-observe the items after a move
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.childObserver.disconnect();
    this.observed.clear();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const snippets = this.template()?.content.querySelectorAll('svc-snippet[attribute]') ?? [];
    this.results.attributesToSnippet = [...snippets].map(
      (snippet) => `${snippet.getAttribute('attribute')}:${Number(snippet.getAttribute('words')) || 10}`,
    );
  }

  protected override updated(): void {
    this.observed.sync(this.insights, this.renderRoot.querySelectorAll('li[data-svc-object-id]'));
  }

  /** The hits of the current page. */
  get hits(): Array<Hit<T>> {
    return this.results.hits;
  }

  private template(): HTMLTemplateElement | null {
    return this.querySelector(':scope > template');
  }

  private templateStyle(template: HTMLTemplateElement | null) {
    const css = templateStyles(template);
    if (!css) return nothing;
    if (this.styleElement?.textContent !== css) {
      this.styleElement = document.createElement('style');
      this.styleElement.textContent = css;
    }
    return this.styleElement;
  }

  private renderItem({ hit, index, ref }: HitItem<T>, template: HTMLTemplateElement | null) {
    if (this.renderHit) return this.renderHit(hit, { index, position: ref.position, queryID: ref.queryID });
    if (template) return this.templates.render(template, hit);
    return renderHighlight(highlightedValue(hit, this.attribute || defaultAttribute(hit)));
  }

  private renderStatus() {
    if (this.results.error) return html`<p part="error">${this.t('error')}</p>`;
    if (!this.results.isEmpty) return nothing;
    const query = this.results.query;
    return html`<p part="empty">${query ? this.t('noResults', { query }) : this.t('noResultsNoQuery')}</p>`;
  }

  override render() {
    const template = this.template();
    const items = this.results.items;
    return html`${this.templateStyle(template)}
      <div role="status" aria-live="polite">${this.renderStatus()}</div>
      <ol part="list" aria-label=${this.t('listLabel')} aria-busy=${this.results.isLoading} ?hidden=${!items.length}>
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
            >${this.renderItem(item, template)}</li>`,
        )}
      </ol>`;
  }
}
