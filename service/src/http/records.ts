/**
 * Records section of document 1: add (with and without objectID), replace, delete, partial update with
 * the seven built-in operations, batches on one or several indices, get one or several objects, clear
 * and delete by query. Every write answers with its `taskID` once the task is published (the write is
 * durable and visible from then on). The work is in `records/` (`writes.ts`: one function per call).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { USER_ID_HEADER } from '../clusters/service.js';
import { validateIndexName } from '../indices/catalog.js';
import type { Right } from '../keys/types.js';
import {
  batchIndex,
  batchIndices,
  clearRecords,
  deleteByQuery,
  deleteRecord,
  getObject,
  getObjects,
  partialUpdate,
  saveRecord,
} from '../records/writes.js';
import { requireSomeBatchRight } from '../records/batch.js';
import { rawParams } from '../search/key-params.js';
import type { Services } from '../services.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, queryOf } from './validate.js';

const now = () => new Date().toISOString();

const REQUESTS_BODY = jsonObject('The body must be a JSON object').pipe(
  z.object({ requests: z.array(z.unknown(), { error: '`requests` must be an array' }) }),
);
const RECORD_BODY = jsonObject('The record must be a JSON object');
const PARTIAL_BODY = jsonObject('The partial update must be a JSON object');
const DELETE_BY_QUERY_BODY = jsonObject('The body must be a JSON object');
const PARTIAL_QUERY = z.object({
  createIfNotExists: z
    .enum(['true', 'false'], { error: 'createIfNotExists must be true or false' })
    .optional()
    .transform((value) => value !== 'false'),
});
const OBJECT_QUERY = z.looseObject({
  attributesToRetrieve: z.string().optional(),
});

export function recordRoutes(services: Services): Hono {
  const app = new Hono();
  const writeTarget = (c: Context, right: Right) => {
    const indexName = c.req.param('indexName')!;
    authorize(services, c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };
  /** The user the written records belong to (`X-Service-User-ID`, multi-cluster), checked before the write. */
  const user = (c: Context) => c.req.header(USER_ID_HEADER);

  app.post('/1/indexes/:all{\\*}/batch', async (c) => {
    const key = authorize(services, c, 'any'); // credentials before the body is read
    requireSomeBatchRight(key);
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    return c.json(await batchIndices(services, key, requests, user(c)));
  });

  app.post('/1/indexes/:all{\\*}/objects', async (c) => {
    // Get objects needs the search right (the document does not name one), checked before the body.
    const key = authorize(services, c, 'search');
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    return c.json({ results: getObjects(services.catalog, key, requests) });
  });

  app.post('/1/indexes/:indexName/batch', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'any', indexName);
    requireSomeBatchRight(key);
    validateIndexName(indexName);
    const { requests } = await jsonBody(c, REQUESTS_BODY);
    return c.json(await batchIndex(services, indexName, key, requests, user(c)));
  });

  app.post('/1/indexes/:indexName/clear', async (c) => {
    const indexName = writeTarget(c, 'deleteIndex');
    const taskID = await clearRecords(services, indexName);
    return c.json({ updatedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/deleteByQuery', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'deleteIndex', indexName);
    validateIndexName(indexName);
    const raw = rawParams(await jsonBody(c, DELETE_BY_QUERY_BODY));
    const taskID = await deleteByQuery(services, indexName, key, raw);
    return c.json({ deletedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/:objectID/partial', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const objectID = c.req.param('objectID');
    const update = await jsonBody(c, PARTIAL_BODY);
    const { createIfNotExists } = queryOf(c, PARTIAL_QUERY);
    const taskID = await partialUpdate(services, indexName, objectID, update, createIfNotExists, user(c));
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.post('/1/indexes/:indexName', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const record = await jsonBody(c, RECORD_BODY);
    const { taskID, objectID } = await saveRecord(services, indexName, record, undefined, user(c));
    return c.json({ createdAt: now(), taskID, objectID });
  });

  app.put('/1/indexes/:indexName/:objectID', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const record = await jsonBody(c, RECORD_BODY);
    const { taskID, objectID } = await saveRecord(services, indexName, record, c.req.param('objectID'), user(c));
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.delete('/1/indexes/:indexName/:objectID', async (c) => {
    const indexName = writeTarget(c, 'deleteObject');
    const objectID = c.req.param('objectID');
    const taskID = await deleteRecord(services, indexName, objectID);
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
    const { attributesToRetrieve } = queryOf(c, OBJECT_QUERY);
    return c.json(getObject(services.catalog, indexName, key, c.req.param('objectID'), attributesToRetrieve));
  });
  return app;
}
