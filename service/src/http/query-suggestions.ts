/**
 * The Query Suggestions API (document 2, "Endpoints > Query Suggestions"): configurations that build
 * suggestions indices from the popular searches of source indices. The admin key only ("Query
 * Suggestions: the admin key of the application"); missing or wrong credentials answer 401, another key
 * 403. Failures are `{ message }` (Errors, rule 2); writes answer `{ status, message }`.
 *
 * `GET /1/logs/{indexName}` (the last build's log, JSON Lines) sits next to the search API's
 * `GET /1/logs` (the call log, `logs.ts`): the paths differ, both are served.
 *
 * The service's own `POST /1/_local/configs/{indexName}/build` (admin key) rebuilds a suggestions index
 * now and answers once the build has ended, with its status (for tests and development).
 */
import { type Context, Hono } from 'hono';
import type { Services } from '../services.js';
import { configAnswer, parseConfig } from '../query-suggestions/config.js';
import { validateIndexName } from '../indices/catalog.js';
import { readJson } from './body.js';
import { authorizeOrUnauthorized } from './request.js';

/** The media type of the build log: one JSON object per line. */
export const LOG_CONTENT_TYPE = 'application/x-ndjson; charset=UTF-8';

export function querySuggestionRoutes(services: Services): Hono {
  const app = new Hono();
  const suggestions = services.querySuggestions;

  /** The admin key; 401 when the credentials are missing or wrong (the document's code), 403 for another key. */
  const admin = (c: Context): void => {
    authorizeOrUnauthorized(services, c, 'admin', undefined, 401);
  };

  /** The `{indexName}` of the path (400 when it cannot be an index name). */
  const pathIndex = (c: Context): string => {
    const indexName = c.req.param('indexName') ?? '';
    validateIndexName(indexName);
    return indexName;
  };

  app.post('/1/configs', async (c) => {
    admin(c);
    const config = parseConfig(await readJson(c));
    await suggestions.create(config);
    void suggestions.build(config.indexName);
    return c.json({
      status: 200,
      message: `Configuration of ${config.indexName} created; its suggestions index is being built`,
    });
  });

  app.get('/1/configs', async (c) => {
    admin(c);
    return c.json((await suggestions.list()).map((config) => configAnswer(config, services.config.appId)));
  });

  app.get('/1/configs/:indexName', async (c) => {
    admin(c);
    return c.json(configAnswer(await suggestions.require(pathIndex(c)), services.config.appId));
  });

  // Creating through PUT is deprecated (document 2) but still creates.
  app.put('/1/configs/:indexName', async (c) => {
    admin(c);
    const config = parseConfig(await readJson(c), pathIndex(c));
    const created = await suggestions.update(config);
    void suggestions.build(config.indexName);
    const what = created ? 'created (creating through PUT is deprecated: use POST /1/configs)' : 'updated';
    return c.json({
      status: 200,
      message: `Configuration of ${config.indexName} ${what}; its suggestions index is being built`,
    });
  });

  app.delete('/1/configs/:indexName', async (c) => {
    admin(c);
    const indexName = pathIndex(c);
    await suggestions.delete(indexName);
    return c.json({
      status: 200,
      message: `Configuration of ${indexName} deleted; the index ${indexName} is left as it is`,
    });
  });

  app.get('/1/configs/:indexName/status', async (c) => {
    admin(c);
    return c.json(await suggestions.status(pathIndex(c)));
  });

  app.get('/1/logs/:indexName', async (c) => {
    admin(c);
    return c.body(await suggestions.log(pathIndex(c)), 200, { 'content-type': LOG_CONTENT_TYPE });
  });

  app.post('/1/_local/configs/:indexName/build', async (c) => {
    admin(c);
    const indexName = pathIndex(c);
    await suggestions.require(indexName);
    await suggestions.build(indexName);
    return c.json(await suggestions.status(indexName));
  });
  return app;
}
