/** A map of string keys to translated strings with `{placeholders}`. */
export type Translations = Record<string, string>;

const formats = new Map<string, Intl.NumberFormat | Intl.PluralRules>();

/** `Intl.NumberFormat` / `Intl.PluralRules` of a language, cached; an invalid `lang` falls back to English. */
function intl<T extends Intl.NumberFormat | Intl.PluralRules>(kind: 'NumberFormat' | 'PluralRules', lang: string): T {
  const Format = Intl[kind] as unknown as new (lang: string) => T;
  let value = formats.get(kind + lang);
  if (!value) {
    try {
      value = new Format(lang);
    } catch {
      value = new Format('en'); // an invalid `lang` attribute must not break rendering
    }
    formats.set(kind + lang, value);
  }
  return value as T;
}

/**
 * Formats a number for a language (`1234` → `1,234` in English).
 * @example formatNumber(1234, 'de') // "1.234"
 */
export function formatNumber(value: number, lang: string): string {
  return intl<Intl.NumberFormat>('NumberFormat', lang).format(value);
}

/** A map of strings, or a function looking a key up (`undefined` when it has none). */
export type TranslationSource = Translations | ((key: string) => string | undefined) | undefined;

/**
 * Looks `key` up in each map in turn (first match wins) and replaces `{name}` placeholders with `params`.
 * When `params.count` is a number, the plural form `key.<category>` (`one`, `other`, … of
 * `Intl.PluralRules`) is tried before `key` in every map. A map may be a function of the key. Numbers are formatted for `lang`. An unknown key
 * returns the key itself, so a missing string is visible rather than blank.
 *
 * @example
 * translate([{ results: '{count} results', 'results.one': '1 result' }], 'results', { count: 1 }, 'en') // "1 result"
 */
export function translate(
  maps: TranslationSource[],
  key: string,
  params: Record<string, string | number> = {},
  lang = 'en',
): string {
  const count = params.count;
  const keys =
    typeof count === 'number' ? [`${key}.${intl<Intl.PluralRules>('PluralRules', lang).select(count)}`, key] : [key];
  let template: string | undefined;
  for (const map of maps) {
    for (const k of keys) {
      const value = typeof map === 'function' ? map(k) : map?.[k];
      if (template == null && typeof value === 'string') template = value;
    }
  }
  return (template ?? key).replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    return value == null ? match : typeof value === 'number' ? formatNumber(value, lang) : value;
  });
}
