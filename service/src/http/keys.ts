/**
 * API keys section of document 1: application keys (`/1/keys`) and index-specific keys
 * (`/1/indexes/{indexName}/keys`). Keys created here work at once with their acl, indexes, validity,
 * referers, queryParameters, maxHitsPerQuery and maxQueriesPerIPPerHour.
 */
import type { Hono } from 'hono';
import { ALL_RIGHTS, type Right, type ServiceContext } from '../context.js';
import { parseFilters, parseSearchParams } from '../engine/index.js';
import type { KeyFields, StoredKey } from '../storage/keys.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';

const iso = (ms: number) => new Date(ms).toISOString();

function integerField(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new HttpError(400, `\`${name}\` must be a non-negative integer`);
  return value;
}

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new HttpError(400, `\`${name}\` must be an array of strings`);
  return value as string[];
}

/**
 * The parameters a key forces must be search parameters of the right types with well-formed filters:
 * a misspelt name would otherwise be stored and make every search of the key a 400.
 */
function checkForcedParameters(queryParameters: string): void {
  try {
    const parsed = parseSearchParams(queryParameters);
    if (typeof parsed.filters === 'string' && parsed.filters.trim()) parseFilters(parsed.filters);
  } catch (error) {
    throw new HttpError(400, `\`queryParameters\`: ${(error as Error).message}`);
  }
}

/**
 * Validates the body of a key create/update (every field optional).
 *
 * @example
 * keyFields({ acl: ['search'], validity: 3600 }) // { acl: ['search'], validity: 3600 }
 */
export function keyFields(body: unknown): KeyFields {
  const input = asObject(body, 'The key');
  const fields: KeyFields = {};
  for (const [name, value] of Object.entries(input)) {
    switch (name) {
      case 'acl': {
        const acl = stringList(value, 'acl');
        const unknown = acl.filter((right) => !ALL_RIGHTS.includes(right as Right));
        if (unknown.length > 0) throw new HttpError(400, `Unknown acl value(s): ${unknown.join(', ')}`);
        fields.acl = acl as Right[];
        break;
      }
      case 'description':
        if (typeof value !== 'string') throw new HttpError(400, '`description` must be a string');
        fields.description = value;
        break;
      case 'validity':
        fields.validity = integerField(value, name);
        break;
      case 'maxHitsPerQuery':
        fields.maxHitsPerQuery = integerField(value, name);
        break;
      case 'maxQueriesPerIPPerHour':
        fields.maxQueriesPerIPPerHour = integerField(value, name);
        break;
      case 'queryParameters':
        if (typeof value !== 'string') throw new HttpError(400, '`queryParameters` must be a URL-encoded string');
        checkForcedParameters(value);
        fields.queryParameters = value;
        break;
      case 'referers':
        fields.referers = stringList(value, 'referers');
        break;
      case 'indexes':
        fields.indexes = stringList(value, 'indexes');
        break;
      case 'value':
      case 'createdAt':
        break; // read-only fields echoed back by clients
      default:
        throw new HttpError(400, `Unknown key field \`${name}\``);
    }
  }
  return fields;
}

/**
 * The key as lists and reads show it (createdAt in Unix seconds).
 *
 * @example
 * keyView(stored) // { value, acl, description, validity, …, createdAt: 1763771000 }
 */
export function keyView(key: StoredKey, withIndex = false): Record<string, unknown> {
  const view: Record<string, unknown> = {
    value: key.value,
    acl: key.acl,
    description: key.description,
    validity:
      key.validity === 0 ? 0 : Math.max(0, Math.round((key.createdAt + key.validity * 1000 - Date.now()) / 1000)),
    maxHitsPerQuery: key.maxHitsPerQuery,
    maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour,
    queryParameters: key.queryParameters,
    referers: key.referers,
    createdAt: Math.floor(key.createdAt / 1000),
  };
  if (key.indexes) view.indexes = key.indexes;
  if (withIndex && key.index !== undefined) view.index = key.index;
  return view;
}

export function register(app: Hono, ctx: ServiceContext): void {
  const { keys } = internalsOf(ctx);
  const searchKeyView = () => ({
    value: ctx.searchKey,
    acl: ['search', 'browse'],
    description: 'Search-only key of the local service',
    validity: 0,
    maxHitsPerQuery: 0,
    maxQueriesPerIPPerHour: 0,
    queryParameters: '',
    referers: [],
    createdAt: 0,
  });
  const builtIn = (value: string) => {
    if (value === ctx.searchKey || value === ctx.adminKey) {
      throw new HttpError(
        400,
        'The admin and search keys of the local service are set by its options and cannot be changed here',
      );
    }
  };

  app.get('/1/keys', (c) => {
    ctx.authorize(c, 'admin');
    return c.json({
      keys: [
        searchKeyView(),
        ...keys
          .list()
          .filter((key) => key.index === undefined)
          .map((key) => keyView(key)),
      ],
    });
  });

  app.post('/1/keys', async (c) => {
    ctx.authorize(c, 'admin');
    const key = keys.create(keyFields(await ctx.readJson(c)));
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  app.get('/1/keys/:key', (c) => {
    const value = c.req.param('key');
    const caller = ctx.authorize(c, 'any');
    // Admin: any key; another key: only itself.
    if (!caller.isAdmin && caller.value !== value && caller.parent !== value) {
      throw new HttpError(403, 'A non-admin API key can only read its own rights');
    }
    if (value === ctx.searchKey) return c.json(searchKeyView());
    const key = keys.get(value);
    if (!key) throw new HttpError(404, 'Key does not exist');
    return c.json(keyView(key));
  });

  app.put('/1/keys/:key', async (c) => {
    ctx.authorize(c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    const key = keys.update(value, keyFields(await ctx.readJson(c)));
    if (!key) throw new HttpError(404, 'Key does not exist');
    return c.json({ key: key.value, updatedAt: new Date().toISOString() });
  });

  app.delete('/1/keys/:key', (c) => {
    ctx.authorize(c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    if (!keys.delete(value)) throw new HttpError(404, 'Key does not exist');
    return c.json({ deletedAt: new Date().toISOString() });
  });

  app.post('/1/keys/:key/restore', (c) => {
    ctx.authorize(c, 'admin');
    const key = keys.restore(c.req.param('key'));
    if (!key) throw new HttpError(404, 'Key is not in the list of deleted keys');
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  // Index-specific keys.
  app.get('/1/indexes/:all{\\*}/keys', (c) => {
    ctx.authorize(c, 'admin');
    return c.json({
      keys: keys
        .list()
        .filter((key) => key.index !== undefined)
        .map((key) => keyView(key, true)),
    });
  });

  app.post('/1/indexes/:indexName/keys', async (c) => {
    ctx.authorize(c, 'admin');
    const indexName = c.req.param('indexName');
    const key = keys.create(keyFields(await ctx.readJson(c)), indexName);
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  app.get('/1/indexes/:indexName/keys', (c) => {
    ctx.authorize(c, 'admin');
    const indexName = c.req.param('indexName');
    ctx.indices.require(indexName);
    return c.json({ keys: keys.list(indexName).map((key) => keyView(key)) });
  });

  app.get('/1/indexes/:indexName/keys/:key', (c) => {
    ctx.authorize(c, 'admin');
    const key = keys.get(c.req.param('key'));
    if (!key || key.index !== c.req.param('indexName')) throw new HttpError(404, 'Key does not exist');
    return c.json(keyView(key));
  });

  app.put('/1/indexes/:indexName/keys/:key', async (c) => {
    ctx.authorize(c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    const fields = keyFields(await ctx.readJson(c));
    // The document: the update succeeds and returns updatedAt even when the key does not exist.
    const key = keys.get(value);
    if (key && key.index === c.req.param('indexName')) keys.update(value, fields);
    return c.json({ key: value, updatedAt: new Date().toISOString() });
  });

  app.delete('/1/indexes/:indexName/keys/:key', (c) => {
    ctx.authorize(c, 'admin');
    const value = c.req.param('key');
    const key = keys.get(value);
    if (!key || key.index !== c.req.param('indexName')) throw new HttpError(404, 'Key does not exist');
    keys.delete(value);
    return c.json({ deletedAt: new Date().toISOString() });
  });
}
