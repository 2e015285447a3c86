/**
 * Records section of document 1: add (with and without objectID), replace, delete, partial update with
 * the seven built-in operations, batches on one or several indices, get one or several objects, clear
 * and delete by query. Every write answers with its `taskID` once the task is published (the write is
 * durable and visible from then on). The work is in `records/`.
 */
import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { USER_ID_HEADER } from '../clusters/service.js';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import { requireRight } from '../keys/authorizer.js';
import type { Right } from '../keys/types.js';
import {
  ACTION_RIGHTS,
  applyOperation,
  applyOperations,
  type BatchOperation,
  EMPTY_BATCH_RIGHT,
  prepareOperation,
  requireWritable,
  savedIn,
} from '../records/batch.js';
import { deleteByQueryParams } from '../records/delete-by-query.js';
import { objectIdOf } from '../records/object-id.js';
import { validatePartial } from '../records/partial.js';
import { keyVisibility, listParam, retrieve } from '../records/retrieve.js';
import { rawParams, toSearchParams } from '../search/key-params.js';
import type { Services } from '../services.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, parse, queryOf } from './validate.js';

const now = () => new Date().toISOString();

const REQUESTS_BODY = jsonObject('The body must be a JSON object').pipe(
  z.object({ requests: z.array(z.unknown(), { error: '`requests` must be an array' }) }),
);
const GET_OBJECTS_REQUEST = jsonObject('{at} must be a JSON object');
const GET_OBJECTS_TARGET = z.object({
  indexName: z
    .string({ error: '{at} must be a non-empty string' })
    .min(1, { error: '{at} must be a non-empty string' }),
});
const RECORD_BODY = jsonObject('The record must be a JSON object');
const PARTIAL_BODY = jsonObject('The partial update must be a JSON object');
const DELETE_BY_QUERY_BODY = jsonObject('The body must be a JSON object');
const PARTIAL_QUERY = z.object({
  createIfNotExists: z
    .enum(['true', 'false'], { error: 'createIfNotExists must be true or false' })
    .optional()
    .transform((value) => value !== 'false'),
});

export function recordRoutes(services: Services): Hono {
  const app = new Hono();
  const { catalog, clusters, tasks } = services;
  const writeTarget = (c: Context, right: Right) => {
    const indexName = c.req.param('indexName')!;
    authorize(services, c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };
  /** The user the written records belong to (`X-Service-User-ID`, multi-cluster), checked before the write. */
  const writer = (c: Context) => clusters.writer(c.req.header(USER_ID_HEADER));
  const objectIDsOf = (operations: BatchOperation[]) =>
    operations.filter((operation) => operation.objectID !== undefined).map((operation) => operation.objectID!);

  app.post('/1/indexes/:all{\\*}/batch', async (c) => {
    const key = authorize(services, c, 'any'); // credentials before the body is read
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    const operations = requests.map((request, position) =>
      prepareOperation(request, `requests[${position}]`, undefined),
    );
    if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
    for (const operation of operations) {
      requireRight(key, ACTION_RIGHTS[operation.action]!, operation.indexName);
      if (operation.action !== 'delete') requireWritable(catalog, operation.indexName);
    }
    const user = await writer(c);
    const indexNames = [...new Set(operations.map((operation) => operation.indexName))];
    // One task per index, all in one write.
    const { taskIDs } = await tasks.run(
      indexNames.map((indexName) => ({ indexName, kind: 'batch' })),
      (write) => {
        applyOperations(catalog, write, operations);
        for (const indexName of indexNames) clusters.written(write, user, indexName, savedIn(operations, indexName));
      },
    );
    const taskID = Object.fromEntries(indexNames.map((indexName, i) => [indexName, taskIDs[i]!]));
    return c.json({ taskID, objectIDs: objectIDsOf(operations) });
  });

  app.post('/1/indexes/:all{\\*}/objects', async (c) => {
    // Get objects needs the search right (the document does not name one), checked before the body.
    const key = authorize(services, c, 'search');
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    // One visibility set per index and key (secured-key filters), not one per requested object.
    const visibility = new Map<string, ((objectID: string) => boolean) | undefined>();
    const results = requests.map((request, position) => {
      const where = `requests[${position}]`;
      const item = parse(GET_OBJECTS_REQUEST, request, { where });
      const { indexName } = parse(GET_OBJECTS_TARGET, item, { where });
      const objectID = objectIdOf(item.objectID, where);
      requireRight(key, 'search', indexName);
      const index = catalog.get(indexName);
      const record = index?.getObject(objectID);
      if (!index || !record) return null;
      const cacheKey = `${indexName}\u0000${key.value}`;
      if (!visibility.has(cacheKey)) visibility.set(cacheKey, keyVisibility(index, key));
      const visible = visibility.get(cacheKey);
      if (visible && !visible(objectID)) return null;
      return retrieve(record, index, key, listParam(item.attributesToRetrieve, `${where}.attributesToRetrieve`));
    });
    return c.json({ results });
  });

  app.post('/1/indexes/:indexName/batch', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'any', indexName);
    validateIndexName(indexName);
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    const operations = requests.map((request, position) =>
      prepareOperation(request, `requests[${position}]`, indexName),
    );
    if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
    for (const right of new Set(operations.map((operation) => ACTION_RIGHTS[operation.action]!)))
      requireRight(key, right);
    if (operations.some((operation) => operation.action !== 'delete')) requireWritable(catalog, indexName);
    const user = await writer(c);
    const { taskID } = await tasks.run({ indexName, kind: 'batch' }, (write) => {
      catalog.ensure(write, indexName);
      applyOperations(catalog, write, operations);
      clusters.written(write, user, indexName, savedIn(operations, indexName));
    });
    return c.json({ taskID, objectIDs: objectIDsOf(operations) });
  });

  app.post('/1/indexes/:indexName/clear', async (c) => {
    const indexName = writeTarget(c, 'deleteIndex');
    requireWritable(catalog, indexName);
    const { taskID } = await tasks.run({ indexName, kind: 'clear' }, (write) => catalog.clearObjects(write, indexName));
    return c.json({ updatedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/deleteByQuery', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'deleteIndex', indexName);
    validateIndexName(indexName);
    const raw = rawParams(await jsonBody(c, DELETE_BY_QUERY_BODY));
    const index = catalog.require(indexName);
    requireWritable(catalog, indexName);
    const objectIDs = index.matchingObjectIDs(toSearchParams(deleteByQueryParams(raw, key)));
    const { taskID } = await tasks.run({ indexName, kind: 'deleteByQuery' }, (write) =>
      catalog.deleteObjects(write, indexName, objectIDs),
    );
    return c.json({ deletedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/:objectID/partial', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const objectID = c.req.param('objectID');
    const update = await jsonBody(c, PARTIAL_BODY);
    validatePartial(update);
    requireWritable(catalog, indexName);
    const { createIfNotExists } = queryOf(c, PARTIAL_QUERY);
    const user = await writer(c);
    const { taskID } = await tasks.run({ indexName, kind: 'partialUpdateObject' }, (write) => {
      clusters.written(write, user, indexName, [objectID]);
      applyOperation(catalog, write, {
        action: createIfNotExists ? 'partialUpdateObject' : 'partialUpdateObjectNoCreate',
        indexName,
        objectID,
        body: update,
      });
    });
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.post('/1/indexes/:indexName', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const record = await jsonBody(c, RECORD_BODY);
    requireWritable(catalog, indexName);
    const objectID = record.objectID === undefined ? randomUUID() : objectIdOf(record.objectID, 'The record');
    const user = await writer(c);
    const { taskID } = await tasks.run({ indexName, kind: 'addObject' }, (write) => {
      catalog.saveObjects(write, indexName, [{ ...record, objectID }]);
      clusters.written(write, user, indexName, [objectID]);
    });
    return c.json({ createdAt: now(), taskID, objectID });
  });

  app.put('/1/indexes/:indexName/:objectID', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const objectID = c.req.param('objectID');
    const record = await jsonBody(c, RECORD_BODY);
    requireWritable(catalog, indexName);
    const user = await writer(c);
    const { taskID } = await tasks.run({ indexName, kind: 'updateObject' }, (write) => {
      catalog.saveObjects(write, indexName, [{ ...record, objectID }]);
      clusters.written(write, user, indexName, [objectID]);
    });
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.delete('/1/indexes/:indexName/:objectID', async (c) => {
    const indexName = writeTarget(c, 'deleteObject');
    const objectID = c.req.param('objectID');
    requireWritable(catalog, indexName);
    const { taskID } = await tasks.run({ indexName, kind: 'deleteObject' }, (write) =>
      catalog.deleteObjects(write, indexName, [objectID]),
    );
    return c.json({ deletedAt: now(), taskID });
  });
  return app;
}

/** `GET /1/indexes/{indexName}/{objectID}`: mounted after every other router (its path is the most generic). */
export function objectRoutes(services: Services): Hono {
  const app = new Hono();
  app.get('/1/indexes/:indexName/:objectID', (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'search', indexName);
    const index = services.catalog.require(indexName);
    const objectID = c.req.param('objectID');
    const record = index.getObject(objectID);
    const visible = record ? keyVisibility(index, key) : undefined;
    if (!record || (visible && !visible(objectID)))
      throw new ServiceError(404, `ObjectID ${objectID} does not exist in index ${indexName}`);
    return c.json(retrieve(record, index, key, listParam(c.req.query('attributesToRetrieve'), 'attributesToRetrieve')));
  });
  return app;
}
