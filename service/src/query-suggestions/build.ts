/**
 * One build of a Query Suggestions index (document 2, "Query Suggestions"): gathers the candidates of
 * each source index — its popular searches recorded by the local Analytics, the records of its
 * `external` indices and the facet value combinations of `generate` — checks each with a search on the
 * source index (`minHits`, `minLetters`, `exclude`), de-duplicates singular and plural forms for
 * `languages`, and returns the records of the suggestions index. Every step, skipped candidate (with its
 * reason) and error is a log line. See `docs/notes/query-suggestions.md`.
 */
import { dayOf, DAY_MS, parsePeriod, type Period, type TagExpression } from '../analytics/params.js';

import { normalizeText, tokenize, type Dictionaries, type Index } from '../engine/index.js';
import type { Catalog } from '../indices/catalog.js';
import type { AnalyticsReports } from '../storage/types.js';
import type { QuerySuggestionsConfig, SourceIndexConfig } from './config.js';

/** Popular searches are those of the last 30 days (today included), by the service clock. */
export const ANALYTICS_PERIOD_DAYS = 30;
/** At most this many facet value combinations per `generate` list (those found on most records first). */
export const MAX_GENERATED = 10_000;
/** At most this many records per `external` index (the highest `count` first). */
export const MAX_EXTERNAL = 10_000;
/** The build gives the event loop back to the service after this many searches. */
const YIELD_EVERY = 25;
/** At most this many singular/plural spellings of one suggestion are compared. */
const MAX_PLURAL_VARIANTS = 256;

export type LogLevel = 'INFO' | 'SKIP' | 'ERROR';

/** A line of a build log: "a record of level n+1 belongs to the preceding record of level n". */
export interface LogLine {
  timestamp: string;
  level: LogLevel;
  message: string;
  contextLevel: number;
}

/**
 * The log of one build.
 *
 * @example
 * const log = new BuildLog();
 * log.add('INFO', 0, 'Build started');
 * log.toJsonLines() // '{"timestamp":"…","level":"INFO","message":"Build started","contextLevel":0}\n'
 */
export class BuildLog {
  readonly lines: LogLine[] = [];

  add(level: LogLevel, contextLevel: number, message: string): void {
    this.lines.push({ timestamp: new Date().toISOString(), level, message, contextLevel });
  }

  get hasError(): boolean {
    return this.lines.some((line) => line.level === 'ERROR');
  }

  toJsonLines(): string {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  }
}

/** A facet value of a suggestion's results. */
export interface FacetCount {
  value: string;
  count: number;
}

/** A filter value the searches of a suggestion used (the Analytics API's filter item). */
export interface AnalyticsFacetCount {
  attribute: string;
  operator: ':';
  value: string;
  count: number;
}

/** What a suggestion record holds for each source index that produced it. */
export interface SourceEntry {
  /** nbHits of the suggestion searched on the source index. */
  exact_nb_hits: number;
  facets: {
    /** The top `amount` values of each configured facet among the suggestion's results. */
    exact_matches: Record<string, FacetCount[]>;
    /** The top `amount` values of each configured facet that the suggestion's searches filtered on. */
    analytics: Record<string, AnalyticsFacetCount[]>;
  };
}

/** A record of the suggestions index. */
export type SuggestionRecord = {
  objectID: string;
  query: string;
  popularity: number;
  nb_words: number;
} & { [sourceIndexName: string]: unknown };

export interface BuildEnvironment {
  catalog: Catalog;
  dictionaries: Dictionaries;
  reports: AnalyticsReports;
  /** The service clock (the period of popular searches). */
  now(): number;
}

export interface BuildOptions {
  /** Checked after each pause: true stops the build (the configuration changed, was deleted, or the service closes). */
  shouldStop(): boolean;
}

/**
 * The normalised form of a query, used as the suggestion's `objectID` and `query`: NFKC, lower case,
 * runs of white space as one space, trimmed.
 *
 * @example
 * suggestionKey('  Office   CHAIR ') // 'office chair'
 */
export function suggestionKey(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The `exclude` test: an entry without `*` is one or more words, and excludes every suggestion that
 * contains those words in that order (whole words; case, accents and punctuation ignored); an entry with
 * `*` is a pattern over the whole suggestion where `*` stands for any characters (none included).
 * Returns the entry that excludes a suggestion, or `undefined`.
 *
 * @example
 * const excluded = excludeMatcher(['cheap', 'free *']);
 * excluded('cheap chair') // 'cheap'; excluded('cheapest chair') // undefined; excluded('free shipping') // 'free *'
 */
export function excludeMatcher(entries: readonly string[]): (suggestion: string) => string | undefined {
  const tests = entries.map((entry): ((norm: string, tokens: string[]) => boolean) => {
    if (entry.includes('*')) {
      const source = normalizeText(entry)
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      const regex = new RegExp(`^${source}$`, 's');
      return (norm) => regex.test(norm);
    }
    const words = tokenize(entry);
    return (_norm, tokens) =>
      words.length > 0 && tokens.some((_, start) => words.every((word, i) => tokens[start + i] === word));
  });
  return (suggestion) => {
    const norm = normalizeText(suggestion);
    const tokens = tokenize(suggestion);
    const at = tests.findIndex((test) => test(norm, tokens));
    return at < 0 ? undefined : entries[at];
  };
}

/** A record value at a dotted path (`hierarchicalCategories.lvl0`). */
function valueAt(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The facet values of a record's attribute: strings and numbers, arrays flattened, each once. */
function facetValues(record: Record<string, unknown>, path: string): string[] {
  const out = new Set<string>();
  const add = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(add);
    else if (typeof value === 'string' && value.trim() !== '') out.add(value.trim());
    else if (typeof value === 'number' && Number.isFinite(value)) out.add(String(value));
    else if (typeof value === 'boolean') out.add(String(value));
  };
  add(valueAt(record, path));
  return [...out];
}

/** Every combination of one value from each list (at most `max`). */
function combinations(lists: string[][], max: number): string[][] {
  let out: string[][] = [[]];
  for (const list of lists) {
    const next: string[][] = [];
    for (const prefix of out) {
      for (const value of list) {
        if (next.length >= max) break;
        next.push([...prefix, value]);
      }
    }
    out = next;
  }
  return out;
}

/** Attributes the engine counts facets for (`attributesForFaceting` without `filterOnly(…)`). */
function facetableAttributes(index: Index): Set<string> {
  const out = new Set<string>();
  for (const entry of (index.getSettings() as { attributesForFaceting?: string[] }).attributesForFaceting ?? []) {
    const match = /^(\w+)\((.+)\)$/.exec(entry);
    if (match?.[1] === 'filterOnly') continue;
    out.add(match ? match[2]! : entry);
  }
  return out;
}

interface Candidate {
  key: string;
  popularity: number;
  /** Where it came from first: analytics wins over external, external over generate. */
  origin: 'analytics' | 'external' | 'generate';
  /** The queries as searched (index, raw text), for the analytics facets. */
  searched: Array<{ index: string; query: string }>;
}

interface Accepted {
  key: string;
  popularity: number;
  entry: SourceEntry;
}

const quote = (text: string) => JSON.stringify(text);
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The period of popular searches: the last `ANALYTICS_PERIOD_DAYS` days including today (UTC). */
export function suggestionsPeriod(now: number): Period {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return parsePeriod(dayOf(today - (ANALYTICS_PERIOD_DAYS - 1) * DAY_MS), dayOf(today), now);
}

/** A search matches the source's `analyticsTags` when it has at least one of them (none = every search). */
function tagExpression(tags: readonly string[]): TagExpression | undefined {
  if (tags.length === 0) return undefined;
  return tags.length === 1 ? { tag: tags[0]! } : { or: tags.map((tag) => ({ tag })) };
}

/**
 * The candidates and accepted suggestions of one source index; `undefined` when the build was stopped.
 */
async function buildSource(
  env: BuildEnvironment,
  config: QuerySuggestionsConfig,
  source: SourceIndexConfig,
  log: BuildLog,
  options: BuildOptions,
): Promise<Accepted[] | undefined> {
  const { catalog, reports } = env;
  log.add('INFO', 0, `Source index ${quote(source.indexName)}`);
  const index = catalog.get(source.indexName);
  if (!index) {
    log.add('ERROR', 1, `Index ${quote(source.indexName)} does not exist: no suggestions from it`);
    return [];
  }
  const candidates = new Map<string, Candidate>();

  // 1. Popular searches: the Analytics top searches (counted searches, keystroke series folded).
  const period = suggestionsPeriod(env.now());
  const tags = tagExpression(source.analyticsTags);
  const analyticsIndices = [
    source.indexName,
    ...(source.replicas ? (catalog.meta(source.indexName)?.replicas ?? []) : []),
  ];
  for (const name of analyticsIndices) {
    const { searches } = await reports.topSearches(
      { index: name, period, tags },
      { limit: 0, offset: 0, clickAnalytics: false, orderBy: 'searchCount', direction: 'desc' },
    );
    let empty = 0;
    for (const { search, count } of searches) {
      const key = suggestionKey(search);
      if (key === '') {
        empty += count;
        continue;
      }
      const candidate = candidates.get(key) ?? { key, popularity: 0, origin: 'analytics' as const, searched: [] };
      candidate.popularity += count;
      candidate.searched.push({ index: name, query: search });
      candidates.set(key, candidate);
    }
    const tagText = source.analyticsTags.length
      ? `with one of the tags ${source.analyticsTags.map(quote).join(', ')}`
      : 'all tags';
    log.add(
      'INFO',
      1,
      `${searches.length} popular searches of ${quote(name)} from ${period.days[0]} to ${period.days.at(-1)} (${tagText})`,
    );
    if (empty > 0) log.add('SKIP', 2, `"": the empty query (${empty} searches) is not a suggestion`);
  }

  // 2. External indices: records {query, count}; a query Analytics already has keeps the Analytics figure.
  for (const name of source.external) {
    const external = catalog.get(name);
    if (!external) {
      log.add('ERROR', 1, `External index ${quote(name)} does not exist`);
      continue;
    }
    const found = new Map<string, number>();
    let invalid = 0;
    for (const record of external.objects()) {
      const { query, count } = record as { query?: unknown; count?: unknown };
      if (typeof query !== 'string' || typeof count !== 'number' || !Number.isFinite(count) || count < 0) {
        invalid += 1;
        if (invalid <= 10)
          log.add(
            'SKIP',
            2,
            `record ${quote(record.objectID)} of ${quote(name)}: an external record needs a string "query" and a number "count" ≥ 0`,
          );
        continue;
      }
      const key = suggestionKey(query);
      if (key !== '') found.set(key, (found.get(key) ?? 0) + count);
    }
    if (invalid > 10)
      log.add(
        'SKIP',
        2,
        `… ${invalid - 10} more records of ${quote(name)} without a string "query" and a number "count"`,
      );
    const sorted = [...found].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    if (sorted.length > MAX_EXTERNAL)
      log.add('INFO', 2, `only the ${MAX_EXTERNAL} queries with the highest count are used`);
    let added = 0;
    for (const [key, count] of sorted.slice(0, MAX_EXTERNAL)) {
      const existing = candidates.get(key);
      if (existing?.origin === 'analytics') {
        log.add(
          'SKIP',
          2,
          `${quote(key)} of ${quote(name)}: already a popular search of ${quote(source.indexName)} (the external record is ignored)`,
        );
        continue;
      }
      if (existing) existing.popularity += count;
      else candidates.set(key, { key, popularity: count, origin: 'external', searched: [] });
      added += 1;
    }
    log.add('INFO', 1, `External index ${quote(name)}: ${added} queries`);
  }

  // 3. generate: the combinations of facet values found together on a record, in the listed order.
  for (const attributes of source.generate) {
    const combos = new Map<string, number>();
    for (const record of index.objects()) {
      const lists = attributes.map((attribute) => facetValues(record, attribute));
      if (lists.some((list) => list.length === 0)) continue;
      const seen = new Set<string>();
      for (const values of combinations(lists, 1000)) {
        const key = suggestionKey(values.join(' '));
        if (key === '' || seen.has(key)) continue;
        seen.add(key);
        combos.set(key, (combos.get(key) ?? 0) + 1);
      }
    }
    const sorted = [...combos].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    let added = 0;
    for (const [key] of sorted.slice(0, MAX_GENERATED)) {
      if (candidates.has(key)) continue;
      candidates.set(key, { key, popularity: 0, origin: 'generate', searched: [] });
      added += 1;
    }
    log.add(
      'INFO',
      1,
      `generate [${attributes.join(', ')}]: ${combos.size} combinations found on the records, ${added} new candidates`,
    );
    if (sorted.length > MAX_GENERATED)
      log.add('INFO', 2, `only the ${MAX_GENERATED} combinations found on the most records are used`);
  }

  // 4. Check each candidate with a search on the source index.
  const facetable = facetableAttributes(index);
  const facets = source.facets.filter((facet) => {
    if (facetable.has(facet.attribute)) return true;
    log.add(
      'ERROR',
      1,
      `Facet ${quote(facet.attribute)} is not in the attributesForFaceting of ${quote(source.indexName)}: its exact_matches stay empty`,
    );
    return false;
  });
  const maxValuesPerFacet = Math.max(1, ...facets.map((facet) => facet.amount));
  const excluded = excludeMatcher(config.exclude);
  const ordered = [...candidates.values()].sort(
    (a, b) => b.popularity - a.popularity || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  log.add(
    'INFO',
    1,
    `Checking ${ordered.length} candidates: minHits ${source.minHits}, minLetters ${source.minLetters}, ${config.exclude.length} exclude entries`,
  );
  const accepted: Accepted[] = [];
  let searched = 0;
  for (const candidate of ordered) {
    const letters = [...candidate.key].length;
    if (letters < source.minLetters) {
      log.add('SKIP', 2, `${quote(candidate.key)}: ${letters} letters, fewer than minLetters (${source.minLetters})`);
      continue;
    }
    const exclusion = excluded(candidate.key);
    if (exclusion !== undefined) {
      log.add('SKIP', 2, `${quote(candidate.key)}: excluded by ${quote(exclusion)}`);
      continue;
    }
    searched += 1;
    if (searched % YIELD_EVERY === 0) {
      await pause();
      if (options.shouldStop()) return undefined;
    }
    let response: { nbHits: number; facets?: Record<string, Record<string, number>> };
    try {
      response = index.search({
        query: candidate.key,
        hitsPerPage: 0,
        facets: facets.map((facet) => facet.attribute),
        maxValuesPerFacet,
      } as never);
    } catch (error) {
      log.add(
        'ERROR',
        2,
        `${quote(candidate.key)}: the search on ${quote(source.indexName)} failed: ${(error as Error).message}`,
      );
      continue;
    }
    if (response.nbHits < source.minHits) {
      log.add('SKIP', 2, `${quote(candidate.key)}: ${response.nbHits} hits, fewer than minHits (${source.minHits})`);
      continue;
    }
    const entry: SourceEntry = { exact_nb_hits: response.nbHits, facets: { exact_matches: {}, analytics: {} } };
    for (const facet of source.facets) {
      const counts = Object.entries(response.facets?.[facet.attribute] ?? {}).map(([value, count]) => ({
        value,
        count,
      }));
      entry.facets.exact_matches[facet.attribute] = counts
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
        .slice(0, facet.amount);
    }
    if (source.facets.length > 0)
      entry.facets.analytics = await analyticsFacets(reports, source, period, tags, candidate.searched);
    accepted.push({ key: candidate.key, popularity: candidate.popularity, entry });
  }
  log.add('INFO', 1, `${accepted.length} suggestions from ${quote(source.indexName)}`);
  return accepted;
}

/**
 * The filter values the searches of a suggestion used, per configured facet: `attr:value` filters only
 * (the refinements a user picks), summed over the spellings the suggestion was searched with, the top
 * `amount` by number of searches.
 */
async function analyticsFacets(
  reports: AnalyticsReports,
  source: SourceIndexConfig,
  period: Period,
  tags: TagExpression | undefined,
  searched: Candidate['searched'],
): Promise<Record<string, AnalyticsFacetCount[]>> {
  const attributes = source.facets.map((facet) => facet.attribute);
  const counts = new Map<string, Map<string, number>>(attributes.map((attribute) => [attribute, new Map()]));
  for (const { index, query } of searched) {
    const { values } = await reports.filterValues({ index, period, tags, search: query }, attributes, {
      limit: 0,
      offset: 0,
    });
    for (const item of values) {
      if (item.operator !== ':') continue;
      const byValue = counts.get(item.attribute)!;
      byValue.set(item.value, (byValue.get(item.value) ?? 0) + item.count);
    }
  }
  const out: Record<string, AnalyticsFacetCount[]> = {};
  for (const facet of source.facets) {
    out[facet.attribute] = [...counts.get(facet.attribute)!]
      .map(([value, count]) => ({ attribute: facet.attribute, operator: ':' as const, value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, facet.amount);
  }
  return out;
}

/** Every spelling of a suggestion's words under singular/plural rules (the suggestion's own first). */
function pluralVariants(dictionaries: Dictionaries, words: string[], languages: string[]): string[] {
  let variants: string[][] = [[]];
  for (const word of words) {
    const forms = [word, ...dictionaries.pluralForms(word, languages)];
    const next: string[][] = [];
    for (const prefix of variants)
      for (const form of forms) if (next.length < MAX_PLURAL_VARIANTS) next.push([...prefix, form]);
    variants = next;
  }
  return variants.map((variant) => variant.join(' '));
}

/**
 * Builds the records of a suggestions index from its configuration; `undefined` when `shouldStop`
 * turned true during the build.
 *
 * @example
 * const log = new BuildLog();
 * const records = await buildSuggestions(env, config, log, { shouldStop: () => false });
 * // [{ objectID: 'chair', query: 'chair', popularity: 3, nb_words: 1, products: { exact_nb_hits: 4, facets: {…} } }, …]
 */
export async function buildSuggestions(
  env: BuildEnvironment,
  config: QuerySuggestionsConfig,
  log: BuildLog,
  options: BuildOptions,
): Promise<SuggestionRecord[] | undefined> {
  const records = new Map<string, SuggestionRecord>();
  for (const source of config.sourceIndices) {
    const accepted = await buildSource(env, config, source, log, options);
    if (accepted === undefined) return undefined;
    // A suggestion several source indices accept is one record: popularity summed, one entry per source.
    for (const { key, popularity, entry } of accepted) {
      const record = records.get(key) ?? { objectID: key, query: key, popularity: 0, nb_words: key.split(' ').length };
      record.popularity += popularity;
      record[source.indexName] = entry;
      records.set(key, record);
    }
  }
  const ordered = [...records.values()].sort(
    (a, b) => b.popularity - a.popularity || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0),
  );
  if (config.languages.length === 0) return ordered;

  // languages: of the suggestions whose words differ only by singular/plural, the most popular stays.
  log.add('INFO', 0, `Singular and plural forms de-duplicated for ${config.languages.join(', ')}`);
  const kept = new Map<string, string>();
  const out: SuggestionRecord[] = [];
  for (const record of ordered) {
    const words = tokenize(record.query);
    const variants = pluralVariants(env.dictionaries, words, config.languages);
    const twin = variants.map((variant) => kept.get(variant)).find((found) => found !== undefined);
    if (twin !== undefined) {
      log.add(
        'SKIP',
        1,
        `${quote(record.query)}: singular/plural form of ${quote(twin)}, which is kept (at least as popular)`,
      );
      continue;
    }
    kept.set(words.join(' '), record.query);
    out.push(record);
  }
  return out;
}
