/**
 * The Query Suggestions configuration of document 2 ("Query Suggestions configuration"): what a create
 * or update body may hold, checked field by field (422 naming the field), with the defaults of the
 * document filled in, and the shape read answers show (`minHit`, `replicas`).
 */
import { LANGUAGES } from '../engine/index.js';
import { HttpError } from '../http/errors.js';
import { validateIndexName } from '../storage/catalog.js';

/** "Query Suggestions configurations: 100 per application". */
export const MAX_CONFIGS = 100;
/** `facets[].amount` is the number of facet values kept; the engine counts at most 1,000 per facet. */
export const MAX_FACET_AMOUNT = 1000;

export interface SuggestionFacet {
  attribute: string;
  amount: number;
}

/** One `sourceIndex`, every field present (defaults filled). */
export interface SourceIndexConfig {
  indexName: string;
  /** Also read the popular searches of the source index's replicas. */
  replicas: boolean;
  analyticsTags: string[];
  facets: SuggestionFacet[];
  /** 0 = no minimum (the document's default). */
  minHits: number;
  /** 0 = no minimum (the document's default). */
  minLetters: number;
  generate: string[][];
  external: string[];
}

/** A configuration as stored, every field present. */
export interface QuerySuggestionsConfig {
  indexName: string;
  sourceIndices: SourceIndexConfig[];
  languages: string[];
  exclude: string[];
}

/** Attributes of every suggestion record: a source index of one of these names would overwrite them. */
export const RESERVED_ATTRIBUTES: readonly string[] = ['objectID', 'query', 'popularity', 'nb_words'];

const TOP_FIELDS = new Set(['indexName', 'sourceIndices', 'languages', 'exclude', 'appID']);
const SOURCE_FIELDS = new Set([
  'indexName',
  'replicas',
  'analyticsTags',
  'facets',
  'minHits',
  'minHit',
  'minLetters',
  'generate',
  'external',
]);
const LANGUAGE_SET = new Set(LANGUAGES);

function invalid(field: string, message: string): never {
  throw new HttpError(422, `${field}: ${message}`);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    invalid(field, `must be an object, got ${shown(value)}`);
  return value as Record<string, unknown>;
}

/** A list field: absent or `null` = the default `[]`. */
function listAt(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(field, `must be a list, got ${shown(value)}`);
  return value;
}

function stringAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    invalid(field, `must be a non-empty string, got ${shown(value)}`);
  return value;
}

function indexNameAt(value: unknown, field: string): string {
  if (value === undefined) invalid(field, 'is required');
  const name = stringAt(value, field);
  try {
    validateIndexName(name);
  } catch (error) {
    invalid(field, (error as Error).message);
  }
  return name;
}

function countAt(value: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
    invalid(field, `must be ${range}, got ${shown(value)}`);
  }
  return value;
}

function unexpected(object: Record<string, unknown>, allowed: Set<string>, field: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key))
      invalid(
        `${field}${field ? '.' : ''}${key}`,
        `is not a field of ${field || 'a Query Suggestions configuration'} (${[...allowed].filter((name) => name !== 'appID' && name !== 'minHit').join(', ')})`,
      );
  }
}

function parseSource(value: unknown, field: string): SourceIndexConfig {
  const source = objectAt(value, field);
  unexpected(source, SOURCE_FIELDS, field);
  const indexName = indexNameAt(source.indexName, `${field}.indexName`);
  // Read answers call it `minHit`; both names are accepted so a read answer can be sent back as it is.
  if (source.minHits !== undefined && source.minHit !== undefined && source.minHits !== source.minHit) {
    invalid(`${field}.minHits`, `differs from ${field}.minHit (${shown(source.minHit)}); send one of them`);
  }
  const minHitsValue = source.minHits ?? source.minHit;
  const minHitsField = source.minHits !== undefined ? `${field}.minHits` : `${field}.minHit`;
  if (source.replicas !== undefined && typeof source.replicas !== 'boolean')
    invalid(`${field}.replicas`, `must be true or false, got ${shown(source.replicas)}`);
  const facets = listAt(source.facets, `${field}.facets`).map((item, i) => {
    const at = `${field}.facets[${i}]`;
    const facet = objectAt(item, at);
    unexpected(facet, new Set(['attribute', 'amount']), at);
    if (facet.attribute === undefined) invalid(`${at}.attribute`, 'is required');
    if (facet.amount === undefined)
      invalid(`${at}.amount`, 'is required (the number of facet values kept for each suggestion)');
    return {
      attribute: stringAt(facet.attribute, `${at}.attribute`),
      amount: countAt(facet.amount, `${at}.amount`, 1, MAX_FACET_AMOUNT),
    };
  });
  const attributes = new Set<string>();
  facets.forEach((facet, i) => {
    if (attributes.has(facet.attribute))
      invalid(`${field}.facets[${i}].attribute`, `${shown(facet.attribute)} is listed twice`);
    attributes.add(facet.attribute);
  });
  const generate = listAt(source.generate, `${field}.generate`).map((item, i) => {
    const at = `${field}.generate[${i}]`;
    if (!Array.isArray(item) || item.length === 0)
      invalid(at, `must be a non-empty list of facet attributes, got ${shown(item)}`);
    return item.map((attribute, j) => stringAt(attribute, `${at}[${j}]`));
  });
  return {
    indexName,
    replicas: (source.replicas as boolean | undefined) ?? false,
    analyticsTags: listAt(source.analyticsTags, `${field}.analyticsTags`).map((tag, i) =>
      stringAt(tag, `${field}.analyticsTags[${i}]`),
    ),
    facets,
    minHits: minHitsValue === undefined || minHitsValue === null ? 0 : countAt(minHitsValue, minHitsField),
    minLetters:
      source.minLetters === undefined || source.minLetters === null
        ? 0
        : countAt(source.minLetters, `${field}.minLetters`),
    generate,
    external: listAt(source.external, `${field}.external`).map((name, i) =>
      indexNameAt(name, `${field}.external[${i}]`),
    ),
  };
}

/**
 * Checks a create (`POST /1/configs`) or update (`PUT /1/configs/{indexName}`) body and fills the
 * defaults. 400 when the body is not a JSON object; 422 naming the first invalid field. For an update,
 * `pathIndexName` is the index of the path: the body's `indexName` may be left out, and must match it
 * when given.
 *
 * @example
 * parseConfig({ indexName: 'products_qs', sourceIndices: [{ indexName: 'products', minHits: 1 }] })
 * // { indexName: 'products_qs', sourceIndices: [{ indexName: 'products', replicas: false, analyticsTags: [],
 * //   facets: [], minHits: 1, minLetters: 0, generate: [], external: [] }], languages: [], exclude: [] }
 */
export function parseConfig(body: unknown, pathIndexName?: string): QuerySuggestionsConfig {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object: a Query Suggestions configuration');
  }
  const input = body as Record<string, unknown>;
  unexpected(input, TOP_FIELDS, '');
  let indexName: string;
  if (pathIndexName !== undefined) {
    indexName = pathIndexName;
    if (input.indexName !== undefined && input.indexName !== pathIndexName) {
      invalid('indexName', `${shown(input.indexName)} differs from the index of the path (${shown(pathIndexName)})`);
    }
  } else {
    indexName = indexNameAt(input.indexName, 'indexName');
  }
  if (input.sourceIndices === undefined) invalid('sourceIndices', 'is required');
  if (!Array.isArray(input.sourceIndices) || input.sourceIndices.length === 0) {
    invalid('sourceIndices', `must be a non-empty list of source indices, got ${shown(input.sourceIndices)}`);
  }
  const sourceIndices = input.sourceIndices.map((source, i) => parseSource(source, `sourceIndices[${i}]`));
  const seen = new Set<string>();
  sourceIndices.forEach((source, i) => {
    if (seen.has(source.indexName))
      invalid(`sourceIndices[${i}].indexName`, `${shown(source.indexName)} is listed twice`);
    seen.add(source.indexName);
    if (RESERVED_ATTRIBUTES.includes(source.indexName)) {
      invalid(
        `sourceIndices[${i}].indexName`,
        `${shown(source.indexName)} is an attribute of every suggestion record (${RESERVED_ATTRIBUTES.join(', ')}); the records name each source index`,
      );
    }
    // The suggestions index is rewritten at each build: reading from it would feed suggestions on themselves.
    if (source.indexName === indexName)
      invalid(
        `sourceIndices[${i}].indexName`,
        `the suggestions index ${shown(indexName)} cannot be one of its own source indices`,
      );
    source.external.forEach((name, j) => {
      if (name === indexName)
        invalid(
          `sourceIndices[${i}].external[${j}]`,
          `the suggestions index ${shown(indexName)} cannot be one of its own external indices`,
        );
    });
  });
  const languages = listAt(input.languages, 'languages').map((language, i) => {
    const code = stringAt(language, `languages[${i}]`);
    if (!LANGUAGE_SET.has(code))
      invalid(`languages[${i}]`, `${shown(code)} is not a supported language code (ISO 639-1, e.g. "en")`);
    return code;
  });
  const exclude = listAt(input.exclude, 'exclude').map((entry, i) => stringAt(entry, `exclude[${i}]`));
  return { indexName, sourceIndices, languages: [...new Set(languages)], exclude };
}

/**
 * A configuration as the read endpoints answer it: `appID`, and each source index with `minHit` (the
 * document's read name) and `replicas`, every default shown.
 *
 * @example
 * configAnswer(config, 'SVCLOCAL') // { appID: 'SVCLOCAL', indexName, sourceIndices: [{ …, minHit: 0, … }], … }
 */
export function configAnswer(config: QuerySuggestionsConfig, appID: string): Record<string, unknown> {
  return {
    appID,
    indexName: config.indexName,
    sourceIndices: config.sourceIndices.map((source) => ({
      indexName: source.indexName,
      replicas: source.replicas,
      analyticsTags: [...source.analyticsTags],
      facets: source.facets.map((facet) => ({ ...facet })),
      minHit: source.minHits,
      minLetters: source.minLetters,
      generate: source.generate.map((list) => [...list]),
      external: [...source.external],
    })),
    languages: [...config.languages],
    exclude: [...config.exclude],
  };
}
