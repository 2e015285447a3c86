/**
 * Index-level endpoints of document 1: list indices, delete an index, copy/move
 * (`POST /1/indexes/{indexName}/operation`), settings (GET/PUT, with `replicas` and `forwardToReplicas`) and
 * task status. The writes are `indices/settings.ts`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import {
  COPY_SCOPES,
  checkSettingNames,
  checkTypoSizes,
  copyIndex,
  moveIndex,
  setSettings,
} from '../indices/settings.js';
import { indexAllowed, requireRight } from '../keys/authorizer.js';
import type { Services } from '../services.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, parse, queryOf, trueOrFalse } from './validate.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** `page` and `hitsPerPage`: read only when `page` is given (without it, every index in one page). */
const LIST_QUERY = z
  .object({ page: z.string().optional(), hitsPerPage: z.string().optional() })
  .transform((query, context) => {
    if (query.page === undefined) return undefined;
    const page = Number(query.page);
    const hitsPerPage = query.hitsPerPage === undefined ? 100 : Number(query.hitsPerPage);
    if (!Number.isInteger(page) || page < 0) {
      context.addIssue({ code: 'custom', message: 'page must be a non-negative integer' });
      return z.NEVER;
    }
    if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1) {
      context.addIssue({ code: 'custom', message: 'hitsPerPage must be a positive integer' });
      return z.NEVER;
    }
    return { page, hitsPerPage };
  });

const OPERATION_BODY = jsonObject('The body must be a JSON object').pipe(
  z.object({
    operation: z.enum(['copy', 'move'], { error: '`operation` must be "copy" or "move"' }),
    destination: z.string({ error: '`destination` must be an index name' }),
    scope: z.unknown().optional(),
  }),
);
const SCOPE = z.array(z.enum(COPY_SCOPES), { error: `\`scope\` must be an array of ${COPY_SCOPES.join(', ')}` });

const SETTINGS_BODY = jsonObject('The settings must be a JSON object');
const FORWARD_QUERY = z.object({ forwardToReplicas: trueOrFalse('forwardToReplicas') });
const TASK_ID = z
  .string()
  .transform(Number)
  .refine((taskID) => Number.isSafeInteger(taskID) && taskID >= 0, { error: 'taskID must be a non-negative integer' });

export function indexRoutes(services: Services): Hono {
  const app = new Hono();
  const { catalog, tasks } = services;

  app.get('/1/indexes', async (c) => {
    const key = authorize(services, c, 'listIndexes');
    const names = catalog.names().filter((name) => indexAllowed(key, name));
    const sizes = await catalog.dataSizes();
    const items = names.map((name) => {
      const meta = catalog.meta(name)!;
      const dataSize = sizes.get(name) ?? 0;
      const item: Record<string, unknown> = {
        name,
        createdAt: iso(meta.createdAt),
        updatedAt: iso(meta.updatedAt),
        entries: catalog.get(name)!.size,
        dataSize,
        fileSize: dataSize,
        lastBuildTimeS: 0,
        numberOfPendingTasks: 0,
        pendingTask: false,
      };
      if (meta.primary) item.primary = meta.primary;
      if (meta.replicas.length > 0) item.replicas = [...meta.replicas];
      return item;
    });
    const paging = queryOf(c, LIST_QUERY);
    if (paging === undefined) return c.json({ items, nbPages: 1 });
    const { page, hitsPerPage } = paging;
    return c.json({
      items: items.slice(page * hitsPerPage, (page + 1) * hitsPerPage),
      nbPages: Math.max(1, Math.ceil(items.length / hitsPerPage)),
    });
  });

  app.delete('/1/indexes/:indexName', async (c) => {
    const indexName = c.req.param('indexName');
    authorize(services, c, 'deleteIndex', indexName);
    validateIndexName(indexName);
    const { taskID } = await tasks.run({ indexName, kind: 'deleteIndex' }, (write) =>
      catalog.deleteIndex(write, indexName),
    );
    return c.json({ deletedAt: new Date().toISOString(), taskID });
  });

  app.post('/1/indexes/:indexName/operation', async (c) => {
    const indexName = c.req.param('indexName');
    // addObject also allows copy/move; the key must be allowed on both indices (the source before the body is read).
    const key = authorize(services, c, 'addObject', indexName);
    const { operation, destination, scope } = await jsonBody(c, OPERATION_BODY);
    validateIndexName(destination);
    requireRight(key, 'addObject', destination);
    if (scope !== undefined && operation === 'move')
      throw new ServiceError(400, '`scope` is only allowed with operation "copy"');
    const scopes = scope === undefined ? undefined : parseScope(scope);
    catalog.require(indexName);
    if (destination === indexName) throw new ServiceError(400, 'The destination must differ from the source index');
    const { taskID } = await tasks.run({ indexName: destination, kind: operation }, (write) =>
      operation === 'copy'
        ? copyIndex(catalog, write, indexName, destination, scopes)
        : moveIndex(catalog, write, indexName, destination),
    );
    return c.json({ updatedAt: new Date().toISOString(), taskID });
  });

  app.get('/1/indexes/:indexName/settings', (c) => {
    const indexName = c.req.param('indexName');
    authorize(services, c, 'settings', indexName);
    return c.json(catalog.settingsOf(indexName));
  });

  app.put('/1/indexes/:indexName/settings', async (c) => {
    const indexName = c.req.param('indexName');
    authorize(services, c, 'editSettings', indexName);
    validateIndexName(indexName);
    const settings = await jsonBody(c, SETTINGS_BODY);
    checkSettingNames(settings);
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    checkTypoSizes(catalog, indexName, settings, forwardToReplicas);
    const { taskID } = await tasks.run({ indexName, kind: 'settings' }, (write) =>
      setSettings(catalog, write, indexName, settings, forwardToReplicas),
    );
    return c.json({ updatedAt: new Date().toISOString(), taskID });
  });

  // Application-level task status (used by clients for non-index tasks); same ids as index tasks.
  const taskStatus = async (taskIDText: string) => {
    const taskID = parse(TASK_ID, taskIDText);
    const task = await services.storage.tasks.status(taskID);
    if (!task) throw new ServiceError(404, `Task ${taskID} does not exist`);
    return { status: task.published ? 'published' : 'notPublished' };
  };
  app.get('/1/task/:taskID', async (c) => {
    authorize(services, c, 'any');
    return c.json(await taskStatus(c.req.param('taskID')));
  });
  app.get('/1/indexes/:indexName/task/:taskID', async (c) => {
    authorize(services, c, 'any', c.req.param('indexName'));
    return c.json(await taskStatus(c.req.param('taskID')));
  });
  return app;
}

function parseScope(scope: unknown) {
  const result = SCOPE.safeParse(scope);
  if (!result.success) throw new ServiceError(400, `\`scope\` must be an array of ${COPY_SCOPES.join(', ')}`);
  return result.data;
}
