/**
 * Which attributes a hit list asks the search for, derived from how it renders its hits, so responses carry only
 * what is shown (`attributesToRetrieve`, `attributesToHighlight`, `attributesToSnippet`).
 *
 * - A `<template>` names every field it shows: `data-text`, `data-href`, `data-src`, `data-attr-*` and the
 *   `attribute` of `svc-*` elements (`<svc-highlight>`, `<svc-snippet>`); those are retrieved, the highlighted
 *   ones highlighted, the snippeted ones snippeted. Nothing else of a hit reaches a template.
 * - The default rendering shows the highlighted `attribute` (or each hit's first highlighted attribute).
 * - `renderHit` is code: it may read anything, so everything is asked for.
 * - `attributes-to-retrieve` adds fields (for code reading `el.hits`); `*` asks for the index's defaults, as
 *   if the list derived nothing.
 *
 * `'*'` in a list means "the index's default" to the store, which then leaves the parameter out.
 */

export interface HitAttributes {
  attributesToRetrieve: string[];
  attributesToHighlight: string[];
  attributesToSnippet: string[];
}

/** A `data-*` attribute of a template naming a field of the hit. */
const FIELD_ATTRIBUTE = /^data-(?:text|href|src|attr-.+)$/;

/**
 * The attributes to ask for a list rendered by `template` (or by default, showing `attribute`), with the user's
 * `explicit` additions; `custom` when `renderHit` renders the hits.
 *
 * @example
 * hitAttributes({ template, explicit: ['sku'] }).attributesToRetrieve // ['name', 'price', 'sku', 'url']
 */
export function hitAttributes(options: {
  template?: HTMLTemplateElement | null;
  attribute?: string;
  custom?: boolean;
  explicit?: string[];
}): HitAttributes {
  const { template, attribute, custom, explicit = [] } = options;
  const snippets = [...(template?.content.querySelectorAll('svc-snippet[attribute]') ?? [])].map(
    (snippet) => `${snippet.getAttribute('attribute')}:${Number(snippet.getAttribute('words')) || 10}`,
  );
  const all = { attributesToRetrieve: ['*'], attributesToHighlight: ['*'], attributesToSnippet: snippets };
  if (explicit.includes('*')) return all;
  if (custom) return explicit.length ? { ...all, attributesToRetrieve: explicit } : all;
  if (template) {
    const fields = new Set(explicit);
    const highlighted = new Set<string>();
    for (const element of template.content.querySelectorAll('*')) {
      for (const { name, value } of element.attributes) if (FIELD_ATTRIBUTE.test(name) && value) fields.add(value);
      const field = element.localName.startsWith('svc-') ? element.getAttribute('attribute') : null;
      if (!field) continue;
      // A highlight or snippet falls back to the raw value when the hit has no result for it.
      fields.add(field);
      if (element.localName !== 'svc-snippet') highlighted.add(field);
    }
    return {
      attributesToRetrieve: [...fields].sort(),
      attributesToHighlight: [...highlighted].sort(),
      attributesToSnippet: snippets,
    };
  }
  // The default rendering: the highlighted value (a raw value only where the hit has no highlight result).
  if (attribute) {
    return {
      attributesToRetrieve: [...new Set([attribute, ...explicit])].sort(),
      attributesToHighlight: [attribute],
      attributesToSnippet: [],
    };
  }
  return { attributesToRetrieve: [...explicit].sort(), attributesToHighlight: ['*'], attributesToSnippet: [] };
}

/** The `attributes-to-retrieve` attribute: a comma-separated list (`*` for everything). */
export const attributeList = (value: string | null): string[] | undefined =>
  value
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);
