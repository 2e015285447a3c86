/**
 * Highlighted values as text parts, without Lit: `<svc-highlight>`, the hit lists (highlight.ts) and the first-paint
 * script (src/prepaint) all read record values through these, so a record's markup is only ever text.
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../../controllers/highlight-tags.js';

export interface HighlightPart {
  value: string;
  highlighted: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the HTML escapes of a highlighted value (`&lt;` → `<`, `&#39;` → `'`, numeric references) so the
 * text can be rendered as a text node — where it is safe again.
 * @example unescapeHtml('&lt;b&gt; &#39;') // "<b> '"
 */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity.toLowerCase()] ?? match;
    const code = +`0${entity.slice(1)}`; // "0x1f" (hex) or "0123" (decimal)
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : match;
  });
}

/**
 * Escapes text for HTML (a raw attribute value used where a highlighted value is expected).
 * @example escapeHtml('<b>') // "&#60;b&#62;"
 */
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
  const push = (text: string, highlighted: boolean) => {
    const last = parts.at(-1);
    if (!text) return;
    if (!highlighted && last && !last.highlighted) last.value += unescapeHtml(text);
    else parts.push({ value: unescapeHtml(text), highlighted });
  };
  for (const [i, chunk] of value.split(pre).entries()) {
    const end = chunk.indexOf(post);
    // Text before the first tag, or after a tag that is never closed, is plain text.
    if (!i || end < 0) {
      push(i ? pre + chunk : chunk, false);
      continue;
    }
    push(chunk.slice(0, end), true);
    push(chunk.slice(end + post.length), false);
  }
  return parts;
}

/** Reads a possibly dotted attribute path (`brand.name`, `tags.0`) of an object. */
export function getPath(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      object,
    );
}

/** A value as text: arrays joined by `separator` (objects inside left out), objects and null undefined. */
export function toText(value: unknown, separator = ', '): string | undefined {
  return Array.isArray(value)
    ? value.filter((v) => v == null || typeof v !== 'object').join(separator)
    : value == null || typeof value === 'object'
      ? undefined
      : String(value);
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
      const values = result.map(read).filter((value) => value != null);
      return values.length ? values.join(separator) : undefined;
    }
    const value = (result as { value?: unknown } | undefined)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  return read(getPath(hit[kind], attribute)) ?? escapeHtml(toText(getPath(hit, attribute), separator) ?? '');
}

/** The first attribute of a hit's `_highlightResult` (searchable attributes come first), else `objectID`. */
export function defaultAttribute(hit: Record<string, unknown> | undefined): string {
  for (const [key, result] of Object.entries((hit?._highlightResult as Record<string, unknown>) ?? {})) {
    if (typeof ([result].flat()[0] as { value?: unknown } | undefined)?.value === 'string') return key;
  }
  return 'objectID';
}
