import { html, isServer, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { QueryRuleCustomDataController } from '../../controllers/query-rule-custom-data-controller.js';
import { toText } from '../base/highlight.js';
import { isSafeUrl, renderTemplate } from '../base/hit-template.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/**
 * @tagname svc-query-rule-custom-data
 * @summary Shows the custom data of the rules applied to the search (their consequence's `userData`): banners,
 * messages, promotions.
 *
 * Each item of the results' `userData` (one per rule that applied, in order) is rendered through the
 * `<template>` child — the hits' template rules: `data-text="title"`, `data-href="link"` (http(s) and relative
 * URLs only), `data-src`, `data-attr-<name>`; record values are never parsed as HTML — or through the
 * `renderItem` property (what Lit renders). Without either, an item's `title`, `text` and `link` fields are
 * shown as a simple banner. `transformItems` changes the items first. Nothing is shown while no rule applies.
 *
 * @example
 * ```html
 * <svc-query-rule-custom-data>
 *   <template>
 *     <a data-href="link"><strong data-text="title"></strong> <span data-text="text"></span></a>
 *   </template>
 * </svc-query-rule-custom-data>
 * ```
 *
 * @csspart items - The container of the items (not shown when there are none).
 * @csspart item - Each item.
 * @csspart title - The default banner's title.
 * @csspart text - The default banner's text.
 * @csspart link - The default banner's link.
 *
 * @cssproperty --svc-banner-background - Background of each item (default: the accent at 12 %).
 * @cssproperty --svc-accent - Links.
 *
 * Translations: `link` ("Learn more": the default banner's link text).
 */
export class SvcQueryRuleCustomData<T extends Record<string, unknown> = Record<string, unknown>> extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    renderItem: { attribute: false },
    transformItems: { attribute: false },
  };
  static override defaultTranslations = {
    link: 'Learn more',
  };

  /** Renders one item (text, a DOM node, a Lit template); wins over the `<template>` child. */
  declare renderItem: ((item: T, index: number) => unknown) | undefined;
  /** Changes the items before they are shown. */
  declare transformItems: ((items: T[]) => T[]) | undefined;

  #data = new QueryRuleCustomDataController<T>(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.#data.transformItems = this.transformItems;
  }

  /** The items shown. */
  get items(): T[] {
    return this.#data.items;
  }

  #renderDefault(item: T) {
    const title = toText(item.title);
    const text = toText(item.text);
    const link = toText(item.link);
    return html`
      ${title ? html`<strong part="title">${title}</strong>` : nothing}
      ${text ? html`<p part="text">${text}</p>` : nothing}
      ${link && isSafeUrl(link) ? html`<a part="link" href=${link}>${this.t('link')}</a>` : nothing}
    `;
  }

  #renderItem(item: T, index: number) {
    if (this.renderItem) return this.renderItem(item, index);
    // A server sees no `<template>` child: the default rendering there (and in the browser if it has none).
    const template = isServer ? null : this.querySelector<HTMLTemplateElement>(':scope > template');
    if (template) return renderTemplate(template, item, this.language);
    return this.#renderDefault(item);
  }

  override render() {
    const items = this.#data.items.filter((item) => item && typeof item === 'object');
    return html`<div part="items">${items.map((item, i) => html`<div part="item">${this.#renderItem(item, i)}</div>`)}</div>`;
  }
}
