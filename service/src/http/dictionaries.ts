/**
 * Dictionaries section of document 1: custom stop words, plurals and compounds, and the dictionary
 * settings. Every call needs credentials; writes need `editSettings`, reads `settings` (the document does
 * not name the right; these are the hosted API family's). Entries are checked field by field against
 * the document's entry table with zod strict schemas (400 naming the first missing, unexpected or wrong
 * field); the language must be one the dictionary exists for.
 *
 * - `POST /1/dictionaries/{dictionaryName}/batch` → `{taskID, updatedAt}` (403 above the quota, 413 above 10 MB)
 * - `GET|POST /1/dictionaries/{dictionaryName}/search` → `{hits, nbHits, page, nbPages}`
 * - `PUT /1/dictionaries/*\/settings` → `{taskID, updatedAt}`; `GET` → `{disableStandardEntries: {stopwords}}`
 * - `GET /1/dictionaries/*\/languages` → `{[language]: {plurals, stopwords, compounds}}`
 *
 * Custom entries change searches on every index at once (see `docs/notes/engine.md`, Dictionaries).
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import {
  DICTIONARY_NAMES,
  LANGUAGES,
  supportsLanguage,
  tokenize,
  type DictionaryEntry,
  type DictionaryName,
  type EntryOf,
} from '../engine/index.js';
import type { DictionaryOperation } from '../storage/dictionaries.js';
import { isTransportParameter } from './auth.js';
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';

/** Dictionary batch payload limit (document 1, Limits: 10 MB, 413 above). */
export const DICTIONARY_MAX_BYTES = DEFAULT_MAX_BODY_BYTES;

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
function schemaError(error: z.ZodError, where: string, unexpected: (key: string) => string): HttpError {
  const issue = error.issues[0]!;
  const at = `${where}${pathOf(issue.path)}`.replace(/^\./, '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    return new HttpError(400, `${at ? `${at}.` : ''}${key} is unexpected: ${unexpected(key)}`);
  }
  return new HttpError(400, `${at || 'The body'} ${issue.message}`);
}

const FIELDS: Record<DictionaryName, string> = {
  stopwords: 'a stop word entry has objectID, language, word and state',
  plurals: 'a plural entry has objectID, language and words',
  compounds: 'a compound entry has objectID, language, word and decomposition',
};

/** The dictionary of the path, or 400 for an unknown one. */
function dictionaryOf(c: Context): DictionaryName {
  const name = c.req.param('dictionaryName') ?? '';
  if (!(DICTIONARY_NAMES as readonly string[]).includes(name)) {
    throw new HttpError(
      400,
      `Unknown dictionary ${JSON.stringify(name)}: the dictionaries are stopwords, plurals and compounds`,
    );
  }
  return name as DictionaryName;
}

function asBody(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'The body must be a JSON object');
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
      throw new HttpError(400, `${where} must be an object {action, body}`);
    const request = REQUEST_SCHEMA.safeParse(raw);
    if (!request.success) throw schemaError(request.error, where, () => 'a request has action and body');
    const entry = request.data.body;
    if (entry === undefined) throw new HttpError(400, `${where}.body is required`);
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new HttpError(400, `${where}.body must be an object${got(entry)}`);
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

/** The normalised words of an entry (what a dictionary search matches). */
function entryWords(entry: DictionaryEntry): string[] {
  const texts =
    'words' in entry ? entry.words : 'decomposition' in entry ? [entry.word, ...entry.decomposition] : [entry.word];
  return texts.flatMap((text) => tokenize(text));
}

function sortKey(entry: DictionaryEntry): string {
  return ('words' in entry ? (entry.words[0] ?? '') : entry.word).toLowerCase();
}

export function register(app: Hono, ctx: ServiceContext): void {
  const { catalog, dictionaries: store } = internalsOf(ctx);
  const now = () => new Date().toISOString();

  app.post('/1/dictionaries/:dictionaryName/batch', async (c) => {
    ctx.authorize(c, 'editSettings');
    const name = dictionaryOf(c);
    const { clearExisting, operations } = parseBatch(name, await ctx.readJson(c, DICTIONARY_MAX_BYTES));
    const { taskID } = catalog.write('*', `dictionaries:${name}`, () => store.batch(name, operations, clearExisting));
    return c.json({ taskID, updatedAt: now() });
  });

  const search = (c: Context, name: DictionaryName, input: Record<string, unknown>) => {
    const parsed = SEARCH_SCHEMA(name).safeParse(input);
    if (!parsed.success)
      throw schemaError(parsed.error, '', () => 'the parameters are query, page, hitsPerPage and language');
    const { query, page, hitsPerPage, language } = parsed.data;
    const queryWords = tokenize(query);
    const matching = [...store.dictionaries.entries(name).values()]
      .filter((entry) => language === undefined || entry.language === language)
      .filter((entry) => {
        if (queryWords.length === 0) return true;
        const words = entryWords(entry);
        return queryWords.every((queryWord) => words.some((w) => w.startsWith(queryWord)));
      })
      .sort(
        (a, b) =>
          a.language.localeCompare(b.language) ||
          sortKey(a).localeCompare(sortKey(b)) ||
          (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0),
      );
    const from = page * hitsPerPage;
    return c.json({
      hits: matching.slice(from, from + hitsPerPage),
      nbHits: matching.length,
      page,
      nbPages: Math.ceil(matching.length / hitsPerPage),
    });
  };

  app.post('/1/dictionaries/:dictionaryName/search', async (c) => {
    ctx.authorize(c, 'settings');
    const name = dictionaryOf(c);
    return search(c, name, asBody(await ctx.readJson(c)));
  });

  app.get('/1/dictionaries/:dictionaryName/search', (c) => {
    ctx.authorize(c, 'settings');
    const name = dictionaryOf(c);
    const input: Record<string, unknown> = {};
    for (const [key, value] of new URL(c.req.url).searchParams) {
      if (isTransportParameter(key)) continue; // the credentials and the client's agent
      // the query string carries text: integers are read as numbers, anything else stays text (and fails the schema)
      input[key] = (key === 'page' || key === 'hitsPerPage') && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    }
    return search(c, name, input);
  });

  app.put('/1/dictionaries/:all{\\*}/settings', async (c) => {
    ctx.authorize(c, 'editSettings');
    const parsed = SETTINGS_SCHEMA.safeParse(asBody(await ctx.readJson(c)));
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
        throw new HttpError(
          400,
          `disableStandardEntries.stopwords.${language}: not a supported language code (such as en, fr or de)`,
        );
      }
    }
    const { taskID } = catalog.write('*', 'dictionaries:settings', () => {
      if (change !== undefined) store.setDisabledStopwords(change);
    });
    return c.json({ taskID, updatedAt: now() });
  });

  app.get('/1/dictionaries/:all{\\*}/settings', (c) => {
    ctx.authorize(c, 'settings');
    const stopwords = Object.fromEntries(
      store.dictionaries.disabledStandardStopwords().map((language) => [language, true]),
    );
    return c.json({ disableStandardEntries: { stopwords } });
  });

  app.get('/1/dictionaries/:all{\\*}/languages', (c) => {
    ctx.authorize(c, 'settings');
    const counts = Object.fromEntries(
      DICTIONARY_NAMES.map((name) => {
        const byLanguage = new Map<string, number>();
        for (const entry of store.dictionaries.entries(name).values())
          byLanguage.set(entry.language, (byLanguage.get(entry.language) ?? 0) + 1);
        return [name, byLanguage];
      }),
    ) as Record<DictionaryName, Map<string, number>>;
    const answer: Record<string, Record<DictionaryName, { nbCustomEntries: number } | null>> = {};
    for (const language of LANGUAGES) {
      const one = (name: DictionaryName) =>
        supportsLanguage(name, language) ? { nbCustomEntries: counts[name].get(language) ?? 0 } : null;
      answer[language] = { plurals: one('plurals'), stopwords: one('stopwords'), compounds: one('compounds') };
    }
    return c.json(answer);
  });
}
