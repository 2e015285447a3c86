/**
 * Highlighting and snippeting of the returned hits only. Every piece of the record value is
 * HTML-escaped first; the highlight tags are the only markup inserted.
 */
import type { HighlightResult, SnippetResult } from '../protocol/index.js';
import { escapeHtml, spanPrefixEnd, tokenizeWithOffsets, type TokenSpan } from './normalize.js';

/** What a token matches: a bit mask of query words and how many normalised chars to highlight. */
export interface TokenMatch {
  mask: number;
  chars: number;
  /** Original offsets to highlight instead of the token's (a placeholder `<name>` with its brackets). */
  from?: number;
  to?: number;
}

export type TokenMatcher = (token: string) => TokenMatch | null;

export interface HighlightOptions {
  matcher: TokenMatcher;
  /** Normalised query words, in query order (for `matchedWords`). */
  words: string[];
  preTag: string;
  postTag: string;
  /**
   * Synonym alternatives that stand for the query words of `mask`: a token sequence equal to `words`
   * (consecutive tokens of one value) is highlighted as those words.
   */
  phrases?: Array<{ words: string[]; mask: number }>;
  /** Placeholders (`<name>`, the token `name` between angle brackets) that stand for the query words of `mask`. */
  placeholders?: Array<{ name: string; mask: number }>;
}

interface Marked {
  spans: TokenSpan[];
  matches: Array<TokenMatch | null>;
  mask: number;
}

function mark(text: string, opts: HighlightOptions): Marked {
  const spans = opts.words.length ? tokenizeWithOffsets(text) : [];
  const matches: Array<TokenMatch | null> = new Array(spans.length);
  let mask = 0;
  for (let i = 0; i < spans.length; i++) {
    const m = opts.matcher(spans[i]!.norm);
    matches[i] = m;
    if (m) mask |= m.mask;
  }
  for (const phrase of opts.phrases ?? []) {
    const k = phrase.words.length;
    for (let i = 0; i + k <= spans.length; i++) {
      let t = 0;
      while (t < k && spans[i + t]!.norm === phrase.words[t]) t++;
      if (t < k) continue;
      for (t = 0; t < k; t++)
        matches[i + t] = { mask: (matches[i + t]?.mask ?? 0) | phrase.mask, chars: spans[i + t]!.norm.length };
      mask |= phrase.mask;
    }
  }
  for (const placeholder of opts.placeholders ?? []) {
    for (let i = 0; i < spans.length; i++) {
      const span = spans[i]!;
      if (span.norm !== placeholder.name) continue;
      // `<name>`, blanks allowed inside the brackets (as the records are matched)
      let from = span.start;
      while (from > 0 && /\s/.test(text[from - 1]!)) from--;
      let to = span.end;
      while (to < text.length && /\s/.test(text[to]!)) to++;
      if (text[from - 1] !== '<' || text[to] !== '>') continue;
      matches[i] = {
        mask: (matches[i]?.mask ?? 0) | placeholder.mask,
        chars: span.norm.length,
        from: from - 1,
        to: to + 1,
      };
      mask |= placeholder.mask;
    }
  }
  return { spans, matches, mask };
}

function render(
  text: string,
  marked: Marked,
  from: number,
  to: number,
  startOffset: number,
  endOffset: number,
  opts: HighlightOptions,
): string {
  let out = '';
  let pos = startOffset;
  for (let i = from; i < to; i++) {
    const m = marked.matches[i];
    if (!m) continue;
    const span = marked.spans[i]!;
    const hlStart = m.from ?? span.start;
    const hlEnd = m.to ?? spanPrefixEnd(span, m.chars);
    out += escapeHtml(text.slice(pos, hlStart)) + opts.preTag + escapeHtml(text.slice(hlStart, hlEnd)) + opts.postTag;
    pos = hlEnd;
  }
  out += escapeHtml(text.slice(pos, endOffset));
  return out;
}

function level(mask: number, words: number): HighlightResult['matchLevel'] {
  if (mask === 0) return 'none';
  const all = words >= 31 ? 0x7fffffff : (1 << words) - 1;
  return (mask & all) === all ? 'full' : 'partial';
}

function matchedWords(mask: number, words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) if (mask & (1 << i) && !out.includes(words[i]!)) out.push(words[i]!);
  return out;
}

/**
 * Highlights one string value.
 * @example highlightText('<b>Chair</b>', opts) // { value: '&lt;b&gt;<em>Chair</em>&lt;/b&gt;', matchLevel: 'full', … }
 */
export function highlightText(text: string, opts: HighlightOptions): HighlightResult {
  const marked = mark(text, opts);
  const value = render(text, marked, 0, marked.spans.length, 0, text.length, opts);
  const matchLevel = level(marked.mask, opts.words.length);
  let fully = marked.spans.length > 0 && matchLevel !== 'none';
  if (fully) {
    for (let i = 0; i < marked.spans.length; i++) {
      const m = marked.matches[i];
      if (!m || m.chars < marked.spans[i]!.norm.length) {
        fully = false;
        break;
      }
    }
  }
  const result: HighlightResult = { value, matchLevel, matchedWords: matchedWords(marked.mask, opts.words) };
  if (matchLevel !== 'none') result.fullyHighlighted = fully;
  return result;
}

/**
 * Snippets one string value to `size` words around the first match, with `ellipsis` where text was cut.
 * @example snippetText('a long text about chairs', 3, '…', opts)
 */
export function snippetText(text: string, size: number, ellipsis: string, opts: HighlightOptions): SnippetResult {
  const marked = mark(text, opts);
  const spans = marked.spans.length ? marked.spans : tokenizeWithOffsets(text);
  const total = spans.length;
  if (total <= size) {
    return {
      value: render(text, marked, 0, marked.spans.length, 0, text.length, opts),
      matchLevel: level(marked.mask, opts.words.length),
    };
  }
  let first = marked.matches.findIndex((m) => m !== null);
  if (first < 0) first = 0;
  let start = Math.max(0, first - Math.floor((size - 1) / 2));
  const end = Math.min(total, start + size);
  if (end - start < size) start = Math.max(0, end - size);
  const startOffset = start === 0 ? 0 : spans[start]!.start;
  const endOffset = end === total ? text.length : spans[end - 1]!.end;
  let windowMask = 0;
  for (let i = start; i < end; i++) windowMask |= marked.matches[i]?.mask ?? 0;
  const body = marked.spans.length
    ? render(text, marked, start, end, startOffset, endOffset, opts)
    : escapeHtml(text.slice(startOffset, endOffset));
  const value = (start > 0 ? ellipsis : '') + body + (end < total ? ellipsis : '');
  return { value, matchLevel: level(windowMask, opts.words.length) };
}

type Nested<T> = T | Nested<T>[] | { [key: string]: Nested<T> };

/**
 * Highlights any JSON value: strings and numbers; arrays and objects recursively.
 * @example highlightValue(['oak', 'pine'], opts) // [{ value: '<em>oak</em>', … }, { value: 'pine', … }]
 */
export function highlightValue(value: unknown, opts: HighlightOptions): Nested<HighlightResult> | undefined {
  if (typeof value === 'string') return highlightText(value, opts);
  if (typeof value === 'number' || typeof value === 'boolean') return highlightText(String(value), opts);
  if (Array.isArray(value))
    return value.map((v) => highlightValue(v, opts) ?? { value: '', matchLevel: 'none', matchedWords: [] });
  if (value && typeof value === 'object') {
    const out: Record<string, Nested<HighlightResult>> = {};
    for (const [k, v] of Object.entries(value)) {
      const h = highlightValue(v, opts);
      if (h !== undefined) out[k] = h;
    }
    return out;
  }
  return undefined;
}

/**
 * Snippets any JSON value: strings and numbers; arrays and objects recursively.
 * @example snippetValue({ body: 'a long text' }, 2, '…', opts) // { body: { value: 'a long…', … } }
 */
export function snippetValue(
  value: unknown,
  size: number,
  ellipsis: string,
  opts: HighlightOptions,
): Nested<SnippetResult> | undefined {
  if (typeof value === 'string') return snippetText(value, size, ellipsis, opts);
  if (typeof value === 'number' || typeof value === 'boolean') return snippetText(String(value), size, ellipsis, opts);
  if (Array.isArray(value))
    return value.map((v) => snippetValue(v, size, ellipsis, opts) ?? { value: '', matchLevel: 'none' });
  if (value && typeof value === 'object') {
    const out: Record<string, Nested<SnippetResult>> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = snippetValue(v, size, ellipsis, opts);
      if (s !== undefined) out[k] = s;
    }
    return out;
  }
  return undefined;
}

/**
 * Highlights a facet value for search for facet values: prefix matches of the facet query words.
 * @example highlightFacetValue('Acme <Co>', ['ac'], '<em>', '</em>') // '<em>Ac</em>me &lt;Co&gt;'
 */
export function highlightFacetValue(value: string, queryWords: string[], preTag: string, postTag: string): string {
  const opts: HighlightOptions = {
    words: queryWords,
    preTag,
    postTag,
    matcher: (tok) => {
      let mask = 0;
      let chars = 0;
      for (let i = 0; i < queryWords.length; i++) {
        const w = queryWords[i]!;
        if (tok.startsWith(w)) {
          mask |= 1 << i;
          chars = Math.max(chars, w.length);
        }
      }
      return mask ? { mask, chars } : null;
    },
  };
  return highlightText(value, opts).value;
}
