/**
 * API keys section of document 1: application keys (`/1/keys`) and index-specific keys
 * (`/1/indexes/{indexName}/keys`). Keys created here work at once with their acl, indexes, validity,
 * referers, queryParameters, maxHitsPerQuery and maxQueriesPerIPPerHour (`keys/`).
 */
import { Hono } from 'hono';
import { ServiceError } from '../errors.js';
import { keyFields, keyView } from '../keys/fields.js';
import type { Services } from '../services.js';
import { readJson } from './body.js';
import { authorize } from './request.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function keyRoutes(services: Services): Hono {
  const app = new Hono();
  const { keys } = services;
  const searchKeyView = () => ({
    value: services.config.searchKey,
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
    if (value === services.config.searchKey || value === services.config.adminKey) {
      throw new ServiceError(
        400,
        'The admin and search keys of the local service are set by its options and cannot be changed here',
      );
    }
  };

  app.get('/1/keys', async (c) => {
    authorize(services, c, 'admin');
    return c.json({
      keys: [
        searchKeyView(),
        ...(await keys.list()).filter((key) => key.index === undefined).map((key) => keyView(key)),
      ],
    });
  });

  app.post('/1/keys', async (c) => {
    authorize(services, c, 'admin');
    const key = await keys.create(keyFields(await readJson(c)));
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  app.get('/1/keys/:key', (c) => {
    const value = c.req.param('key');
    const caller = authorize(services, c, 'any');
    // Admin: any key; another key: only itself.
    if (!caller.isAdmin && caller.value !== value && caller.parent !== value) {
      throw new ServiceError(403, 'A non-admin API key can only read its own rights');
    }
    if (value === services.config.searchKey) return c.json(searchKeyView());
    const key = keys.get(value);
    if (!key) throw new ServiceError(404, 'Key does not exist');
    return c.json(keyView(key));
  });

  app.put('/1/keys/:key', async (c) => {
    authorize(services, c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    const key = await keys.update(value, keyFields(await readJson(c)));
    if (!key) throw new ServiceError(404, 'Key does not exist');
    return c.json({ key: key.value, updatedAt: new Date().toISOString() });
  });

  app.delete('/1/keys/:key', async (c) => {
    authorize(services, c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    if (!(await keys.delete(value))) throw new ServiceError(404, 'Key does not exist');
    return c.json({ deletedAt: new Date().toISOString() });
  });

  app.post('/1/keys/:key/restore', async (c) => {
    authorize(services, c, 'admin');
    const key = await keys.restore(c.req.param('key'));
    if (!key) throw new ServiceError(404, 'Key is not in the list of deleted keys');
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  // Index-specific keys.
  app.get('/1/indexes/:all{\\*}/keys', async (c) => {
    authorize(services, c, 'admin');
    return c.json({
      keys: (await keys.list()).filter((key) => key.index !== undefined).map((key) => keyView(key, true)),
    });
  });

  app.post('/1/indexes/:indexName/keys', async (c) => {
    authorize(services, c, 'admin');
    const indexName = c.req.param('indexName');
    const key = await keys.create(keyFields(await readJson(c)), indexName);
    return c.json({ key: key.value, createdAt: iso(key.createdAt) });
  });

  app.get('/1/indexes/:indexName/keys', async (c) => {
    authorize(services, c, 'admin');
    const indexName = c.req.param('indexName');
    services.catalog.require(indexName);
    return c.json({ keys: (await keys.list(indexName)).map((key) => keyView(key)) });
  });

  app.get('/1/indexes/:indexName/keys/:key', (c) => {
    authorize(services, c, 'admin');
    const key = keys.get(c.req.param('key'));
    if (!key || key.index !== c.req.param('indexName')) throw new ServiceError(404, 'Key does not exist');
    return c.json(keyView(key));
  });

  app.put('/1/indexes/:indexName/keys/:key', async (c) => {
    authorize(services, c, 'admin');
    const value = c.req.param('key');
    builtIn(value);
    const fields = keyFields(await readJson(c));
    // The document: the update succeeds and returns updatedAt even when the key does not exist.
    const key = keys.get(value);
    if (key && key.index === c.req.param('indexName')) await keys.update(value, fields);
    return c.json({ key: value, updatedAt: new Date().toISOString() });
  });

  app.delete('/1/indexes/:indexName/keys/:key', async (c) => {
    authorize(services, c, 'admin');
    const value = c.req.param('key');
    const key = keys.get(value);
    if (!key || key.index !== c.req.param('indexName')) throw new ServiceError(404, 'Key does not exist');
    await keys.delete(value);
    return c.json({ deletedAt: new Date().toISOString() });
  });
  return app;
}
