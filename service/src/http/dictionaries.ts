/**
 * Dictionaries section of document 1: custom stop words, plurals and compounds, and the dictionary
 * settings. Every call needs credentials; writes need `editSettings`, reads `settings` (the document does
 * not name the right; these are the hosted API family's). Entries are checked field by field against
 * the document's entry table (`dictionaries/validate.ts`); the search and the language counts:
 * `dictionaries/search.ts`.
 *
 * - `POST /1/dictionaries/{dictionaryName}/batch` → `{taskID, updatedAt}` (403 above the quota, 413 above 10 MB)
 * - `GET|POST /1/dictionaries/{dictionaryName}/search` → `{hits, nbHits, page, nbPages}`
 * - `PUT /1/dictionaries/*\/settings` → `{taskID, updatedAt}`; `GET` → `{disableStandardEntries: {stopwords}}`
 * - `GET /1/dictionaries/*\/languages` → `{[language]: {plurals, stopwords, compounds}}`
 *
 * Custom entries change searches on every index at once (see `docs/notes/engine.md`, Dictionaries).
 */
import { Hono } from 'hono';
import { languageCounts, searchEntries } from '../dictionaries/search.js';
import { dictionaryNamed, parseBatch, parseSearch, parseSettings } from '../dictionaries/validate.js';
import type { Services } from '../services.js';
import { DEFAULT_MAX_BODY_BYTES, readJson } from './body.js';
import { authorize, isTransportParameter } from './request.js';

/** Dictionary batch payload limit (document 1, Limits: 10 MB, 413 above). */
const DICTIONARY_MAX_BYTES = DEFAULT_MAX_BODY_BYTES;

export function dictionaryRoutes(services: Services): Hono {
  const app = new Hono();
  const { dictionaries } = services;
  const engine = dictionaries.engine;
  const now = () => new Date().toISOString();

  app.post('/1/dictionaries/:dictionaryName/batch', async (c) => {
    authorize(services, c, 'editSettings');
    const name = dictionaryNamed(c.req.param('dictionaryName'));
    const { clearExisting, operations } = parseBatch(name, await readJson(c, DICTIONARY_MAX_BYTES));
    const taskID = await dictionaries.batch(name, operations, clearExisting);
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/dictionaries/:dictionaryName/search', async (c) => {
    authorize(services, c, 'settings');
    const name = dictionaryNamed(c.req.param('dictionaryName'));
    return c.json(searchEntries(engine, name, parseSearch(name, await readJson(c))));
  });

  app.get('/1/dictionaries/:dictionaryName/search', (c) => {
    authorize(services, c, 'settings');
    const name = dictionaryNamed(c.req.param('dictionaryName'));
    const input: Record<string, unknown> = {};
    for (const [key, value] of new URL(c.req.url).searchParams) {
      if (isTransportParameter(key)) continue; // the credentials and the client's agent
      // the query string carries text: integers are read as numbers, anything else stays text (and fails the schema)
      input[key] = (key === 'page' || key === 'hitsPerPage') && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    }
    return c.json(searchEntries(engine, name, parseSearch(name, input)));
  });

  app.put('/1/dictionaries/:all{\\*}/settings', async (c) => {
    authorize(services, c, 'editSettings');
    const taskID = await dictionaries.setDisabledStopwords(parseSettings(await readJson(c)));
    return c.json({ taskID, updatedAt: now() });
  });

  app.get('/1/dictionaries/:all{\\*}/settings', (c) => {
    authorize(services, c, 'settings');
    const stopwords = Object.fromEntries(engine.disabledStandardStopwords().map((language) => [language, true]));
    return c.json({ disableStandardEntries: { stopwords } });
  });

  app.get('/1/dictionaries/:all{\\*}/languages', (c) => {
    authorize(services, c, 'settings');
    return c.json(languageCounts(engine));
  });
  return app;
}
