/**
 * Search parameters: parsing from a URL-encoded string or an object, with type validation (400 naming
 * the parameter), and encoding back into the `params` string of a response.
 */
import type { SearchParams } from '../../../src/client/types.js';
import { EngineError } from './errors.js';

export type { SearchParams };

type Kind = 'string' | 'int' | 'bool' | 'strings' | 'filterList' | 'typo' | 'plurals' | 'distinct' | 'any';

const KINDS: Record<string, Kind> = {
  query: 'string',
  filters: 'string',
  highlightPreTag: 'string',
  highlightPostTag: 'string',
  snippetEllipsisText: 'string',
  userToken: 'string',
  facetQuery: 'string',
  queryType: 'string',
  removeWordsIfNoResults: 'string',
  sortFacetValuesBy: 'string',
  aroundLatLng: 'string',
  page: 'int',
  hitsPerPage: 'int',
  offset: 'int',
  length: 'int',
  maxValuesPerFacet: 'int',
  maxFacetHits: 'int',
  minWordSizefor1Typo: 'int',
  minWordSizefor2Typos: 'int',
  getRankingInfo: 'bool',
  clickAnalytics: 'bool',
  analytics: 'bool',
  enablePersonalization: 'bool',
  synonyms: 'bool',
  advancedSyntax: 'bool',
  facetingAfterDistinct: 'bool',
  decompoundQuery: 'bool',
  attributesToRetrieve: 'strings',
  attributesToHighlight: 'strings',
  attributesToSnippet: 'strings',
  facets: 'strings',
  analyticsTags: 'strings',
  ruleContexts: 'strings',
  optionalWords: 'strings',
  restrictSearchableAttributes: 'strings',
  responseFields: 'strings',
  facetFilters: 'filterList',
  numericFilters: 'filterList',
  tagFilters: 'filterList',
  optionalFilters: 'filterList',
  typoTolerance: 'typo',
  ignorePlurals: 'plurals',
  removeStopWords: 'plurals',
  disableTypoToleranceOnWords: 'strings',
  queryLanguages: 'strings',
  distinct: 'distinct',
};

const RANGES: Record<string, [number, number]> = {
  page: [0, Number.MAX_SAFE_INTEGER],
  hitsPerPage: [0, 1000],
  offset: [0, Number.MAX_SAFE_INTEGER],
  length: [0, 1000],
  maxValuesPerFacet: [0, 1000],
  maxFacetHits: [1, 100],
  minWordSizefor1Typo: [1, 100],
  minWordSizefor2Typos: [1, 100],
};

function bad(name: string, expected: string, value: unknown): never {
  const shown = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  throw new EngineError(`Invalid value for parameter "${name}": expected ${expected}, got ${shown}`);
}

function parseJsonArray(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineError(`Invalid value for parameter "${name}": malformed JSON array`);
  }
}

function coerce(name: string, kind: Kind, value: unknown, fromString: boolean): unknown {
  switch (kind) {
    case 'any':
      return value;
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && name === 'query') return String(value);
      return bad(name, 'a string', value);
    case 'int': {
      let n = value;
      if (typeof n === 'string' && /^-?\d+$/.test(n.trim())) n = Number(n);
      if (typeof n !== 'number' || !Number.isInteger(n)) return bad(name, 'an integer', value);
      const [min, max] = RANGES[name] ?? [0, Number.MAX_SAFE_INTEGER];
      if (n < min || n > max) return bad(name, `an integer between ${min} and ${max}`, value);
      return n;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return bad(name, 'a boolean', value);
    case 'strings': {
      let v = value;
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) v = parseJsonArray(name, t);
        else return t === '' ? [] : t.split(',').map((s) => s.trim());
      }
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
      return bad(name, 'an array of strings', value);
    }
    case 'filterList': {
      let v = value;
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) v = parseJsonArray(name, t);
        else return t === '' ? [] : fromString ? t.split(',').map((s) => s.trim()) : [t];
      }
      if (
        Array.isArray(v) &&
        v.every((x) => typeof x === 'string' || (Array.isArray(x) && x.every((y) => typeof y === 'string')))
      )
        return v;
      return bad(name, 'a string or an array of strings and arrays of strings', value);
    }
    case 'typo':
      if (typeof value === 'boolean' || value === 'min' || value === 'strict') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      return bad(name, "true, false, 'min' or 'strict'", value);
    case 'plurals':
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (typeof value === 'string') return coerce(name, 'strings', value, fromString);
      if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return value;
      return bad(name, 'a boolean or an array of language codes', value);
    case 'distinct': {
      if (typeof value === 'boolean') return value;
      let n = value;
      if (n === 'true') return true;
      if (n === 'false') return false;
      if (typeof n === 'string' && /^\d+$/.test(n)) n = Number(n);
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 4) return n;
      return bad(name, 'a boolean or an integer between 0 and 4', value);
    }
  }
}

/**
 * Parses and validates search parameters given as a URL-encoded string (`query=chair&hitsPerPage=5`)
 * or an object (a JSON body, where a `params` string is merged under the other keys). Known
 * parameters are type-checked (400 naming the parameter); unknown ones pass through unchanged.
 * @example parseSearchParams('query=chair&page=2&facets=%5B%22brand%22%5D') // { query: 'chair', page: 2, facets: ['brand'] }
 */
export function parseSearchParams(input: string | Record<string, unknown> | null | undefined): SearchParams {
  const out: SearchParams = {};
  if (input === null || input === undefined) return out;
  if (typeof input === 'string') {
    const text = input.startsWith('?') ? input.slice(1) : input;
    let usp: URLSearchParams;
    try {
      usp = new URLSearchParams(text);
    } catch {
      throw new EngineError('Invalid params: malformed URL-encoded string');
    }
    for (const [name, value] of usp) {
      const kind = KINDS[name];
      out[name] = kind ? coerce(name, kind, value, true) : coerceUnknown(value);
    }
    return out;
  }
  if (typeof input !== 'object' || Array.isArray(input))
    throw new EngineError('Invalid params: expected an object or a URL-encoded string');
  if (input.params !== undefined) {
    if (typeof input.params !== 'string') bad('params', 'a URL-encoded string', input.params);
    Object.assign(out, parseSearchParams(input.params));
  }
  for (const [name, value] of Object.entries(input)) {
    if (name === 'params' || value === undefined) continue;
    const kind = KINDS[name];
    out[name] = kind && value !== null ? coerce(name, kind, value, false) : value;
  }
  return out;
}

/** Unknown parameters from a query string: JSON-looking values are decoded, others stay strings. */
function coerceUnknown(value: string): unknown {
  const t = value.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    try {
      return JSON.parse(t);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Encodes parameters as the URL-encoded `params` string of a search response (arrays and objects as
 * JSON, like the hosted API does).
 * @example encodeSearchParams({ query: 'a b', hitsPerPage: 5 }) // 'query=a%20b&hitsPerPage=5'
 */
export function encodeSearchParams(params: SearchParams): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return parts.join('&');
}
