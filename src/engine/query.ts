/**
 * Query preparation: the parameters a search runs with (settings overridden by the query's own
 * parameters), and the query string split into words — phrases and exclusions of the advanced syntax,
 * stop words left out, compound words split.
 */
import { tokenize } from './normalize.js';
import type { SearchParams } from './params.js';
import type { IndexSettings, TypoTolerance } from './settings.js';

/** At most 16 query words (one bit each, under a 16-bit query generation); 32 typos and 16 exact words fit the packed word. */
export const MAX_WORDS = 16;

/** The parameters of one search: each the query's own value, else the index setting. */
export interface Effective {
  query: string;
  hitsPerPage: number;
  typoTolerance: TypoTolerance;
  min1: number;
  min2: number;
  /** Languages of `ignorePlurals` (null: off). */
  plurals: string[] | null;
  distinct: number;
  queryType: IndexSettings['queryType'];
  removeWords: IndexSettings['removeWordsIfNoResults'];
  optionalWords: Set<string>;
  preTag: string;
  postTag: string;
  ellipsis: string;
  attributesToRetrieve: string[];
  attributesToHighlight: string[] | null;
  attributesToSnippet: string[];
  getRankingInfo: boolean;
  advancedSyntax: boolean;
  /** Languages of `removeStopWords` (null: off). */
  removeStopWords: string[] | null;
  noTypoWords: Set<string>;
  /** Languages of the query (`queryLanguages`, else English). */
  queryLanguages: string[];
  /** Split compound words of the query (`decompoundQuery`). */
  decompoundQuery: boolean;
  /** Expand query words with the index's synonyms (`synonyms`, default true). */
  synonyms: boolean;
}

/**
 * The parameters of one search: each the query's own value, else the setting. `parseSearchParams` checked the
 * values (the protocol's table: types, ranges, enumerations and entry formats match the settings' validation).
 * @example effectiveParams(settings, { query: 'chair', hitsPerPage: 5 }).hitsPerPage // 5
 */
export function effectiveParams(s: IndexSettings, params: SearchParams): Effective {
  const pick = <T>(name: string, fallback: T): T => {
    const v = params[name];
    return v === undefined || v === null ? fallback : (v as T);
  };
  const plurals = pick<boolean | string[]>('ignorePlurals', s.ignorePlurals);
  const ownLanguages = languageList(pick<string[]>('queryLanguages', s.queryLanguages));
  const queryLanguages = ownLanguages.length ? ownLanguages : ['en'];
  const distinct = pick<boolean | number>('distinct', s.distinct);
  const optional = pick<string[]>('optionalWords', s.optionalWords);
  return {
    query: typeof params.query === 'string' ? params.query : '',
    hitsPerPage: pick('hitsPerPage', s.hitsPerPage),
    typoTolerance: pick('typoTolerance', s.typoTolerance),
    min1: pick('minWordSizefor1Typo', s.minWordSizefor1Typo),
    min2: pick('minWordSizefor2Typos', s.minWordSizefor2Typos),
    plurals: featureLanguages(plurals, queryLanguages),
    distinct: distinct === true ? 1 : distinct === false ? 0 : distinct,
    queryType: pick('queryType', s.queryType),
    removeWords: pick('removeWordsIfNoResults', s.removeWordsIfNoResults),
    optionalWords: new Set(optional.flatMap((w) => tokenize(w))),
    preTag: pick('highlightPreTag', s.highlightPreTag),
    postTag: pick('highlightPostTag', s.highlightPostTag),
    ellipsis: pick('snippetEllipsisText', s.snippetEllipsisText),
    attributesToRetrieve: pick('attributesToRetrieve', s.attributesToRetrieve),
    attributesToHighlight: pick('attributesToHighlight', s.attributesToHighlight),
    attributesToSnippet: pick('attributesToSnippet', s.attributesToSnippet),
    getRankingInfo: params.getRankingInfo === true,
    advancedSyntax: pick('advancedSyntax', s.advancedSyntax),
    removeStopWords: featureLanguages(pick('removeStopWords', s.removeStopWords), queryLanguages),
    noTypoWords: new Set(
      pick<string[]>('disableTypoToleranceOnWords', s.disableTypoToleranceOnWords).flatMap((w) => tokenize(w)),
    ),
    queryLanguages,
    decompoundQuery: pick('decompoundQuery', s.decompoundQuery) !== false,
    synonyms: params.synonyms !== false,
  };
}

export interface ParsedQuery {
  words: string[];
  /** Per word: no prefix and no typos (words of a quoted phrase). */
  exactOnly: boolean[];
  /** Word indexes of each quoted phrase of two words or more. */
  phrases: number[][];
  /** Words whose records are excluded (`-word`). */
  excluded: string[];
}

/**
 * Splits the query into words; with `advancedSyntax`, `"a phrase"` must match as written (adjacent,
 * in order, no typos or prefix) and `-word` excludes the records containing the word.
 * @example parseQuery('"oak table" -red', true) // { words: ['oak', 'table'], exactOnly: [true, true], phrases: [[0, 1]], excluded: ['red'] }
 */
export function parseQuery(query: string, advanced: boolean): ParsedQuery {
  if (!advanced) {
    const words = tokenize(query).slice(0, MAX_WORDS);
    return { words, exactOnly: words.map(() => false), phrases: [], excluded: [] };
  }
  const out: ParsedQuery = { words: [], exactOnly: [], phrases: [], excluded: [] };
  const re = /"([^"]*)(?:"|$)|(\S+)/g;
  for (let m = re.exec(query); m !== null; m = re.exec(query)) {
    if (m[1] !== undefined) {
      const idx = tokenize(m[1]).map((t) => {
        out.words.push(t);
        out.exactOnly.push(true);
        return out.words.length - 1;
      });
      if (idx.length > 1) out.phrases.push(idx);
    } else if (m[2]!.startsWith('-') && m[2]!.length > 1) {
      out.excluded.push(...tokenize(m[2]!.slice(1)));
    } else {
      for (const t of tokenize(m[2]!)) {
        out.words.push(t);
        out.exactOnly.push(false);
      }
    }
  }
  out.words = out.words.slice(0, MAX_WORDS);
  out.phrases = out.phrases.filter((p) => p.every((i) => i < MAX_WORDS));
  return out;
}

/**
 * Leaves stop words (the dictionaries' stop words of the query's languages) out of the query, unless
 * only stop words remain; phrase words stay, and so does a last word still being typed (it may be the
 * prefix of another word).
 * @example const q = parseQuery('the chair', false); removeStopWords(q, true, new Set(['the'])); // q.words = ['chair']
 */
export function removeStopWords(parsed: ParsedQuery, lastIsPrefix: boolean, stopWords: ReadonlySet<string>): void {
  const n = parsed.words.length;
  const keep = parsed.words.map((w, i) => parsed.exactOnly[i] || !stopWords.has(w) || (lastIsPrefix && i === n - 1));
  if (!keep.some((k, i) => k && !stopWords.has(parsed.words[i]!))) return;
  const remap: number[] = [];
  const words: string[] = [];
  const exactOnly: boolean[] = [];
  parsed.words.forEach((w, i) => {
    remap.push(words.length);
    if (keep[i]) {
      words.push(w);
      exactOnly.push(parsed.exactOnly[i]!);
    }
  });
  parsed.phrases = parsed.phrases.map((p) => p.map((i) => remap[i]!));
  parsed.words = words;
  parsed.exactOnly = exactOnly;
}

/**
 * Splits the compound words of the query into their parts (custom compound entries); phrase words stay
 * whole. Records are indexed with the parts of their compound words too, so a split query still finds
 * the records that hold the compound.
 * @example const q = parseQuery('hausboot', false); decompoundQuery(q, new Map([['hausboot', ['haus', 'boot']]])); // q.words = ['haus', 'boot']
 */
export function decompoundQuery(parsed: ParsedQuery, compounds: ReadonlyMap<string, readonly string[]>): void {
  if (compounds.size === 0 || !parsed.words.some((w, i) => !parsed.exactOnly[i] && compounds.has(w))) return;
  const remap: number[] = [];
  const words: string[] = [];
  const exactOnly: boolean[] = [];
  parsed.words.forEach((w, i) => {
    remap.push(words.length);
    const parts = parsed.exactOnly[i] ? undefined : compounds.get(w);
    for (const part of parts ?? [w]) {
      words.push(part);
      exactOnly.push(parsed.exactOnly[i]!);
    }
  });
  parsed.phrases = parsed.phrases.map((p) => p.map((i) => remap[i]!)).filter((p) => p.every((i) => i < MAX_WORDS));
  parsed.words = words.slice(0, MAX_WORDS);
  parsed.exactOnly = exactOnly.slice(0, MAX_WORDS);
}

/**
 * Lower-cased language codes of a setting or parameter, without duplicates.
 * @example languageList(['EN', 'fr', 'en']) // ['en', 'fr']
 */
export function languageList(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.map((v) => String(v).trim().toLowerCase()).filter(Boolean))] : [];
}

/**
 * The languages `ignorePlurals` / `removeStopWords` work in: the listed ones, or for `true` (and an
 * empty list) the query languages; null when off.
 * @example featureLanguages(true, ['en']) // ['en']
 */
export function featureLanguages(value: boolean | string[], queryLanguages: string[]): string[] | null {
  if (value === false) return null;
  const listed = languageList(value);
  return listed.length > 0 ? listed : queryLanguages;
}
