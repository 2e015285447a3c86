import { html, type TemplateResult } from 'lit';
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../../controllers/highlight-tags.js';

export { HIGHLIGHT_PARAMS, HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../../controllers/highlight-tags.js';

export interface HighlightPart {
  value: string;
  highlighted: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the HTML escapes of a highlighted value (`&lt;` → `<`, `&#39;` → `'`, numeric references) so the
 * text can be rendered as a text node — where it is safe again.
 */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity.toLowerCase()] ?? match;
    const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}

/** Escapes text for HTML (a raw attribute value used where a highlighted value is expected). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Splits a highlighted value — HTML-escaped text with highlight tags, as the service answers — into text
 * parts with the escapes decoded. Uses the svc tags when present, else the service's default `<em>…</em>`.
 * Only the tags become marks; `&lt;script&gt;` in a record is the text `<script>`, never an element.
 *
 * @example
 * parseHighlight('__svc-highlight__iPh__/svc-highlight__one &amp; co') // [{value:'iPh',highlighted:true},{value:'one & co',highlighted:false}]
 */
export function parseHighlight(value: string): HighlightPart[] {
  const [pre, post] = value.includes(HIGHLIGHT_PRE_TAG) ? [HIGHLIGHT_PRE_TAG, HIGHLIGHT_POST_TAG] : ['<em>', '</em>'];
  const parts: HighlightPart[] = [];
  let rest = value;
  while (rest) {
    const start = rest.indexOf(pre);
    const end = start < 0 ? -1 : rest.indexOf(post, start + pre.length);
    if (end < 0) {
      parts.push({ value: unescapeHtml(rest), highlighted: false });
      break;
    }
    if (start > 0) parts.push({ value: unescapeHtml(rest.slice(0, start)), highlighted: false });
    if (end > start + pre.length) parts.push({ value: unescapeHtml(rest.slice(start + pre.length, end)), highlighted: true });
    rest = rest.slice(end + post.length);
  }
  return parts;
}

/** Reads a possibly dotted attribute path (`brand.name`, `tags.0`) of an object. */
export function getPath(object: unknown, path: string): unknown {
  let value: unknown = object;
  for (const key of path.split('.')) {
    if (value == null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The highlighted (or snippeted) value of `attribute` in a hit (escaped HTML with highlight tags), arrays
 * joined by `separator`; falls back to the raw attribute value, escaped, when the hit has no highlight result.
 */
export function highlightedValue(
  hit: Record<string, unknown> | undefined,
  attribute: string,
  kind: '_highlightResult' | '_snippetResult' = '_highlightResult',
  separator = ', ',
): string {
  if (!hit || !attribute) return '';
  const read = (result: unknown): string | undefined => {
    if (Array.isArray(result)) {
      const values = result.map(read).filter((value) => value !== undefined);
      return values.length ? values.join(separator) : undefined;
    }
    const value = (result as { value?: unknown } | undefined)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const highlighted = read(getPath(hit[kind], attribute));
  if (highlighted !== undefined) return highlighted;
  const raw = getPath(hit, attribute);
  if (raw == null || (typeof raw === 'object' && !Array.isArray(raw))) return '';
  const text = Array.isArray(raw) ? raw.filter((v) => v == null || typeof v !== 'object').join(separator) : String(raw);
  return escapeHtml(text);
}

/**
 * Renders a highlighted value as Lit text with `<mark part="highlighted">` around matches — never as HTML.
 *
 * @example
 * html`<span>${renderHighlight(hit._highlightResult.name.value)}</span>`
 */
export function renderHighlight(value: string): Array<TemplateResult | string> {
  return parseHighlight(value).map((part) =>
    part.highlighted ? html`<mark part="highlighted">${part.value}</mark>` : part.value,
  );
}

/** The first attribute of a hit's `_highlightResult` (searchable attributes come first), else `objectID`. */
export function defaultAttribute(hit: Record<string, unknown> | undefined): string {
  const results = hit?._highlightResult as Record<string, unknown> | undefined;
  for (const [key, result] of Object.entries(results ?? {})) {
    const first = Array.isArray(result) ? result[0] : result;
    if (typeof (first as { value?: unknown } | undefined)?.value === 'string') return key;
  }
  return 'objectID';
}
