/**
 * Text normalisation and tokenising shared by indexing, querying, highlighting and facet search.
 *
 * Normalised form: Unicode NFD with combining marks removed (so `é` → `e`), lower case, and a few
 * letters that NFD does not decompose folded by hand (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, …).
 * A token is a run of letters and digits; ideographic and kana characters are one token each, as CJK
 * text has no spaces between words.
 */

const FOLD: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŋ: 'n',
  ſ: 's',
  // Greek final sigma: lower-casing a whole word gives ς, a lone letter σ; both are one letter
  ς: 'σ',
};
const FOLD_RE = /[ßæøœłđðþıŋſς]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII character, control characters included
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SPLIT = /[^a-z0-9]+/;
const UNICODE_SPLIT = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}/gu;
/** Scripts written without spaces: each character is a token. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/u;
const CJK_G = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}])/gu;

/**
 * The text has only ASCII characters (its normalised form is then its lower case, and its tokens the
 * runs of `a-z0-9` in it).
 * @example isAscii('Oak table') // true; isAscii('Crème') // false
 */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * Normalises a text for matching: case, diacritics and special letters folded.
 * @example normalizeText('Crème BRÛLÉE') // 'creme brulee'
 */
export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let out = text.normalize('NFD').replace(MARKS, '').toLowerCase();
  if (NON_ASCII.test(out)) out = out.replace(FOLD_RE, (c) => FOLD[c] ?? c).normalize('NFC');
  return out;
}

/**
 * Splits a text into normalised tokens (no offsets; the fast path used when indexing).
 * @example tokenize('Wooden chair, 2 pcs') // ['wooden', 'chair', '2', 'pcs']
 */
export function tokenize(text: string): string[] {
  const norm = normalizeText(text);
  if (!NON_ASCII.test(norm)) {
    const parts = norm.split(ASCII_SPLIT);
    return parts.filter((p) => p.length > 0);
  }
  const spaced = CJK.test(norm) ? norm.replace(CJK_G, ' $1 ') : norm;
  return spaced.split(UNICODE_SPLIT).filter((p) => p.length > 0);
}

/** One token of an original text, with its place in that text (UTF-16 offsets). */
export interface TokenSpan {
  /** Normalised token. */
  norm: string;
  start: number;
  end: number;
  /**
   * For each normalised character, the original offset just after it (to highlight a prefix). Only
   * filled when the token's normalised length differs from its original length.
   */
  ends?: number[];
}

const charCache = new Map<string, string>();
function normChar(ch: string): string {
  let n = charCache.get(ch);
  if (n === undefined) {
    n = normalizeText(ch);
    if (charCache.size < 20000) charCache.set(ch, n);
  }
  return n;
}
const WORD_CHAR = /^[\p{L}\p{N}]+$/u;

/**
 * Tokenises a text keeping each token's offsets in the original, for highlighting and snippets.
 * Produces the same normalised tokens as {@link tokenize}.
 * @example tokenizeWithOffsets('Café au lait')[0] // { norm: 'cafe', start: 0, end: 4 }
 */
export function tokenizeWithOffsets(text: string): TokenSpan[] {
  const spans: TokenSpan[] = [];
  if (!NON_ASCII.test(text)) {
    const re = /[A-Za-z0-9]+/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text))
      spans.push({ norm: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
    return spans;
  }
  let cur: TokenSpan | null = null;
  let curEnds: number[] = [];
  let i = 0;
  const close = () => {
    if (cur) {
      if (cur.norm.length !== cur.end - cur.start) cur.ends = curEnds;
      spans.push(cur);
    }
    cur = null;
    curEnds = [];
  };
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    const n = normChar(ch);
    if (n.length === 0) {
      // a lone combining mark: part of the token it follows
      if (cur) {
        (cur as TokenSpan).end = next;
        if (curEnds.length) curEnds[curEnds.length - 1] = next;
      }
    } else if (CJK.test(ch)) {
      close();
      spans.push({ norm: n, start: i, end: next });
    } else if (WORD_CHAR.test(n)) {
      if (!cur) cur = { norm: '', start: i, end: i };
      (cur as TokenSpan).norm += n;
      (cur as TokenSpan).end = next;
      for (let k = 0; k < n.length; k++) curEnds.push(next);
    } else {
      close();
    }
    i = next;
  }
  close();
  return spans;
}

/**
 * Original offset just after the first `chars` normalised characters of a span.
 * @example spanPrefixEnd(tokenizeWithOffsets('Straße')[0], 5) // 5: the fifth normalised char comes from 'ß'
 */
export function spanPrefixEnd(span: TokenSpan, chars: number): number {
  if (chars >= span.norm.length) return span.end;
  if (!span.ends) return span.start + chars;
  return span.ends[Math.max(0, chars - 1)] ?? span.end;
}

/**
 * True when a token is made of digits only (no typo tolerance on numbers).
 * @example isNumericToken('1234') // true
 */
export function isNumericToken(token: string): boolean {
  return /^[0-9]+$/.test(token);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/**
 * Escapes a record value for HTML: the only markup in a highlighted value is the highlight tags.
 * @example escapeHtml('<script>') // '&lt;script&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
