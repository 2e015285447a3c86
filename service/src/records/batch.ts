/**
 * Record writes (document 1, "Records"): the operations of a batch — checked before anything is written —
 * and applied inside a write of the task queue, to an index and its replicas.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { type Catalog, validateIndexName } from '../indices/catalog.js';
import type { KeyInfo, Right } from '../keys/types.js';
import type { StoredRecord } from '../storage/types.js';
import type { Write } from '../tasks/queue.js';
import { objectIdOf } from './object-id.js';
import { applyPartial, validatePartial } from './partial.js';

/** The right each batch action needs (document 1, "Batch"). */
export const ACTION_RIGHTS: Record<string, Right> = {
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
export const EMPTY_BATCH_RIGHT: Right = 'addObject';

/**
 * Before a batch's body is read: a key holding none of the rights a batch action needs can do nothing with
 * any batch, so it is refused (403) without its body being read. Each operation's own right is checked once
 * the body is read.
 *
 * @example
 * requireSomeBatchRight(searchKey); // ServiceError(403)
 */
export function requireSomeBatchRight(key: KeyInfo): void {
  if (key.isAdmin) return;
  const rights = [...new Set(Object.values(ACTION_RIGHTS))];
  if (rights.some((right) => key.acl.includes(right))) return;
  throw new ServiceError(
    403,
    `Method not allowed with this API key (a batch needs one of the rights ${rights.join(', ')})`,
  );
}

/** The actions that save a record (and give it to the writing user of a multi-cluster write). */
const SAVES = new Set(['addObject', 'updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate']);

export interface BatchOperation {
  action: string;
  indexName: string;
  body: Record<string, unknown>;
  objectID?: string;
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError(400, `${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * One operation of a batch body, checked: its action, its index (the path's, or its own on a multi-index
 * batch), its body and objectID (a generated one for `addObject` without), its partial-update operations.
 *
 * @example
 * prepareOperation({ action: 'addObject', body: { name: 'chair' } }, 'requests[0]', 'products')
 */
export function prepareOperation(request: unknown, where: string, indexName: string | undefined): BatchOperation {
  const item = asObject(request, where);
  const action = item.action;
  if (typeof action !== 'string' || !Object.hasOwn(ACTION_RIGHTS, action)) {
    throw new ServiceError(400, `${where}.action must be one of ${Object.keys(ACTION_RIGHTS).join(', ')}`);
  }
  const target = indexName ?? item.indexName;
  if (typeof target !== 'string') throw new ServiceError(400, `${where}.indexName must be a string`);
  validateIndexName(target);
  const body =
    item.body === undefined && (action === 'delete' || action === 'clear') ? {} : asObject(item.body, `${where}.body`);
  const operation: BatchOperation = { action, indexName: target, body };
  if (action === 'addObject') {
    operation.objectID = body.objectID === undefined ? randomUUID() : objectIdOf(body.objectID, where);
  } else if (action !== 'delete' && action !== 'clear') {
    operation.objectID = objectIdOf(body.objectID, where);
  }
  if (action === 'partialUpdateObject' || action === 'partialUpdateObjectNoCreate') validatePartial(body);
  return operation;
}

/** Records are written to a primary; a replica mirrors it (400 naming the primary). */
export function requireWritable(catalog: Catalog, indexName: string): void {
  const primary = catalog.meta(indexName)?.primary;
  if (primary)
    throw new ServiceError(400, `Index ${indexName} is a replica of ${primary}: write records to ${primary}`);
}

/**
 * Applies a batch's checked operations in order inside `write`. Consecutive saves to one index go to the
 * catalog (and the engine) as one `saveObjects`: a batch of a thousand records is indexed as one, not as a
 * thousand.
 *
 * @example
 * applyOperations(catalog, write, operations)
 */
export function applyOperations(catalog: Catalog, write: Write, operations: readonly BatchOperation[]): void {
  let saves: StoredRecord[] = [];
  let target = '';
  const flush = () => {
    // the bodies were parsed from this request and nothing else holds them: the index can keep them
    if (saves.length > 0) catalog.saveObjects(write, target, saves, { owned: true });
    saves = [];
  };
  for (const operation of operations) {
    if (operation.action === 'addObject' || operation.action === 'updateObject') {
      if (operation.indexName !== target) flush();
      target = operation.indexName;
      saves.push({ ...operation.body, objectID: operation.objectID! });
    } else {
      flush();
      applyOperation(catalog, write, operation);
    }
  }
  flush();
}

/** Applies one checked operation inside `write`. */
export function applyOperation(catalog: Catalog, write: Write, operation: BatchOperation): void {
  const { action, indexName, body, objectID } = operation;
  switch (action) {
    case 'addObject':
    case 'updateObject':
      catalog.saveObjects(write, indexName, [{ ...structuredClone(body), objectID: objectID! }]);
      break;
    case 'partialUpdateObject':
    case 'partialUpdateObjectNoCreate': {
      const current = catalog.get(indexName)?.getObject(objectID!);
      const next = applyPartial(current, body, objectID!, action === 'partialUpdateObject');
      if (next) catalog.saveObjects(write, indexName, [next]);
      else catalog.ensure(write, indexName);
      break;
    }
    case 'deleteObject':
      catalog.deleteObjects(write, indexName, [objectID!]);
      break;
    case 'clear':
      catalog.clearObjects(write, indexName);
      break;
    case 'delete':
      catalog.deleteIndex(write, indexName);
      break;
  }
}

/** The objectIDs an index's operations save (what a multi-cluster write gives its user). */
export function savedIn(operations: readonly BatchOperation[], indexName: string): string[] {
  return operations
    .filter((operation) => operation.indexName === indexName && SAVES.has(operation.action))
    .map((operation) => operation.objectID!);
}
