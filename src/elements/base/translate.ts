/** A map of string keys to translated strings with `{placeholders}`. */
export type Translations = Record<string, string>;

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, lang: string, create: (lang: string) => T): T {
  let value = cache.get(lang);
  if (!value) {
    try {
      value = create(lang);
    } catch {
      value = create('en'); // an invalid `lang` attribute must not break rendering
    }
    cache.set(lang, value);
  }
  return value;
}

/** Formats a number for a language (`1234` → `1,234` in English). */
export function formatNumber(value: number, lang: string): string {
  return cached(numberFormats, lang, (l) => new Intl.NumberFormat(l)).format(value);
}

/**
 * Looks `key` up in each map in turn (first match wins) and replaces `{name}` placeholders with `params`.
 * When `params.count` is a number, the plural form `key.<category>` (`one`, `other`, … of
 * `Intl.PluralRules`) is tried before `key` in every map. Numbers are formatted for `lang`. An unknown key
 * returns the key itself, so a missing string is visible rather than blank.
 *
 * @example
 * translate([{ results: '{count} results', 'results.one': '1 result' }], 'results', { count: 1 }, 'en') // "1 result"
 */
export function translate(
  maps: Array<Translations | undefined>,
  key: string,
  params: Record<string, string | number> = {},
  lang = 'en',
): string {
  const keys = [key];
  if (typeof params.count === 'number') {
    keys.unshift(`${key}.${cached(pluralRules, lang, (l) => new Intl.PluralRules(l)).select(params.count)}`);
  }
  let template: string | undefined;
  for (const map of maps) {
    if (!map) continue;
    for (const k of keys) {
      if (typeof map[k] === 'string') {
        template = map[k];
        break;
      }
    }
    if (template !== undefined) break;
  }
  return (template ?? key).replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    if (value === undefined) return match;
    return typeof value === 'number' ? formatNumber(value, lang) : value;
  });
}
