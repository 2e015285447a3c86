import { html, isServer, nothing, type TemplateResult } from 'lit';
import type { HitRef, InsightsLike } from '../../insights/types.js';
import { SvcElement } from './svc-element.js';
import { renderTemplate, templateCss } from './hit-template.js';

/** What a list item renderer (`renderHit`, `renderItem`) receives besides the hit. */
export interface ItemRenderInfo {
  /** Index within the page or answer, 0-based. */
  index: number;
  /** Absolute 1-based position (what Insights reports). */
  position: number;
  queryID?: string;
}

/** An item of a hit list: the record, its index and what Insights needs about it. */
export interface ListItem {
  hit: Record<string, unknown>;
  index: number;
  ref: HitRef;
}

type Renderer = ((hit: never, info: ItemRenderInfo) => unknown) | undefined;

/**
 * What `<svc-hits>`, `<svc-recommendations>` and `<svc-trending>` share: items rendered by a function, a
 * `<template>` child (filled by `renderTemplate` for the element's `language`, numbers included; its
 * `<style>`s applied once in the shadow root, the nodes kept per hit object so re-renders keep the same DOM)
 * or a default; each record `li` carries
 * `data-svc-object-id`, `data-svc-position`, `data-svc-query-id`, `data-svc-index` and is given to
 * `insights.observe` after each render (and `unobserve` when it goes, or on disconnect).
 */
export abstract class SvcHitList extends SvcElement {
  // A server sees no light DOM (no `<template>` child; see `templateStyle`).
  #children = isServer ? undefined : new MutationObserver(() => this.requestUpdate());
  #nodes = new WeakMap<object, [string, Node[]]>();
  #template: HTMLTemplateElement | null = null;
  #markup = '';
  #style: HTMLStyleElement | undefined;
  #refs: HitRef[] = [];
  #observed = new Map<Element, string>();
  #observing: InsightsLike | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#children?.observe(this, { childList: true, subtree: true, characterData: true, attributes: true });
    this.requestUpdate(); // observe the items again after a move
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#children?.disconnect();
    this.#unobserve();
  }

  /** Keeps `insights.observe` / `unobserve` in step with the rendered record items. */
  protected override updated(): void {
    const insights = this.insights;
    if (insights !== this.#observing) this.#unobserve();
    this.#observing = insights;
    if (!insights) return;
    const observed = new Map<Element, string>();
    this.renderRoot.querySelectorAll('li[data-svc-object-id]').forEach((li, i) => {
      const ref = this.#refs[i]!;
      const key = JSON.stringify(ref);
      // A new query gives the same item a new queryID: observe it again.
      if (this.#observed.get(li) !== key) {
        if (this.#observed.has(li)) insights.unobserve(li);
        insights.observe(li, ref);
      }
      this.#observed.delete(li);
      observed.set(li, key);
    });
    this.#unobserve();
    this.#observed = observed;
  }

  #unobserve(): void {
    for (const li of this.#observed.keys()) this.#observing?.unobserve(li);
    this.#observed.clear();
  }

  /**
   * The `<template>` child. A server render sees no light DOM: there the list renders without it (as a list
   * without template, or with `renderHit`), so a server-rendered list is given its rendering by attributes or code.
   */
  protected templateChild(): HTMLTemplateElement | null {
    return isServer ? null : this.querySelector<HTMLTemplateElement>(':scope > template');
  }

  /** Reads the `<template>` child; returns its styles as one `<style>` (render it once, first). */
  protected templateStyle(): HTMLStyleElement | typeof nothing {
    const template = this.templateChild();
    this.#template = template;
    this.#markup = template?.innerHTML ?? '';
    this.#refs = [];
    const css = templateCss(template);
    if (css && this.#style?.textContent !== css) {
      this.#style = document.createElement('style');
      this.#style.textContent = css;
    }
    return css ? this.#style! : nothing;
  }

  /** The content of one item: `render(hit, info)`, else the template filled with the hit, else `fallback()`. */
  protected itemContent({ hit, index, ref }: ListItem, render: Renderer, fallback: () => unknown): unknown {
    if (render) return render(hit as never, { index, position: ref.position, queryID: ref.queryID });
    if (!this.#template) return fallback();
    const cached = this.#nodes.get(hit);
    if (cached?.[0] === this.#markup) return cached[1];
    const nodes = renderTemplate(this.#template, hit, this.language);
    this.#nodes.set(hit, [this.#markup, nodes]);
    return nodes;
  }

  /** The `li` of a record, with the data Insights reads (and `onClick` for any click inside it). */
  protected recordItem(item: ListItem, content: unknown, onClick?: (event: Event) => unknown): TemplateResult {
    const { objectID, position, queryID, indexName } = item.ref;
    this.#refs.push(item.ref);
    return html`<li
      part="item"
      data-svc-object-id=${objectID}
      data-svc-position=${position}
      data-svc-query-id=${queryID ?? ''}
      data-svc-index=${indexName}
      @click=${onClick}
    >${content}</li>`;
  }

  /** The `ol` of the items (hidden while empty, `aria-busy` while a new answer is awaited). */
  protected list(items: unknown[], busy: boolean, label?: string): TemplateResult {
    return html`<ol
      part="list"
      aria-label=${label ?? nothing}
      aria-labelledby=${label ? nothing : 'heading'}
      aria-busy=${busy}
      ?hidden=${!items.length}
    >${items}</ol>`;
  }
}
