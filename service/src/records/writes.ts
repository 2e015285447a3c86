/**
 * The record calls of document 1 ("Records"), callable without HTTP: batches on one or several indices, get
 * one or several objects, add, replace, partial update, delete, clear and delete by query. Each checks the
 * key's rights and the target before anything is written, resolves the writing user (multi-cluster) last,
 * then makes one write of the task queue; it resolves with the task(s) once durable.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clusters } from '../clusters/service.js';
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import { requireRight } from '../keys/authorizer.js';
import type { KeyInfo } from '../keys/types.js';
import { type RawParams, toSearchParams } from '../search/key-params.js';
import type { StoredRecord } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import { jsonObject, parse } from '../validation.js';
import {
  ACTION_RIGHTS,
  applyOperation,
  applyOperations,
  type BatchOperation,
  EMPTY_BATCH_RIGHT,
  prepareOperation,
  requireWritable,
  savedIn,
} from './batch.js';
import { deleteByQueryParams } from './delete-by-query.js';
import { objectIdOf } from './object-id.js';
import { validatePartial } from './partial.js';
import { keyVisibility, listParam, retrieve } from './retrieve.js';

/** What the record calls use of the services. */
export interface RecordParts {
  catalog: Catalog;
  clusters: Clusters;
  tasks: TaskQueue;
}

/** `X-Service-User-ID` of the call (multi-cluster): the user the written records belong to. */
export type UserHeader = string | undefined;

const GET_OBJECTS_REQUEST = jsonObject('{at} must be a JSON object');
const GET_OBJECTS_TARGET = z.object({
  indexName: z
    .string({ error: '{at} must be a non-empty string' })
    .min(1, { error: '{at} must be a non-empty string' }),
});

const objectIDsOf = (operations: readonly BatchOperation[]) =>
  operations.filter((operation) => operation.objectID !== undefined).map((operation) => operation.objectID!);

/**
 * `POST /1/indexes/*\/batch`: operations on any indices, one task per index, all in one write.
 *
 * @example
 * await batchIndices(services, key, [{ action: 'addObject', indexName: 'products', body: { name: 'chair' } }], undefined)
 */
export async function batchIndices(parts: RecordParts, key: KeyInfo, requests: readonly unknown[], user: UserHeader) {
  const { catalog, clusters, tasks } = parts;
  const operations = requests.map((request, position) => prepareOperation(request, `requests[${position}]`, undefined));
  if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
  for (const operation of operations) {
    requireRight(key, ACTION_RIGHTS[operation.action]!, operation.indexName);
    if (operation.action !== 'delete') requireWritable(catalog, operation.indexName);
  }
  const userID = await clusters.writer(user);
  const indexNames = [...new Set(operations.map((operation) => operation.indexName))];
  const { taskIDs } = await tasks.run(
    indexNames.map((indexName) => ({ indexName, kind: 'batch' })),
    (write) => {
      applyOperations(catalog, write, operations);
      for (const indexName of indexNames) clusters.written(write, userID, indexName, savedIn(operations, indexName));
    },
  );
  const taskID = Object.fromEntries(indexNames.map((indexName, i) => [indexName, taskIDs[i]!]));
  return { taskID, objectIDs: objectIDsOf(operations) };
}

/**
 * `POST /1/indexes/{indexName}/batch`: operations on one index, one task.
 *
 * @example
 * await batchIndex(services, 'products', key, [{ action: 'clear' }], undefined)
 */
export async function batchIndex(
  parts: RecordParts,
  indexName: string,
  key: KeyInfo,
  requests: readonly unknown[],
  user: UserHeader,
) {
  const { catalog, clusters, tasks } = parts;
  const operations = requests.map((request, position) => prepareOperation(request, `requests[${position}]`, indexName));
  if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
  for (const right of new Set(operations.map((operation) => ACTION_RIGHTS[operation.action]!)))
    requireRight(key, right);
  if (operations.some((operation) => operation.action !== 'delete')) requireWritable(catalog, indexName);
  const userID = await clusters.writer(user);
  const { taskID } = await tasks.run({ indexName, kind: 'batch' }, (write) => {
    catalog.ensure(write, indexName);
    applyOperations(catalog, write, operations);
    clusters.written(write, userID, indexName, savedIn(operations, indexName));
  });
  return { taskID, objectIDs: objectIDsOf(operations) };
}

/**
 * `POST /1/indexes/*\/objects`: each requested record as the key may see it, `null` when missing or hidden.
 *
 * @example
 * getObjects(catalog, key, [{ indexName: 'products', objectID: '1' }]) // [{ objectID: '1', … }]
 */
export function getObjects(catalog: Catalog, key: KeyInfo, requests: readonly unknown[]) {
  // One visibility set per index and key (secured-key filters), not one per requested object.
  const visibility = new Map<string, ((objectID: string) => boolean) | undefined>();
  return requests.map((request, position) => {
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
}

/**
 * `GET /1/indexes/{indexName}/{objectID}`: the record as the key may see it (404 when missing or hidden).
 *
 * @example
 * getObject(catalog, 'products', key, '1', undefined)
 */
export function getObject(
  catalog: Catalog,
  indexName: string,
  key: KeyInfo,
  objectID: string,
  attributesToRetrieve: string | undefined,
) {
  const index = catalog.require(indexName);
  const record = index.getObject(objectID);
  const visible = record ? keyVisibility(index, key) : undefined;
  if (!record || (visible && !visible(objectID)))
    throw new ServiceError(404, `ObjectID ${objectID} does not exist in index ${indexName}`);
  return retrieve(record, index, key, listParam(attributesToRetrieve, 'attributesToRetrieve'));
}

/**
 * Adds a record (`objectID` generated when absent) or replaces the record `objectID`; returns the task and
 * the objectID.
 *
 * @example
 * await saveRecord(services, 'products', { name: 'chair' }, undefined, undefined)
 */
export async function saveRecord(
  parts: RecordParts,
  indexName: string,
  record: Record<string, unknown>,
  objectID: string | undefined,
  user: UserHeader,
) {
  const { catalog, clusters, tasks } = parts;
  requireWritable(catalog, indexName);
  let id = objectID;
  if (id === undefined) id = record.objectID === undefined ? randomUUID() : objectIdOf(record.objectID, 'The record');
  const saved: StoredRecord = { ...record, objectID: id };
  const userID = await clusters.writer(user);
  const kind = objectID === undefined ? 'addObject' : 'updateObject';
  const { taskID } = await tasks.run({ indexName, kind }, (write) => {
    catalog.saveObjects(write, indexName, [saved]);
    clusters.written(write, userID, indexName, [saved.objectID]);
  });
  return { taskID, objectID: saved.objectID };
}

/**
 * A partial update of one record with the built-in operations; without `createIfNotExists` a missing
 * record stays missing.
 *
 * @example
 * await partialUpdate(services, 'products', '1', { stock: { _operation: 'Decrement', value: 1 } }, true, undefined)
 */
export async function partialUpdate(
  parts: RecordParts,
  indexName: string,
  objectID: string,
  update: Record<string, unknown>,
  createIfNotExists: boolean,
  user: UserHeader,
): Promise<number> {
  const { catalog, clusters, tasks } = parts;
  validatePartial(update);
  requireWritable(catalog, indexName);
  const userID = await clusters.writer(user);
  const { taskID } = await tasks.run({ indexName, kind: 'partialUpdateObject' }, (write) => {
    clusters.written(write, userID, indexName, [objectID]);
    applyOperation(catalog, write, {
      action: createIfNotExists ? 'partialUpdateObject' : 'partialUpdateObjectNoCreate',
      indexName,
      objectID,
      body: update,
    });
  });
  return taskID;
}

/**
 * Deletes one record.
 *
 * @example
 * await deleteRecord(services, 'products', '1')
 */
export async function deleteRecord(parts: RecordParts, indexName: string, objectID: string): Promise<number> {
  const { catalog, tasks } = parts;
  requireWritable(catalog, indexName);
  const { taskID } = await tasks.run({ indexName, kind: 'deleteObject' }, (write) =>
    catalog.deleteObjects(write, indexName, [objectID]),
  );
  return taskID;
}

/**
 * Removes every record of an index (settings, rules and synonyms stay).
 *
 * @example
 * await clearRecords(services, 'products')
 */
export async function clearRecords(parts: RecordParts, indexName: string): Promise<number> {
  const { catalog, tasks } = parts;
  requireWritable(catalog, indexName);
  const { taskID } = await tasks.run({ indexName, kind: 'clear' }, (write) => catalog.clearObjects(write, indexName));
  return taskID;
}

/**
 * Deletes the records that match filters (and geo areas), within what the key may see.
 *
 * @example
 * await deleteByQuery(services, 'products', key, { filters: 'stock = 0' })
 */
export async function deleteByQuery(
  parts: RecordParts,
  indexName: string,
  key: KeyInfo,
  raw: RawParams,
): Promise<number> {
  const { catalog, tasks } = parts;
  const index = catalog.require(indexName);
  requireWritable(catalog, indexName);
  const objectIDs = index.matchingObjectIDs(toSearchParams(deleteByQueryParams(raw, key)));
  const { taskID } = await tasks.run({ indexName, kind: 'deleteByQuery' }, (write) =>
    catalog.deleteObjects(write, indexName, objectIDs),
  );
  return taskID;
}
