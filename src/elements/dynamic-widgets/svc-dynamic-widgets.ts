import { html, isServer, type PropertyDeclarations, type PropertyValues, ReactiveElement } from 'lit';
import { DynamicWidgetsController } from '../../controllers/dynamic-widgets-controller.js';
import { renderTemplate } from '../base/hit-template.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** The slot name of the child facet element at `index`. */
const slotName = (index: number) => `svc-facet-${index}`;

/**
 * The facet attribute of a child: its own `attribute` (or the first of `attributes`, for a hierarchical
 * menu), else that of the first facet element inside it (a `<svc-panel>`, a `<section>` around a list).
 */
function attributeOf(element: Element): string | undefined {
  const own = element.getAttribute('attribute') ?? element.getAttribute('attributes')?.split(',')[0]?.trim();
  if (own) return own;
  const inner = element.querySelector('[attribute], [attributes]');
  return inner ? attributeOf(inner) : undefined;
}

/** Set on a child left out (its elements add no queries): for the change, and for a page's styles or tests. */
const WITHHELD_ATTRIBUTE = 'data-svc-withheld';

/**
 * Marks `element` as left out (or not): when that changes, the elements in it (itself included) withhold their
 * queries, or add them again (`NeedsGate` in controllers/store-controller.ts), at their update.
 */
function withhold(element: Element, left: boolean): void {
  if (element.hasAttribute(WITHHELD_ATTRIBUTE) === left) return;
  element.toggleAttribute(WITHHELD_ATTRIBUTE, left);
  for (const inner of [element, ...element.querySelectorAll('*')]) {
    if (!(inner instanceof ReactiveElement)) continue;
    (inner as ReactiveElement & { withholdNeeds?: boolean }).withholdNeeds = left;
    inner.requestUpdate();
  }
}

/**
 * @tagname svc-dynamic-widgets
 * @summary Shows its facet elements in the order the results ask for (`renderingContent.facetOrdering`), hides
 * those not asked for, and renders a fallback `<template>` for facets without an element.
 *
 * The order comes from the index settings or a rule (`renderingContent`, which the service returns with each
 * answer — an extension beyond the API documents, as the hosted API has it), so a merchandiser reorders the
 * facets per query without touching the page. Each child element is a facet by its `attribute` (or the first of
 * its `attributes`, or those of the facet element inside it: a `<svc-panel>` around a list). The children are
 * assigned to slots rendered in that order — the page's DOM is not moved, the reading and Tab order follow the
 * order shown — and the children of facets not in the order are not shown. For a facet in the order with no
 * child, the `<template>` child is rendered with `{ attribute }` as its record (`data-text="attribute"`,
 * `data-attr-attribute="attribute"` on a facet element: the hits' template rules, values as text only); without
 * a template such facets are skipped. Nothing is shown before the first results; without a facet order in them,
 * nothing either, unless `show-all-without-ordering`. Every child's facet is asked in every search, shown or not, so
 * the answer that brings an order has the values of whichever facets it shows (no second search); once results have
 * come, a child not shown adds no queries of its own (a refined hierarchical menu's levels, a numeric menu's counts)
 * until an order shows it. A facet without a child is asked once an order has shown it (its template-made element is
 * kept, left out while not shown): the first order that shows it costs a second search.
 *
 * @example
 * ```html
 * <svc-dynamic-widgets>
 *   <svc-refinement-list attribute="brand"></svc-refinement-list>
 *   <svc-range-slider attribute="price"></svc-range-slider>
 *   <template>
 *     <svc-panel data-attr-header="attribute"><svc-refinement-list data-attr-attribute="attribute"></svc-refinement-list></svc-panel>
 *   </template>
 * </svc-dynamic-widgets>
 * ```
 *
 * @slot - The facet elements (each is given a `slot` of its own: do not set one).
 *
 * @cssproperty --svc-dynamic-widgets-gap - Space between the facets shown (default `1.25rem`).
 */
export class SvcDynamicWidgets extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    maxFacets: { type: Number, attribute: 'max-facets' },
    showAllWithoutOrdering: { type: Boolean, attribute: 'show-all-without-ordering' },
  };

  /** Most facets shown (default: all). */
  declare maxFacets: number | undefined;
  /** Without a facet order in the results, show every child facet in its order. */
  showAllWithoutOrdering = false;

  #dynamic = new DynamicWidgetsController(this, { store: () => this.store });
  /** The fallback elements rendered from the template, by attribute. */
  #fallbacks = new Map<string, HTMLElement>();
  readonly #observer = isServer ? undefined : new MutationObserver(() => this.requestUpdate());

  /** It orders its child facets: rendered in the browser only (a server sees no children). */
  protected override serverRenderable(): boolean {
    return false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer?.observe(this, { childList: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
  }

  /** The facets shown, in order. */
  get attributesToRender(): string[] {
    return this.#dynamic.attributesToRender;
  }

  /** The child facet elements (the fallbacks left out) and their attributes. */
  #facets(): Array<{ element: Element; attribute: string }> {
    return [...this.children]
      .filter((element) => element.localName !== 'template' && !element.hasAttribute('data-svc-fallback'))
      .flatMap((element) => {
        const attribute = attributeOf(element);
        return attribute ? [{ element, attribute }] : [];
      });
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const facets = this.#facets();
    this.#dynamic.attributes = facets.map((facet) => facet.attribute);
    this.#dynamic.maxFacets = this.maxFacets && this.maxFacets > 0 ? this.maxFacets : Number.POSITIVE_INFINITY;
    this.#dynamic.showAllWithoutOrdering = this.showAllWithoutOrdering;
    // The order comes with the answer (`renderingContent`), so the facets a later order shows must already be asked
    // in its request: every child keeps asking for its facet, shown or not, and the answer that shows it has its
    // values — no second search (InstantSearch's dynamic widgets ask `facets: ['*']` of every search for that
    // reason). A facet left out once results have come without it adds no queries of its own (they are needed only
    // to show it): an order showing a refined hierarchical menu or a numeric menu with counts searches again.
    const shown = this.#dynamic.snapshot?.results ? this.#dynamic.attributesToRender : undefined;
    facets.forEach((facet, index) => {
      if (facet.element.getAttribute('slot') !== slotName(index)) facet.element.setAttribute('slot', slotName(index));
      withhold(facet.element, shown !== undefined && !shown.includes(facet.attribute));
    });
    this.#syncFallbacks(new Set(facets.map((facet) => facet.attribute)));
  }

  /**
   * Renders the template for the facets in the order without a child. One an order no longer shows is kept, left
   * out as a child is (its facet still asked, so an order showing it again needs no second search); it is removed
   * once a child has its attribute, or without a template.
   */
  #syncFallbacks(withElement: Set<string>): void {
    const template = this.querySelector<HTMLTemplateElement>(':scope > template');
    const wanted = template ? this.#dynamic.attributesToRender.filter((attribute) => !withElement.has(attribute)) : [];
    for (const [attribute, element] of this.#fallbacks) {
      if (withElement.has(attribute) || !template) {
        element.remove();
        this.#fallbacks.delete(attribute);
      }
    }
    for (const attribute of wanted) {
      if (this.#fallbacks.has(attribute) || !template) continue;
      const holder = document.createElement('div');
      holder.setAttribute('data-svc-fallback', attribute);
      holder.style.display = 'contents';
      holder.append(...renderTemplate(template, { attribute }, this.language));
      this.append(holder);
      this.#fallbacks.set(attribute, holder);
    }
    for (const [attribute, holder] of this.#fallbacks) {
      holder.setAttribute('slot', `svc-fallback-${attribute}`);
      withhold(holder, !wanted.includes(attribute));
    }
  }

  override render() {
    const facets = this.#facets();
    const slots = this.#dynamic.attributesToRender.flatMap((attribute) => {
      const index = facets.findIndex((facet) => facet.attribute === attribute);
      if (index >= 0) return [slotName(index)];
      return this.#fallbacks.has(attribute) ? [`svc-fallback-${attribute}`] : [];
    });
    return html`${slots.map((name) => html`<slot name=${name}></slot>`)}`;
  }
}
