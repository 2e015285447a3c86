import type { PropertyDeclarations, PropertyValues } from 'lit';
import type { Hit } from '../../client/types.js';
import { SvcElement } from '../base/svc-element.js';
import { highlightedValue, renderHighlight } from '../base/highlight.js';
import { clearPrepainted, isPrepainted } from '../../prepaint/takeover.js';
import { styles } from './styles.js';

/**
 * @tagname svc-highlight
 * @summary One attribute of a hit with the matched words marked: `_highlightResult` rendered as text with
 * `<mark part="highlighted">` — never as HTML.
 *
 * Inside a `<svc-hits>` `<template>` it receives its hit automatically; elsewhere set the `hit` property.
 * Array attributes are joined with `separator`. Without a highlight result the raw value is shown as text.
 *
 * @csspart highlighted - Each `mark` around a matched part.
 *
 * @cssproperty --svc-highlight-background - Background of matches (default: the accent at 22 %).
 * @cssproperty --svc-highlight-color - Text colour of matches (default: inherited).
 * @cssproperty --svc-highlight-font-weight - Weight of matches (default 600).
 */
export class SvcHighlight extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    separator: {},
    hit: { attribute: false },
  };
  protected static override consumesContext = false;
  /** Which `_highlightResult` / `_snippetResult` member to read. */
  protected readonly resultKey: '_highlightResult' | '_snippetResult' = '_highlightResult';

  /** The attribute to show (a dotted path for nested attributes, e.g. `brand.name`). */
  attribute = '';
  /** Joins the values of an array attribute (default `, `). */
  separator = ', ';
  /** The hit (a search or Recommend hit with `_highlightResult`). */
  declare hit: Hit | undefined;

  /**
   * A highlight the first-paint script painted in a hit (src/prepaint) is upgraded with its hit before `<svc-hits>`
   * takes its list over: its first render replaces the painted nodes, the same text, in one task.
   */
  protected override update(changed: PropertyValues): void {
    if (isPrepainted(this.shadowRoot)) {
      clearPrepainted(this.shadowRoot!);
      // Lit renders before the first node it found in the shadow root (`renderBefore`): a painted node, now gone.
      this.renderOptions.renderBefore = null;
    }
    super.update(changed);
  }

  override render() {
    return renderHighlight(highlightedValue(this.hit, this.attribute, this.resultKey, this.separator));
  }
}
