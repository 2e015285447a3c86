import type { PropertyDeclarations } from 'lit';
import { SvcHighlight } from '../highlight/svc-highlight.js';

/**
 * @tagname svc-snippet
 * @summary The snippet of one attribute of a hit (the part around the matches) with the matched words marked:
 * `_snippetResult` rendered as text with `<mark part="highlighted">` — never as HTML.
 *
 * `<svc-hits>` asks for the snippets of the `<svc-snippet>` elements of its `<template>`
 * (`attributesToSnippet`, `words` words each); with `renderHit`, ask for them with `<svc-configure>`.
 * Without a snippet result the raw value is shown as text.
 *
 * @csspart highlighted - Each `mark` around a matched part.
 *
 * @cssproperty --svc-highlight-background - Background of matches (default: the accent at 22 %).
 * @cssproperty --svc-highlight-color - Text colour of matches (default: inherited).
 * @cssproperty --svc-highlight-font-weight - Weight of matches (default 600).
 */
export class SvcSnippet extends SvcHighlight {
  static override properties: PropertyDeclarations = { words: { type: Number } };
  protected override readonly resultKey = '_snippetResult' as const;

  /** Length of the snippet in words, asked for by the enclosing `<svc-hits>` template (default 10). */
  words = 10;
}
