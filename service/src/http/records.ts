/**
 * Records section of document 1: add (with and without objectID), replace, delete, partial update with
 * the seven built-in operations, batches on one or several indices, get one or several objects, clear
 * and delete by query. Every write answers at once with its `taskID`; the task is published when the
 * answer is sent (the write is durable and visible from then on).
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getClusters } from '../clusters/service.js';
import type { KeyInfo, Right, ServiceContext } from '../context.js';
import { type Index, isSearchParameter } from '../engine/index.js';
import { type Catalog, type Record_, validateIndexName } from '../storage/catalog.js';
import { requireRight } from './auth.js';
import { asObject, requestsOf } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';
import {
  applyKeyParams,
  flag,
  keyRecordConstraints,
  RECORD_CONSTRAINTS,
  type RawParams,
  rawParams,
  toSearchParams,
} from './params.js';

const now = () => new Date().toISOString();

/** objectIDs are strings; integers are accepted and turned into strings, as the hosted API does. */
export function objectIdOf(value: unknown, where: string): string {
  if (typeof value === 'string' && value.length > 0) {
    if (Buffer.byteLength(value) > 512) throw new HttpError(400, `${where}: objectID is longer than 512 bytes`);
    return value;
  }
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new HttpError(400, `${where}: objectID must be a non-empty string`);
}

function recordOf(value: unknown, where: string): Record<string, unknown> {
  return asObject(value, where);
}

// ---- partial updates ----------------------------------------------------------------------------------

const OPERATIONS = ['Increment', 'Decrement', 'Add', 'Remove', 'AddUnique', 'IncrementFrom', 'IncrementSet'] as const;
type Operation = (typeof OPERATIONS)[number];

interface BuiltIn {
  operation: Operation;
  value: unknown;
}

function builtInOf(value: unknown, attribute: string): BuiltIn | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('_operation' in value)) return undefined;
  const { _operation, value: operand } = value as { _operation: unknown; value: unknown };
  const operation = OPERATIONS.find(
    (name) => typeof _operation === 'string' && name.toLowerCase() === _operation.toLowerCase(),
  );
  if (!operation) {
    throw new HttpError(
      400,
      `${attribute}: unknown _operation ${JSON.stringify(_operation)} (expected one of ${OPERATIONS.join(', ')})`,
    );
  }
  switch (operation) {
    case 'Increment':
    case 'Decrement':
      if (typeof operand !== 'number' || !Number.isFinite(operand))
        throw new HttpError(400, `${attribute}: ${operation} needs a numeric value`);
      break;
    case 'IncrementFrom':
    case 'IncrementSet':
      if (typeof operand !== 'number' || !Number.isInteger(operand))
        throw new HttpError(400, `${attribute}: ${operation} needs an integer value`);
      break;
    default:
      if (typeof operand !== 'number' && typeof operand !== 'string') {
        throw new HttpError(400, `${attribute}: ${operation} needs a number or a string value`);
      }
  }
  return { operation, value: operand };
}

/** Checks the operations of a partial update body before anything is written. */
function validatePartial(update: Record<string, unknown>): void {
  for (const [attribute, value] of Object.entries(update)) builtInOf(value, attribute);
}

const isNested = (item: unknown) => item !== null && typeof item === 'object';

/**
 * The record after a partial update, or `null` when the update is ignored (missing record and no
 * creation, or an IncrementFrom / IncrementSet whose condition fails).
 *
 * @example
 * applyPartial({ objectID: 'a', stock: 3 }, { stock: { _operation: 'Decrement', value: 1 } }, 'a', true) // { objectID: 'a', stock: 2 }
 */
export function applyPartial(
  current: Record<string, unknown> | undefined,
  update: Record<string, unknown>,
  objectID: string,
  createIfNotExists: boolean,
): Record_ | null {
  const operations = Object.entries(update).map(
    ([attribute, value]) => [attribute, value, builtInOf(value, attribute)] as const,
  );
  if (!current) {
    if (!createIfNotExists) return null;
    // IncrementFrom creates a missing record only from 0, IncrementSet only above 0.
    for (const [, , builtIn] of operations) {
      if (builtIn?.operation === 'IncrementFrom' && builtIn.value !== 0) return null;
      if (builtIn?.operation === 'IncrementSet' && (builtIn.value as number) <= 0) return null;
    }
  }
  const record: Record<string, unknown> = current ? structuredClone(current) : {};
  // Own data properties only: an attribute named `__proto__` is stored as data, never as a prototype.
  const set = (attribute: string, value: unknown) =>
    Object.defineProperty(record, attribute, { value, enumerable: true, writable: true, configurable: true });
  for (const [attribute, value, builtIn] of operations) {
    if (attribute === 'objectID') continue;
    if (!builtIn) {
      // A nested attribute replaces its whole first-level ancestor.
      set(attribute, structuredClone(value));
      continue;
    }
    const present = record[attribute];
    const number = typeof present === 'number' ? present : 0;
    const array = Array.isArray(present) ? (present as unknown[]) : undefined;
    switch (builtIn.operation) {
      case 'Increment':
        set(attribute, number + (builtIn.value as number));
        break;
      case 'Decrement':
        set(attribute, number - (builtIn.value as number));
        break;
      case 'Add':
        set(
          attribute,
          array ? [...array, builtIn.value] : present === undefined ? [builtIn.value] : [present, builtIn.value],
        );
        break;
      case 'Remove':
        if (array?.some(isNested)) break; // silently ignored with nested objects or arrays
        if (array)
          set(
            attribute,
            array.filter((item) => item !== builtIn.value),
          );
        break;
      case 'AddUnique':
        if (array?.some(isNested)) break; // silently ignored with nested objects or arrays
        if (array) {
          if (!array.includes(builtIn.value)) set(attribute, [...array, builtIn.value]);
        } else {
          set(
            attribute,
            present === undefined ? [builtIn.value] : present === builtIn.value ? [present] : [present, builtIn.value],
          );
        }
        break;
      case 'IncrementFrom':
        // Applied only when the value equals the current one; otherwise the whole update is ignored.
        if ((present === undefined ? 0 : present) !== builtIn.value) return null;
        set(attribute, number + 1);
        break;
      case 'IncrementSet':
        // Applied only when the value is greater than the current one; otherwise the whole update is ignored.
        if (typeof present === 'number' && (builtIn.value as number) <= present) return null;
        set(attribute, builtIn.value);
        break;
    }
  }
  record.objectID = objectID;
  return record as Record_;
}

// ---- batches --------------------------------------------------------------------------------------------

const ACTION_RIGHTS: Record<string, Right> = {
  addObject: 'addObject',
  updateObject: 'addObject',
  partialUpdateObject: 'addObject',
  partialUpdateObjectNoCreate: 'addObject',
  deleteObject: 'deleteObject',
  delete: 'deleteIndex',
  clear: 'deleteIndex',
};

/**
 * A batch's right "depends on the operations in the batch" (document 1); one without operations writes
 * nothing but still needs a write right: `addObject`, the right of a batch's usual action.
 */
const EMPTY_BATCH_RIGHT: Right = 'addObject';

interface BatchOperation {
  action: string;
  indexName: string;
  body: Record<string, unknown>;
  objectID?: string;
}

function prepareOperation(request: unknown, where: string, indexName: string | undefined): BatchOperation {
  const item = asObject(request, where);
  const action = item.action;
  if (typeof action !== 'string' || !Object.hasOwn(ACTION_RIGHTS, action)) {
    throw new HttpError(400, `${where}.action must be one of ${Object.keys(ACTION_RIGHTS).join(', ')}`);
  }
  const target = indexName ?? item.indexName;
  if (typeof target !== 'string') throw new HttpError(400, `${where}.indexName must be a string`);
  validateIndexName(target);
  const body =
    item.body === undefined && (action === 'delete' || action === 'clear') ? {} : recordOf(item.body, `${where}.body`);
  const operation: BatchOperation = { action, indexName: target, body };
  if (action === 'addObject') {
    operation.objectID = body.objectID === undefined ? randomUUID() : objectIdOf(body.objectID, where);
  } else if (action !== 'delete' && action !== 'clear') {
    operation.objectID = objectIdOf(body.objectID, where);
  }
  if (action === 'partialUpdateObject' || action === 'partialUpdateObjectNoCreate') validatePartial(body);
  return operation;
}

function requireWritable(ctx: ServiceContext, catalog: Catalog, indexName: string): void {
  const primary = catalog.meta(indexName)?.primary;
  if (primary) throw new HttpError(400, `Index ${indexName} is a replica of ${primary}: write records to ${primary}`);
}

/**
 * Applies a batch's operations in order. Consecutive saves to one index go to the catalog (and the
 * engine) as one write: a batch of a thousand records is indexed as one, not as a thousand.
 */
function applyOperations(catalog: Catalog, operations: BatchOperation[]): void {
  let saves: Record_[] = [];
  let target = '';
  const flush = () => {
    if (saves.length) catalog.saveObjects(target, saves, { owned: true });
    saves = [];
  };
  for (const operation of operations) {
    if (operation.action === 'addObject' || operation.action === 'updateObject') {
      if (operation.indexName !== target) flush();
      target = operation.indexName;
      // the body was parsed from this request and nothing else holds it: the index can keep it
      saves.push({ ...operation.body, objectID: operation.objectID! });
    } else {
      flush();
      applyOperation(catalog, operation);
    }
  }
  flush();
}

function applyOperation(catalog: Catalog, operation: BatchOperation): void {
  const { action, indexName, body, objectID } = operation;
  switch (action) {
    case 'addObject':
    case 'updateObject':
      catalog.saveObjects(indexName, [{ ...structuredClone(body), objectID: objectID! }]);
      break;
    case 'partialUpdateObject':
    case 'partialUpdateObjectNoCreate': {
      const current = catalog.get(indexName)?.getObject(objectID!);
      const next = applyPartial(current, body, objectID!, action === 'partialUpdateObject');
      if (next) catalog.saveObjects(indexName, [next]);
      else catalog.ensure(indexName);
      break;
    }
    case 'deleteObject':
      catalog.deleteObjects(indexName, [objectID!]);
      break;
    case 'clear':
      catalog.clearObjects(indexName);
      break;
    case 'delete':
      catalog.deleteIndex(indexName);
      break;
  }
}

// ---- reads ----------------------------------------------------------------------------------------------

function listParam(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed = JSON.parse(trimmed) as unknown;
        if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed as string[];
      } catch {
        // reported below
      }
      throw new HttpError(400, `${name} must be an array of attribute names`);
    }
    return trimmed
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  throw new HttpError(400, `${name} must be an array of attribute names`);
}

/** Sets an own data property (an attribute named `__proto__` stays data). */
function assign(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Picks the retrievable attributes of a record (`attributesToRetrieve`, `unretrievableAttributes`). */
function retrieve(record: Record<string, unknown>, index: Index, key: KeyInfo, attributesToRetrieve?: string[]) {
  const settings = index.getSettings() as {
    attributesToRetrieve?: string[] | null;
    unretrievableAttributes?: string[] | null;
  };
  const wanted = attributesToRetrieve ?? settings.attributesToRetrieve ?? ['*'];
  const hidden =
    key.isAdmin || key.acl.includes('seeUnretrievableAttributes') ? [] : (settings.unretrievableAttributes ?? []);
  const out: Record<string, unknown> = {};
  const all = wanted.includes('*');
  const excluded = new Set(wanted.filter((name) => name.startsWith('-')).map((name) => name.slice(1)));
  for (const [name, value] of Object.entries(record)) {
    if (name === 'objectID') continue;
    if (hidden.includes(name) || excluded.has(name)) continue;
    if (all || wanted.includes(name)) assign(out, name, value);
    else {
      // `a.b` retrieves the nested attribute b of a.
      const nested = wanted.filter((path) => path.startsWith(`${name}.`));
      if (nested.length > 0 && value && typeof value === 'object') {
        const picked: Record<string, unknown> = {};
        for (const path of nested) {
          const child = path.slice(name.length + 1);
          if (Object.hasOwn(value as object, child)) assign(picked, child, (value as Record<string, unknown>)[child]);
        }
        assign(out, name, picked);
      }
    }
  }
  out.objectID = record.objectID;
  return out;
}

/** A key with forced filters or a forced geo area (every layer of it) only sees the records they match. */
function keyVisibility(index: Index, key: KeyInfo): ((objectID: string) => boolean) | undefined {
  const forced = keyRecordConstraints(key);
  if (!forced) return undefined;
  const visible = new Set(index.matchingObjectIDs(toSearchParams(forced)));
  return (objectID) => visible.has(objectID);
}

/**
 * The parameters of a delete by query (document 1: "only filters (numeric, facet, tag) and geo queries are
 * honoured; an empty filter or empty query is refused"), with the key's forced filters and area: the call
 * deletes exactly what a search with them would match. `query` and any other search parameter are 400s
 * naming them; a call that would match every record (no filter, no area) is a 400.
 *
 * @example
 * deleteByQueryParams({ filters: 'kind:y', aroundLatLng: '48.85, 2.35', aroundRadius: 1000 }, key)
 */
export function deleteByQueryParams(raw: RawParams, key: KeyInfo): RawParams {
  const allowed: readonly string[] = RECORD_CONSTRAINTS;
  for (const name of Object.keys(raw)) {
    if (name === 'query')
      throw new HttpError(400, 'deleteByQuery does not take a query: only filters and geo parameters are honoured');
    if (!isSearchParameter(name)) throw new HttpError(400, `Unknown parameter: ${name}`);
    if (!allowed.includes(name))
      throw new HttpError(400, `${name} is not a parameter of deleteByQuery (it takes ${allowed.join(', ')})`);
  }
  const present = (value: unknown) =>
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
  if (present(raw.aroundRadius) && !present(raw.aroundLatLng))
    throw new HttpError(400, 'aroundRadius needs aroundLatLng (the centre of the area to delete in)');
  const filtered = ['filters', 'facetFilters', 'numericFilters', 'tagFilters'].some((name) => present(raw[name]));
  const area =
    (present(raw.aroundLatLng) && present(raw.aroundRadius) && raw.aroundRadius !== 'all') ||
    present(raw.insideBoundingBox) ||
    present(raw.insidePolygon);
  if (!filtered && !area) {
    throw new HttpError(
      400,
      'deleteByQuery needs a non-empty filter (filters, facetFilters, numericFilters or tagFilters) or a geo area (aroundLatLng with aroundRadius, insideBoundingBox, insidePolygon): without one it would delete every record',
    );
  }
  const withKey = applyKeyParams(raw, key);
  return Object.fromEntries(
    RECORD_CONSTRAINTS.filter((name) => withKey[name] !== undefined).map((n) => [n, withKey[n]]),
  );
}

// ---- routes ---------------------------------------------------------------------------------------------

export function register(app: Hono, ctx: ServiceContext): void {
  const { catalog } = internalsOf(ctx);
  const clusters = getClusters(ctx); // X-Service-User-ID: the user the written records belong to (clusters/service.ts)
  const SAVES = new Set(['addObject', 'updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate']);
  const savedIn = (operations: BatchOperation[], indexName: string) =>
    operations
      .filter((operation) => operation.indexName === indexName && SAVES.has(operation.action))
      .map((operation) => operation.objectID!);
  const writeTarget = (c: Context, right: Right) => {
    const indexName = c.req.param('indexName')!;
    ctx.authorize(c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };

  app.post('/1/indexes/:all{\\*}/batch', async (c) => {
    const key = ctx.authorize(c, 'any'); // credentials before the body is read
    const requests = requestsOf(await ctx.readJson(c));
    const operations = requests.map((request, position) =>
      prepareOperation(request, `requests[${position}]`, undefined),
    );
    if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
    for (const operation of operations) {
      requireRight(key, ACTION_RIGHTS[operation.action]!, operation.indexName);
      if (operation.action !== 'delete') requireWritable(ctx, catalog, operation.indexName);
    }
    const user = clusters.writer(c);
    const taskID: Record<string, number> = {};
    catalog.writeMany(() => {
      applyOperations(catalog, operations);
      for (const indexName of new Set(operations.map((operation) => operation.indexName))) {
        clusters.written(user, indexName, savedIn(operations, indexName));
        taskID[indexName] = catalog.write(indexName, 'batch', () => undefined).taskID;
      }
    });
    const objectIDs = operations
      .filter((operation) => operation.objectID !== undefined)
      .map((operation) => operation.objectID!);
    return c.json({ taskID, objectIDs });
  });

  app.post('/1/indexes/:all{\\*}/objects', async (c) => {
    // Get objects needs the search right (the document does not name one), checked before the body.
    const key = ctx.authorize(c, 'search');
    const requests = requestsOf(await ctx.readJson(c));
    // One visibility set per index and key (secured-key filters), not one per requested object.
    const visibility = new Map<string, ((objectID: string) => boolean) | undefined>();
    const results = requests.map((request, position) => {
      const where = `requests[${position}]`;
      const item = asObject(request, where);
      if (typeof item.indexName !== 'string' || !item.indexName)
        throw new HttpError(400, `${where}.indexName must be a non-empty string`);
      const objectID = objectIdOf(item.objectID, where);
      requireRight(key, 'search', item.indexName);
      const index = ctx.indices.get(item.indexName);
      const record = index?.getObject(objectID);
      if (!index || !record) return null;
      const cacheKey = `${item.indexName}\u0000${key.value}`;
      if (!visibility.has(cacheKey)) visibility.set(cacheKey, keyVisibility(index, key));
      const visible = visibility.get(cacheKey);
      if (visible && !visible(objectID)) return null;
      return retrieve(record, index, key, listParam(item.attributesToRetrieve, `${where}.attributesToRetrieve`));
    });
    return c.json({ results });
  });

  app.post('/1/indexes/:indexName/batch', async (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'any', indexName);
    validateIndexName(indexName);
    const requests = requestsOf(await ctx.readJson(c));
    const operations = requests.map((request, position) =>
      prepareOperation(request, `requests[${position}]`, indexName),
    );
    if (operations.length === 0) requireRight(key, EMPTY_BATCH_RIGHT);
    for (const right of new Set(operations.map((operation) => ACTION_RIGHTS[operation.action]!)))
      requireRight(key, right);
    if (operations.some((operation) => operation.action !== 'delete')) requireWritable(ctx, catalog, indexName);
    const user = clusters.writer(c);
    const { taskID } = catalog.write(indexName, 'batch', () => {
      catalog.ensure(indexName);
      applyOperations(catalog, operations);
      clusters.written(user, indexName, savedIn(operations, indexName));
    });
    const objectIDs = operations
      .filter((operation) => operation.objectID !== undefined)
      .map((operation) => operation.objectID!);
    return c.json({ taskID, objectIDs });
  });

  app.post('/1/indexes/:indexName/clear', async (c) => {
    const indexName = writeTarget(c, 'deleteIndex');
    requireWritable(ctx, catalog, indexName);
    const { taskID } = catalog.write(indexName, 'clear', () => catalog.clearObjects(indexName));
    return c.json({ updatedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/deleteByQuery', async (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'deleteIndex', indexName);
    validateIndexName(indexName);
    const raw = rawParams(asObject(await ctx.readJson(c)));
    const index = ctx.indices.require(indexName);
    requireWritable(ctx, catalog, indexName);
    const objectIDs = index.matchingObjectIDs(toSearchParams(deleteByQueryParams(raw, key)));
    const { taskID } = catalog.write(indexName, 'deleteByQuery', () => catalog.deleteObjects(indexName, objectIDs));
    return c.json({ deletedAt: now(), taskID });
  });

  app.post('/1/indexes/:indexName/:objectID/partial', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const objectID = c.req.param('objectID');
    const update = recordOf(await ctx.readJson(c), 'The partial update');
    validatePartial(update);
    requireWritable(ctx, catalog, indexName);
    const createParam = c.req.query('createIfNotExists');
    if (createParam !== undefined && createParam !== 'true' && createParam !== 'false') {
      throw new HttpError(400, 'createIfNotExists must be true or false');
    }
    const createIfNotExists = createParam === undefined || flag(createParam);
    const user = clusters.writer(c);
    const { taskID } = catalog.write(indexName, 'partialUpdateObject', () => {
      clusters.written(user, indexName, [objectID]);
      applyOperation(catalog, {
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
    const record = recordOf(await ctx.readJson(c), 'The record');
    requireWritable(ctx, catalog, indexName);
    const objectID = record.objectID === undefined ? randomUUID() : objectIdOf(record.objectID, 'The record');
    const user = clusters.writer(c);
    const { taskID } = catalog.write(indexName, 'addObject', () => {
      catalog.saveObjects(indexName, [{ ...record, objectID }]);
      clusters.written(user, indexName, [objectID]);
    });
    return c.json({ createdAt: now(), taskID, objectID });
  });

  app.put('/1/indexes/:indexName/:objectID', async (c) => {
    const indexName = writeTarget(c, 'addObject');
    const objectID = c.req.param('objectID');
    const record = recordOf(await ctx.readJson(c), 'The record');
    requireWritable(ctx, catalog, indexName);
    const user = clusters.writer(c);
    const { taskID } = catalog.write(indexName, 'updateObject', () => {
      catalog.saveObjects(indexName, [{ ...record, objectID }]);
      clusters.written(user, indexName, [objectID]);
    });
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.delete('/1/indexes/:indexName/:objectID', (c) => {
    const indexName = writeTarget(c, 'deleteObject');
    const objectID = c.req.param('objectID');
    requireWritable(ctx, catalog, indexName);
    const { taskID } = catalog.write(indexName, 'deleteObject', () => catalog.deleteObjects(indexName, [objectID]));
    return c.json({ deletedAt: now(), taskID });
  });
}

/** `GET /1/indexes/{indexName}/{objectID}`: registered after every other router (its path is the most generic). */
export function registerGetObject(app: Hono, ctx: ServiceContext): void {
  app.get('/1/indexes/:indexName/:objectID', (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'search', indexName);
    const index = ctx.indices.require(indexName);
    const objectID = c.req.param('objectID');
    const record = index.getObject(objectID);
    const visible = record ? keyVisibility(index, key) : undefined;
    if (!record || (visible && !visible(objectID)))
      throw new HttpError(404, `ObjectID ${objectID} does not exist in index ${indexName}`);
    return c.json(retrieve(record, index, key, listParam(c.req.query('attributesToRetrieve'), 'attributesToRetrieve')));
  });
}
