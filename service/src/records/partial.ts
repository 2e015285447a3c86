/**
 * Partial updates (document 1, "Partial update"): attributes replaced, or changed by one of the seven
 * built-in operations (`Increment`, `Decrement`, `Add`, `Remove`, `AddUnique`, `IncrementFrom`,
 * `IncrementSet`), with `createIfNotExists`.
 */
import { ServiceError } from '../errors.js';
import type { StoredRecord } from '../storage/types.js';

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
    throw new ServiceError(
      400,
      `${attribute}: unknown _operation ${JSON.stringify(_operation)} (expected one of ${OPERATIONS.join(', ')})`,
    );
  }
  switch (operation) {
    case 'Increment':
    case 'Decrement':
      if (typeof operand !== 'number' || !Number.isFinite(operand))
        throw new ServiceError(400, `${attribute}: ${operation} needs a numeric value`);
      break;
    case 'IncrementFrom':
    case 'IncrementSet':
      if (typeof operand !== 'number' || !Number.isInteger(operand))
        throw new ServiceError(400, `${attribute}: ${operation} needs an integer value`);
      break;
    default:
      if (typeof operand !== 'number' && typeof operand !== 'string') {
        throw new ServiceError(400, `${attribute}: ${operation} needs a number or a string value`);
      }
  }
  return { operation, value: operand };
}

/** Checks the operations of a partial update body before anything is written. */
export function validatePartial(update: Record<string, unknown>): void {
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
): StoredRecord | null {
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
  return record as StoredRecord;
}
