/**
 * Dictionary request bodies (document 1, Dictionaries), checked field by field against the document's entry
 * table with zod strict schemas: 400 naming the first missing, unexpected or wrong field; the language must be
 * one the dictionary exists for.
 */
import { z } from 'zod';
import { DICTIONARY_NAMES, type DictionaryName, type EntryOf, supportsLanguage } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { DictionaryOperation } from './dictionaries.js';

const ACTIONS = ['addEntry', 'deleteEntry'] as const;

/** `, got …`: what the caller sent. */
const got = (input: unknown) => `, got ${JSON.stringify(input) ?? 'undefined'}`;
/** A field's message: "is required" when absent, else what it must be. */
const must = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${what}${got(issue.input)}`;

const word = z.string({ error: must('a non-empty string') }).min(1, { error: must('a non-empty string') });
const wordList = (min: number) =>
  z
    .array(word, { error: must(min > 0 ? 'a non-empty array of strings' : 'an array of strings') })
    .min(min, { error: must('a non-empty array of strings') });
const languageOf = (name: DictionaryName) =>
  z.string({ error: must('a language code') }).refine((code) => supportsLanguage(name, code), {
    error: (issue) =>
      name === 'compounds'
        ? `must be a language with a compounds dictionary (da, de, fi, nb, nl, no, sv)${got(issue.input)}`
        : `must be a supported language code such as en, fr or de${got(issue.input)}`,
  });

/** The entry table of document 1, one strict schema per dictionary (unexpected keys are refused). */
const ENTRY_SCHEMAS = {
  stopwords: z.strictObject({
    objectID: word,
    language: languageOf('stopwords'),
    word,
    state: z.enum(['enabled', 'disabled'], { error: must('enabled or disabled') }).default('enabled'),
  }),
  plurals: z.strictObject({ objectID: word, language: languageOf('plurals'), words: wordList(1) }),
  compounds: z.strictObject({ objectID: word, language: languageOf('compounds'), word, decomposition: wordList(0) }),
} satisfies Record<DictionaryName, z.ZodType>;
const DELETE_SCHEMA = z.strictObject({ objectID: word });

const BATCH_SCHEMA = z.strictObject({
  requests: z.array(z.unknown(), { error: must('an array of {action, body}') }),
  clearExistingDictionaryEntries: z.boolean({ error: must('a boolean') }).default(false),
});
const REQUEST_SCHEMA = z.strictObject({
  action: z.enum(ACTIONS, { error: must('addEntry or deleteEntry') }),
  body: z.unknown().optional(),
});
const int = (min: number, max: number) =>
  z
    .number({ error: must(`an integer from ${min} to ${max}`) })
    .int({ error: must(`an integer from ${min} to ${max}`) })
    .min(min, { error: must(`an integer from ${min} to ${max}`) })
    .max(max, { error: must(`an integer from ${min} to ${max}`) });
const SEARCH_SCHEMA = (name: DictionaryName) =>
  z.strictObject({
    query: z.string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required (a string; an empty one lists every entry)'
          : `must be a string${got(issue.input)}`,
    }),
    page: int(0, Number.MAX_SAFE_INTEGER).default(0),
    hitsPerPage: int(1, 1000).default(20),
    language: languageOf(name).optional(),
  });
const SETTINGS_SCHEMA = z.strictObject({
  disableStandardEntries: z.strictObject(
    {
      stopwords: z
        .record(z.string(), z.boolean({ error: must('a boolean') }), {
          error: must('an object of language code → boolean, or null'),
        })
        .nullable()
        .optional(),
    },
    { error: must('an object with `stopwords`') },
  ),
});

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/**
 * The first issue of a failed parse as a 400 naming the field (`requests[0].body.word is required`).
 * `where` is the path of the parsed value ('' for the body itself).
 */
function schemaError(error: z.ZodError, where: string, unexpected: (key: string) => string): ServiceError {
  const issue = error.issues[0]!;
  const at = `${where}${pathOf(issue.path)}`.replace(/^\./, '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    return new ServiceError(400, `${at ? `${at}.` : ''}${key} is unexpected: ${unexpected(key)}`);
  }
  return new ServiceError(400, `${at || 'The body'} ${issue.message}`);
}

const FIELDS: Record<DictionaryName, string> = {
  stopwords: 'a stop word entry has objectID, language, word and state',
  plurals: 'a plural entry has objectID, language and words',
  compounds: 'a compound entry has objectID, language, word and decomposition',
};

/**
 * The dictionary a path names, or 400 for an unknown one.
 *
 * @example
 * dictionaryNamed('stopwords') // 'stopwords'
 */
export function dictionaryNamed(name: string): DictionaryName {
  if (!(DICTIONARY_NAMES as readonly string[]).includes(name)) {
    throw new ServiceError(
      400,
      `Unknown dictionary ${JSON.stringify(name)}: the dictionaries are stopwords, plurals and compounds`,
    );
  }
  return name as DictionaryName;
}

function asBody(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ServiceError(400, 'The body must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Checks a batch body against the document's schema and returns its operations.
 * @example
 * parseBatch('stopwords', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: 'a' } }] })
 * // { clearExisting: false, operations: [{ action: 'addEntry', entry: { objectID: 'a', language: 'en', word: 'a', state: 'enabled' } }] }
 */
export function parseBatch<N extends DictionaryName>(
  name: N,
  input: unknown,
): { clearExisting: boolean; operations: Array<DictionaryOperation<N>> } {
  const body = BATCH_SCHEMA.safeParse(asBody(input));
  if (!body.success)
    throw schemaError(body.error, '', () => 'a dictionary batch has requests and clearExistingDictionaryEntries');
  const operations = body.data.requests.map((raw, i): DictionaryOperation<N> => {
    const where = `requests[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new ServiceError(400, `${where} must be an object {action, body}`);
    const request = REQUEST_SCHEMA.safeParse(raw);
    if (!request.success) throw schemaError(request.error, where, () => 'a request has action and body');
    const entry = request.data.body;
    if (entry === undefined) throw new ServiceError(400, `${where}.body is required`);
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new ServiceError(400, `${where}.body must be an object${got(entry)}`);
    if (request.data.action === 'deleteEntry') {
      const parsed = DELETE_SCHEMA.safeParse(entry);
      if (!parsed.success)
        throw schemaError(parsed.error, `${where}.body`, () => 'the body of deleteEntry has objectID only');
      return { action: 'deleteEntry', objectID: parsed.data.objectID };
    }
    const parsed = (ENTRY_SCHEMAS[name] as z.ZodType).safeParse(entry);
    if (!parsed.success) throw schemaError(parsed.error, `${where}.body`, () => FIELDS[name]);
    return { action: 'addEntry', entry: parsed.data as EntryOf[N] };
  });
  return { clearExisting: body.data.clearExistingDictionaryEntries, operations };
}

/** The dictionary search parameters. */
export type DictionarySearch = z.output<ReturnType<typeof SEARCH_SCHEMA>>;

/**
 * Checks a dictionary search's parameters (the body, or the query string with integers read as numbers).
 *
 * @example
 * parseSearch('stopwords', { query: 'the' }) // { query: 'the', page: 0, hitsPerPage: 20 }
 */
export function parseSearch(name: DictionaryName, input: unknown): DictionarySearch {
  const parsed = SEARCH_SCHEMA(name).safeParse(asBody(input));
  if (!parsed.success)
    throw schemaError(parsed.error, '', () => 'the parameters are query, page, hitsPerPage and language');
  return parsed.data;
}

/**
 * Checks a dictionary settings body; returns the stop word languages to disable or enable (`null`: reset).
 *
 * @example
 * parseSettings({ disableStandardEntries: { stopwords: { fr: true } } }) // { fr: true }
 */
export function parseSettings(input: unknown): Record<string, boolean> | null | undefined {
  const parsed = SETTINGS_SCHEMA.safeParse(asBody(input));
  if (!parsed.success) {
    throw schemaError(parsed.error, '', (key) =>
      key === 'plurals' || key === 'compounds'
        ? 'only the standard stop words can be disabled (disableStandardEntries.stopwords)'
        : 'the dictionary settings are disableStandardEntries.stopwords',
    );
  }
  const change = parsed.data.disableStandardEntries.stopwords;
  for (const language of Object.keys(change ?? {})) {
    if (!supportsLanguage('stopwords', language)) {
      throw new ServiceError(
        400,
        `disableStandardEntries.stopwords.${language}: not a supported language code (such as en, fr or de)`,
      );
    }
  }
  return change;
}
