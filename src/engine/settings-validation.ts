/**
 * Settings validation (400 with a message naming the setting), also applied to search parameters that override a
 * setting. `svc-search/engine` (`index.ts`) installs it in the engine (`installFeature('settingsValidation', …)`):
 * `Index.setSettings` validates with it. The browser worker imports it only when settings come from code, not from a verified
 * `.svcidx` (whose settings the service validated when it exported them).
 */
import { listOfValues, SEARCH_PARAMETER_FORMATS, SEARCH_PARAMETER_VALUES } from '../protocol/index.js';
import { EngineError } from './errors.js';
import { DEFAULT_RANKING, defaultSettings, type IndexSettings, RANK_FN } from './settings.js';

function fail(name: string, expected: string): never {
  throw new EngineError(`Invalid value for setting "${name}": expected ${expected}`);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

const CRITERIA = new Set(DEFAULT_RANKING);

type Validator = (name: string, value: unknown) => unknown;
const stringArray: Validator = (name, v) => (isStringArray(v) ? v : fail(name, 'an array of strings'));
const str: Validator = (name, v) => (typeof v === 'string' ? v : fail(name, 'a string'));
const int =
  (min: number, max: number): Validator =>
  (name, v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? v
      : fail(name, `an integer between ${min} and ${max}`);

/** A setting with a list of values (the protocol's, shared with the search parameter of that name). */
const oneOf: Validator = (name, v) => {
  const values = SEARCH_PARAMETER_VALUES[name]!;
  return values.includes(v as string) ? v : fail(name, listOfValues(values));
};

const VALIDATORS: Record<string, Validator> = {
  searchableAttributes: (name, v) => {
    const a = stringArray(name, v) as string[];
    for (const s of a) {
      if (!s.trim() || /^unordered\(\s*\)$/.test(s)) fail(name, 'attribute names (got an empty one)');
      if (/[()]/.test(s) && !/^unordered\([^()]+\)$/.test(s.trim()))
        fail(name, `attribute names or unordered(attribute) (got "${s}")`);
    }
    return a;
  },
  attributesForFaceting: (name, v) => {
    const a = stringArray(name, v) as string[];
    for (const s of a) {
      if (/[()]/.test(s) && !/^(searchable|filterOnly|afterDistinct)\([^()]+\)$/.test(s.trim())) {
        fail(
          name,
          `attribute names, searchable(attribute), filterOnly(attribute) or afterDistinct(attribute) (got "${s}")`,
        );
      }
    }
    return a;
  },
  customRanking: (name, v) => {
    const a = stringArray(name, v) as string[];
    for (const s of a)
      if (!RANK_FN.test(s.trim())) fail(name, `asc(attribute) or desc(attribute) entries (got "${s}")`);
    return a;
  },
  ranking: (name, v) => {
    const a = stringArray(name, v) as string[];
    for (const s of a) {
      if (!CRITERIA.has(s) && !RANK_FN.test(s.trim())) {
        fail(name, `criteria among ${DEFAULT_RANKING.join(', ')}, asc(attribute), desc(attribute) (got "${s}")`);
      }
    }
    return a;
  },
  attributesToRetrieve: stringArray,
  unretrievableAttributes: stringArray,
  attributesToHighlight: (name, v) => (v === null ? null : stringArray(name, v)),
  attributesToSnippet: (name, v) => {
    const a = stringArray(name, v) as string[];
    const [format, description] = SEARCH_PARAMETER_FORMATS.attributesToSnippet!;
    for (const s of a) if (!format.test(s)) fail(name, `${description} (got "${s}")`);
    return a;
  },
  highlightPreTag: str,
  highlightPostTag: str,
  snippetEllipsisText: str,
  hitsPerPage: int(0, 1000),
  maxValuesPerFacet: int(0, 1000),
  paginationLimitedTo: int(0, 20000),
  typoTolerance: (name, v) =>
    typeof v === 'boolean' || v === 'min' || v === 'strict' ? v : fail(name, "true, false, 'min' or 'strict'"),
  minWordSizefor1Typo: int(1, 100),
  minWordSizefor2Typos: int(1, 100),
  ignorePlurals: (name, v) =>
    typeof v === 'boolean' || isStringArray(v) ? v : fail(name, 'a boolean or an array of language codes'),
  distinct: (name, v) =>
    typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 4)
      ? v
      : fail(name, 'a boolean or an integer between 0 and 4'),
  attributeForDistinct: (name, v) => (v === null || typeof v === 'string' ? v : fail(name, 'a string')),
  queryType: oneOf,
  removeWordsIfNoResults: oneOf,
  optionalWords: (name, v) => (typeof v === 'string' ? [v] : stringArray(name, v)),
  advancedSyntax: (name, v) => (typeof v === 'boolean' ? v : fail(name, 'a boolean')),
  removeStopWords: (name, v) =>
    typeof v === 'boolean' || isStringArray(v) ? v : fail(name, 'a boolean or an array of language codes'),
  disableTypoToleranceOnWords: stringArray,
  queryLanguages: stringArray,
  indexLanguages: stringArray,
  decompoundQuery: (name, v) => (typeof v === 'boolean' ? v : fail(name, 'a boolean')),
  renderingContent: (name, v) => validateRenderingContent(v, name),
};

/** How `facetOrdering.values.<attribute>` orders the values not named in its `order`. */
export const SORT_REMAINING_BY = ['count', 'alpha', 'hidden'] as const;

/**
 * What the front end should show, as the hosted API's `renderingContent` (an extension beyond the API
 * documents, which do not name it): `facetOrdering.facets.order` (the facets to show, in order; `*` stands
 * for the others), `facetOrdering.values.<attribute>` (`order`, `sortRemainingBy`: `count`, `alpha` or
 * `hidden`, `hide`) and `redirect.url`. The engine only carries it: it is returned with the search answer,
 * the widgets apply it. An unknown key or a wrong type is a 400 naming its path.
 *
 * @example
 * validateRenderingContent({ facetOrdering: { facets: { order: ['brand', '*'] } } }) // the value, checked
 */
export function validateRenderingContent(value: unknown, name = 'renderingContent'): Record<string, unknown> {
  const object = (v: unknown, path: string, keys: readonly string[]) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(path, 'an object');
    for (const key of Object.keys(v as object)) {
      if (!keys.includes(key)) fail(`${path}.${key}`, `one of the keys ${keys.join(', ')} of ${path}`);
    }
    return v as Record<string, unknown>;
  };
  const strings = (v: unknown, path: string) => (isStringArray(v) ? v : fail(path, 'an array of strings'));
  const content = object(value, name, ['facetOrdering', 'redirect']);
  if (content.facetOrdering !== undefined) {
    const ordering = object(content.facetOrdering, `${name}.facetOrdering`, ['facets', 'values']);
    if (ordering.facets !== undefined) {
      const facets = object(ordering.facets, `${name}.facetOrdering.facets`, ['order']);
      if (facets.order !== undefined) strings(facets.order, `${name}.facetOrdering.facets.order`);
    }
    if (ordering.values !== undefined) {
      const values = object(ordering.values, `${name}.facetOrdering.values`, Object.keys(ordering.values ?? {}));
      for (const [attribute, spec] of Object.entries(values)) {
        const path = `${name}.facetOrdering.values.${attribute}`;
        const value = object(spec, path, ['order', 'sortRemainingBy', 'hide']);
        if (value.order !== undefined) strings(value.order, `${path}.order`);
        if (value.hide !== undefined) strings(value.hide, `${path}.hide`);
        if (value.sortRemainingBy !== undefined && !SORT_REMAINING_BY.includes(value.sortRemainingBy as never)) {
          fail(`${path}.sortRemainingBy`, `one of ${SORT_REMAINING_BY.join(', ')}`);
        }
      }
    }
  }
  if (content.redirect !== undefined) {
    const redirect = object(content.redirect, `${name}.redirect`, ['url']);
    if (typeof redirect.url !== 'string') fail(`${name}.redirect.url`, 'a string');
  }
  return content;
}

const TYPO_SIZES = ['minWordSizefor1Typo', 'minWordSizefor2Typos'] as const;

/**
 * A word needs `minWordSizefor1Typo` letters for one typo and `minWordSizefor2Typos` for two, so the first
 * may not be greater than the second. Checks the values `given` (settings or search parameters) over the
 * `current` ones (the index's settings): absent in `given` keeps the current value, `null` is the default
 * for a setting and the current value for a parameter, absent in `current` is the default. A value that is not an integer from 1 to 100 is left to its own validator.
 * Throws {@link EngineError} 400 naming both. Not part of `validateSettings` (it sees one partial update,
 * and settings stored before the rule must still load).
 * @example checkTypoWordSizes({ minWordSizefor1Typo: 9 }, { minWordSizefor2Typos: 8 }) // throws: 9 > 8
 */
export function checkTypoWordSizes(
  given: Record<string, unknown>,
  current: Record<string, unknown> = {},
  kind = 'setting',
): void {
  if (TYPO_SIZES.every((name) => given[name] === undefined || given[name] === null)) return;
  const defaults = defaultSettings();
  const [min1, min2] = TYPO_SIZES.map((name) => {
    const value =
      given[name] === null && kind === 'setting' ? defaults[name] : (given[name] ?? current[name] ?? defaults[name]);
    const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : undefined;
  });
  if (min1 !== undefined && min2 !== undefined && min1 > min2) {
    throw new EngineError(
      `Invalid values for ${kind}s "minWordSizefor1Typo" (${min1}) and "minWordSizefor2Typos" (${min2}): the 1-typo minimum cannot be greater than the 2-typos minimum`,
    );
  }
}

/** Names of the settings the engine validates and honours. */
export const KNOWN_SETTINGS = Object.keys(VALIDATORS);

/**
 * Validates a partial settings object; returns the normalised partial (a `null` value means "back to
 * the default"). Throws {@link EngineError} 400 naming the setting on a wrong type.
 * @example validateSettings({ hitsPerPage: 10 }) // { hitsPerPage: 10 }
 */
export function validateSettings(partial: unknown): Partial<IndexSettings> {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new EngineError('Invalid settings: expected a JSON object');
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(partial as Record<string, unknown>)) {
    // Object.hasOwn: `toString` or `constructor` is not a setting with a validator (Object.prototype's members are not).
    const validator = Object.hasOwn(VALIDATORS, name) ? VALIDATORS[name] : undefined;
    const valid =
      value === null && name !== 'attributesToHighlight' && name !== 'attributeForDistinct'
        ? null
        : validator
          ? validator(name, value)
          : value;
    Object.defineProperty(out, name, { value: valid, enumerable: true, writable: true, configurable: true });
  }
  return out as Partial<IndexSettings>;
}

/**
 * Validates a value given as a search parameter that overrides a setting (400 naming the parameter).
 * @example validateSettingValue('typoTolerance', 'min') // 'min'
 */
export function validateSettingValue(name: string, value: unknown, kind = 'parameter'): unknown {
  const validator = Object.hasOwn(VALIDATORS, name) ? VALIDATORS[name] : undefined;
  if (!validator) return value;
  try {
    return validator(name, value);
  } catch (error) {
    if (error instanceof EngineError) throw new EngineError(error.message.replace('setting', kind));
    throw error;
  }
}
