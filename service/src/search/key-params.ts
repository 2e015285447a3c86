/**
 * Search parameters as they arrive: a URL-encoded `params` string, parameters directly in the body or
 * the query string, and the parameters an API key forces on every query (key `queryParameters`,
 * secured-key restrictions), which only ever narrow. The engine's `parseSearchParams` validates the
 * merged result.
 */
import type { KeyInfo } from '../keys/types.js';
import { parseFilters, parseSearchParams, type Index } from '../engine/index.js';
import { checkTypoWordSizes } from '../engine/settings.js';
import { ServiceError } from '../errors.js';

export type RawParams = Record<string, unknown>;
type SearchParams = ReturnType<typeof parseSearchParams>;

/** Decodes a URL-encoded parameter string (`+` is a space; lists comma-separated or JSON). */
export function decodeParams(params: string): RawParams {
  return parseSearchParams(params) as RawParams;
}

/**
 * Merges `params` (URL-encoded string) with the other fields of a body; the fields given directly win
 * over the same names inside `params`.
 *
 * @example
 * rawParams({ params: 'query=chair&hitsPerPage=5', page: 2 }) // { query: 'chair', hitsPerPage: 5, page: 2 }
 */
export function rawParams(input: RawParams, omit: readonly string[] = []): RawParams {
  const { params, ...rest } = input;
  let out: RawParams = {};
  if (params !== undefined && params !== null) {
    if (typeof params === 'string') out = decodeParams(params);
    else if (typeof params === 'object' && !Array.isArray(params)) out = { ...(params as RawParams) };
    else throw new ServiceError(400, '`params` must be a URL-encoded string of search parameters');
  }
  for (const [name, value] of Object.entries(rest)) {
    // An own data property even for `__proto__` (a JSON body may name it), so that the parameter check sees it.
    if (value !== undefined)
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  for (const name of omit) delete out[name];
  return out;
}

function toFilterList(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  const parsed = parseSearchParams({ [name]: value })[name];
  return Array.isArray(parsed) ? parsed : [];
}

/** Filter lists: a key's entries are added to the query's (each entry is ANDed). */
const FILTER_LISTS = new Set(['facetFilters', 'numericFilters', 'tagFilters']);
/** Attribute lists a key may restrict: the result keeps only what both sides allow. */
const ATTRIBUTE_LISTS = new Set(['attributesToRetrieve', 'restrictSearchableAttributes']);
/** Geo areas: a key's area cannot be moved or replaced by a narrower key or the query. */
const GEO_AREAS = new Set(['aroundLatLng', 'insideBoundingBox', 'insidePolygon']);

/** A `filters` string that parses on its own (so `(a) AND (b)` cannot be escaped with unbalanced parentheses). */
function ownFilters(value: unknown, whose: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string')
    throw new ServiceError(400, `Invalid value for parameter "filters": expected a string`);
  const text = value.trim();
  if (text) {
    try {
      parseFilters(text);
    } catch (error) {
      throw new ServiceError(400, `${whose} filters: ${(error as Error).message}`);
    }
  }
  return text;
}

/**
 * The attributes both lists allow. A list is `*` with `-name` exclusions, or names (a dotted path stands
 * for that nested attribute, a name for the attribute and everything below it).
 *
 * @example
 * bothAllow(['*', '-secret'], ['name', 'secret']) // ['name']
 * bothAllow(['name', 'price'], ['name.first', 'brand']) // ['name.first']
 */
export function bothAllow(a: readonly string[], b: readonly string[]): string[] {
  const all = (list: readonly string[]) => list.includes('*');
  const excluded = (list: readonly string[]) => list.filter((n) => n.startsWith('-')).map((n) => n.slice(1));
  const named = (list: readonly string[]) => list.filter((n) => n !== '*' && !n.startsWith('-'));
  /** `name` or one of its ancestors is in `names`. */
  const under = (name: string, names: readonly string[]) =>
    names.some((other) => other === name || name.startsWith(`${other}.`));
  /** What `list` lets through of `names`. */
  const allowedBy = (list: readonly string[], names: readonly string[]) =>
    all(list) ? names.filter((n) => !under(n, excluded(list))) : names.filter((n) => under(n, named(list)));
  if (all(a) && all(b)) return ['*', ...new Set([...excluded(a), ...excluded(b)].map((n) => `-${n}`))];
  return [...new Set([...allowedBy(b, named(a)), ...allowedBy(a, named(b))])];
}

/** A number of hits, a radius or `distinct` as a number (`'all'`, `false`, `0` and absent mean no limit). */
function limitOf(name: string, value: unknown): number {
  if (value === undefined || value === null || value === 'all' || value === false) return Infinity;
  if (value === true) return 1;
  const number = Number(value);
  if (!Number.isFinite(number))
    throw new ServiceError(400, `Invalid value for parameter "${name}": ${JSON.stringify(value)}`);
  return name === 'distinct' && number === 0 ? Infinity : number;
}

/** Parameters whose narrower value is the smaller one. */
const SMALLER_IS_NARROWER = new Set([
  'hitsPerPage',
  'length',
  'maxValuesPerFacet',
  'maxFacetHits',
  'aroundRadius',
  'distinct',
]);

/**
 * Narrows `base` by one key's forced parameters. Restrictions only ever narrow: filters are ANDed, filter
 * lists concatenated, attribute lists intersected, limits (hitsPerPage, aroundRadius, distinct, …) take the
 * smaller value, and a forced `hitsPerPage` or `page` also holds against `offset`/`length`. A geo area of
 * the key replaces the query's; `conflicts` says whether `base` is itself a key's (a secured key over its
 * parent): two keys' different areas cannot both hold in one search, so the call is refused rather than
 * widened. Other parameters (ranking, highlighting, analytics…) are the key's.
 */
function narrow(base: RawParams, forced: RawParams, conflicts: boolean): RawParams {
  const out: RawParams = { ...base };
  for (const [name, value] of Object.entries(forced)) {
    if (name === 'filters') {
      const own = ownFilters(out.filters, conflicts ? "The parent key's" : "The query's");
      const key = ownFilters(value, "The key's");
      out.filters = own && key ? `(${key}) AND (${own})` : key || own;
    } else if (FILTER_LISTS.has(name)) {
      out[name] = [...toFilterList(out[name], name), ...toFilterList(value, name)];
    } else if (ATTRIBUTE_LISTS.has(name)) {
      const forcedList = parseSearchParams({ [name]: value })[name] as string[];
      const ownList =
        out[name] === undefined ? undefined : (parseSearchParams({ [name]: out[name] })[name] as string[]);
      const both = ownList ? bothAllow(ownList, forcedList) : forcedList;
      // restrictSearchableAttributes: [] would mean "every attribute": the key's list holds instead.
      out[name] = name === 'restrictSearchableAttributes' && both.length === 0 ? forcedList : both;
    } else if (SMALLER_IS_NARROWER.has(name)) {
      out[name] = limitOf(name, out[name]) < limitOf(name, value) ? out[name] : value;
    } else if (GEO_AREAS.has(name)) {
      const own = out[name];
      if (conflicts && own !== undefined && JSON.stringify(own) !== JSON.stringify(value)) {
        throw new ServiceError(
          403,
          `The secured API key's ${name} differs from its parent key's: restrictions only narrow, and both areas cannot hold in one search`,
        );
      }
      out[name] = value;
    } else {
      out[name] = value;
    }
  }
  // A forced page size also bounds offset/length pagination; a forced page rules it out.
  if (forced.page !== undefined) {
    delete out.offset;
    delete out.length;
  } else if (forced.hitsPerPage !== undefined && out.length !== undefined) {
    out.length = Math.min(limitOf('length', out.length), limitOf('hitsPerPage', forced.hitsPerPage));
  }
  return out;
}

/**
 * What a key forces, all its layers combined (the parent key's `queryParameters`, then a secured key's
 * restrictions), each narrowing the one before.
 *
 * @example
 * forcedByKey(securedKeyWithFilters) // { filters: '(price < 75) AND (price > 50)' }
 */
export function forcedByKey(key: KeyInfo): RawParams {
  let forced: RawParams = {};
  key.forcedParams.forEach((layer, i) => {
    forced = narrow(forced, decodeParams(layer), i > 0);
  });
  return forced;
}

/**
 * Applies what the key forces (see {@link forcedByKey}, narrowed the same way onto the query): a user
 * cannot widen any restriction of the key; a secured `userToken` replaces the query's, and
 * `maxHitsPerQuery` caps `hitsPerPage`/`length`.
 *
 * @example
 * applyKeyParams({ filters: 'brand:Hon' }, securedKeyWithFilters) // { filters: '(owner:bob) AND (brand:Hon)' }
 */
export function applyKeyParams(raw: RawParams, key: KeyInfo, index?: Index): RawParams {
  const out = key.forcedParams.length > 0 ? narrow(raw, forcedByKey(key), false) : { ...raw };
  if (key.userToken !== undefined) out.userToken = key.userToken;
  if (key.maxHitsPerQuery > 0) {
    const requested =
      out.hitsPerPage ?? (index?.getSettings() as { hitsPerPage?: number } | undefined)?.hitsPerPage ?? 20;
    const asNumber = Number(requested);
    out.hitsPerPage = Number.isFinite(asNumber) ? Math.min(asNumber, key.maxHitsPerQuery) : requested;
    if (out.length !== undefined) {
      const length = Number(out.length);
      out.length = Number.isFinite(length) ? Math.min(length, key.maxHitsPerQuery) : out.length;
    }
  }
  return out;
}

/** Parameters that decide which records a call may touch: filters and geo areas. */
export const RECORD_CONSTRAINTS = [
  'filters',
  'facetFilters',
  'numericFilters',
  'tagFilters',
  'aroundLatLng',
  'aroundRadius',
  'insideBoundingBox',
  'insidePolygon',
] as const;

/**
 * The key's forced filters and geo areas alone, or `undefined` when it forces none (every record visible).
 *
 * @example
 * keyRecordConstraints(keyWithFilters) // { filters: 'owner:bob' }
 */
export function keyRecordConstraints(key: KeyInfo): RawParams | undefined {
  if (key.forcedParams.length === 0) return undefined;
  const forced = forcedByKey(key);
  const picked = Object.fromEntries(
    RECORD_CONSTRAINTS.filter((name) => forced[name] !== undefined).map((name) => [name, forced[name]]),
  );
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/**
 * Validated engine parameters (400 with the engine's message on bad input).
 *
 * @example
 * toSearchParams({ query: 'chair', hitsPerPage: '5' }) // { query: 'chair', hitsPerPage: 5 }
 */
export function toSearchParams(raw: RawParams): SearchParams {
  return parseSearchParams(raw);
}

/**
 * The search-time `minWordSizefor1Typo` / `minWordSizefor2Typos` follow the settings' rule, over the
 * index's values for the one not given: the 1-typo minimum may not exceed the 2-typos one (400 naming both).
 *
 * @example
 * checkTypoParams({ minWordSizefor1Typo: 9 }, index) // throws with the default minWordSizefor2Typos 8
 */
export function checkTypoParams(raw: RawParams, index: Index): void {
  if ((raw.minWordSizefor1Typo ?? raw.minWordSizefor2Typos ?? null) === null) return;
  checkTypoWordSizes(raw, index.getSettings() as unknown as RawParams, 'parameter');
}

/**
 * A boolean parameter that may arrive as `true` or `'true'`.
 *
 * @example
 * flag('true') // true
 */
export function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}
