/**
 * Search parameters as they arrive: a URL-encoded `params` string, parameters directly in the body or
 * the query string, and the parameters an API key forces on every query (key `queryParameters`,
 * secured-key restrictions). The engine's `parseSearchParams` validates the merged result.
 */
import type { KeyInfo } from '../context.js';
import { parseFilters, parseSearchParams, type Index } from '../engine/index.js';
import { checkTypoWordSizes } from '../engine/settings.js';
import { HttpError } from './errors.js';

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
    else throw new HttpError(400, '`params` must be a URL-encoded string of search parameters');
  }
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) out[name] = value;
  for (const name of omit) delete out[name];
  return out;
}

function toFilterList(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  const parsed = parseSearchParams({ [name]: value })[name];
  return Array.isArray(parsed) ? parsed : [];
}

const FILTER_LISTS = ['facetFilters', 'numericFilters', 'tagFilters'] as const;

/**
 * Applies what the key forces: its filters are ANDed with the query's own filters (a user cannot
 * widen them), other forced parameters replace the query's, a secured `userToken` replaces the
 * query's, and `maxHitsPerQuery` caps `hitsPerPage`/`length`.
 *
 * @example
 * applyKeyParams({ filters: 'brand:Hon' }, securedKeyWithFilters) // { filters: '(owner:bob) AND (brand:Hon)' }
 */
export function applyKeyParams(raw: RawParams, key: KeyInfo, index?: Index): RawParams {
  const out: RawParams = { ...raw };
  const forced = decodeParams(new URLSearchParams(key.forcedParams).toString());
  for (const [name, value] of Object.entries(forced)) {
    if (name === 'filters') {
      if (out.filters !== undefined && out.filters !== null && typeof out.filters !== 'string') {
        throw new HttpError(400, 'Invalid value for parameter "filters": expected a string');
      }
      const own = typeof out.filters === 'string' ? out.filters.trim() : '';
      // The query's filters must parse on their own, so that `(key) AND (query)` cannot be escaped
      // with unbalanced parentheses (`x) OR (owner:alice`).
      if (own) parseFilters(own);
      out.filters = own ? `(${value as string}) AND (${own})` : value;
    } else if ((FILTER_LISTS as readonly string[]).includes(name)) {
      out[name] = [...toFilterList(out[name], name), ...toFilterList(value, name)];
    } else {
      out[name] = value;
    }
  }
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
