/**
 * Search parameters: parsing from a URL-encoded string or an object, with type validation (400 naming
 * the parameter), and encoding back into the `params` string of a response.
 */
import {
  listOfValues,
  SEARCH_PARAMETER_FORMATS,
  SEARCH_PARAMETER_RANGES,
  SEARCH_PARAMETER_VALUES,
  SEARCH_PARAMETERS,
  type SearchParameterType,
  type SearchParams,
} from '../protocol/index.js';
import { EngineError } from './errors.js';

export type { SearchParams };

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

/** Bounds of an integer parameter: its range in the protocol, else any integer from 0. */
function range(name: string): readonly [number, number] {
  return (
    (Object.hasOwn(SEARCH_PARAMETER_RANGES, name) && SEARCH_PARAMETER_RANGES[name]) || [0, Number.MAX_SAFE_INTEGER]
  );
}

/**
 * Whether `name` is a search parameter (of the protocol's table: the hosted API's parameters).
 *
 * @example
 * isSearchParameter('hitsPerPage') // true; isSearchParameter('hitPerPage') // false
 */
export function isSearchParameter(name: string): boolean {
  return Object.hasOwn(SEARCH_PARAMETERS, name);
}

/**
 * The type of a search parameter; an unknown name is a 400 naming it, as the hosted API answers (a misspelt
 * `hitPerPage` would otherwise be echoed in `params` as if it had been applied). `Object.hasOwn`: a name such
 * as `constructor` or `__proto__` is unknown, not Object.prototype's.
 */
function typeOf(name: string): SearchParameterType {
  if (!isSearchParameter(name)) throw new EngineError(`Unknown parameter: ${name}`);
  return SEARCH_PARAMETERS[name]!;
}

/** A string parameter with a list of values (`queryType`, …): one of them, as for the setting of that name. */
function oneOf(name: string, value: string): string {
  const values = Object.hasOwn(SEARCH_PARAMETER_VALUES, name) ? SEARCH_PARAMETER_VALUES[name] : undefined;
  return !values || values.includes(value) ? value : bad(name, listOfValues(values), value);
}

/** A list parameter whose entries have a form (`attributesToSnippet`: `attribute:N`), checked entry by entry. */
function formatted(name: string, list: string[]): string[] {
  const format = Object.hasOwn(SEARCH_PARAMETER_FORMATS, name) ? SEARCH_PARAMETER_FORMATS[name] : undefined;
  if (!format || list.every((entry) => format[0].test(entry))) return list;
  return bad(name, format[1], list);
}

function coerce(name: string, type: SearchParameterType, value: unknown, fromString: boolean): unknown {
  switch (type) {
    case 'json':
      // Checked where it is used (the geo areas by the index); from a URL-encoded string, JSON is decoded.
      return fromString && typeof value === 'string' ? decodeJson(value) : value;
    case 'string':
      if (typeof value === 'string') return oneOf(name, value);
      if (typeof value === 'number' && name === 'query') return String(value);
      return bad(name, 'a string', value);
    case 'integer': {
      let n = value;
      if (typeof n === 'string' && /^-?\d+$/.test(n.trim())) n = Number(n);
      if (typeof n !== 'number' || !Number.isInteger(n)) return bad(name, 'an integer', value);
      const [min, max] = range(name);
      if (n < min || n > max) return bad(name, `an integer between ${min} and ${max}`, value);
      return n;
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return bad(name, 'a number', value);
      return n;
    }
    case 'numberOrAll':
      return value === 'all' ? value : coerce(name, 'number', value, fromString);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return bad(name, 'a boolean', value);
    case 'strings': {
      let v = value;
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) v = parseJsonArray(name, t);
        else v = t === '' ? [] : t.split(',').map((s) => s.trim());
      }
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return formatted(name, v);
      return bad(name, 'an array of strings', value);
    }
    case 'filters': {
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
    case 'typoTolerance':
      if (typeof value === 'boolean' || value === 'min' || value === 'strict') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      return bad(name, "true, false, 'min' or 'strict'", value);
    case 'booleanOrStrings':
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (typeof value === 'string') return coerce(name, 'strings', value, fromString);
      if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return value;
      return bad(name, 'a boolean or an array of language codes', value);
    case 'booleanOrInteger': {
      if (typeof value === 'boolean') return value;
      let n = value;
      if (n === 'true') return true;
      if (n === 'false') return false;
      if (typeof n === 'string' && /^\d+$/.test(n)) n = Number(n);
      const [min, max] = range(name);
      if (typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max) return n;
      return bad(name, `a boolean or an integer between ${min} and ${max}`, value);
    }
  }
}

/**
 * Parses and validates search parameters given as a URL-encoded string (`query=chair&hitsPerPage=5`)
 * or an object (a JSON body, where a `params` string is merged under the other keys). Parameters of the
 * protocol's table (`SEARCH_PARAMETERS`) are type-checked (400 naming the parameter); any other name is a
 * 400 `Unknown parameter: <name>`.
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
    for (const [name, value] of usp) out[name] = coerce(name, typeOf(name), value, true);
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
    const type = typeOf(name);
    out[name] = value !== null ? coerce(name, type, value, false) : value;
  }
  return out;
}

/** `json` parameters from a query string: JSON-looking values are decoded, others stay strings. */
function decodeJson(value: string): unknown {
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

/** Lone UTF-16 surrogates replaced by U+FFFD (what `String.prototype.toWellFormed` does, ES2024). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');

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
    // A lone UTF-16 surrogate (JSON allows `"\ud800"`) has no UTF-8 form: it is encoded as U+FFFD
    // rather than making encodeURIComponent throw.
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(wellFormed(text))}`);
  }
  return parts.join('&');
}
