import { ServiceError } from '../errors.js';

/**
 * objectIDs are strings; integers are accepted and turned into strings, as the hosted API does.
 *
 * @example
 * objectIdOf(42, 'The record') // '42'
 */
export function objectIdOf(value: unknown, where: string): string {
  if (typeof value === 'string' && value.length > 0) {
    if (Buffer.byteLength(value) > 512) throw new ServiceError(400, `${where}: objectID is longer than 512 bytes`);
    return value;
  }
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new ServiceError(400, `${where}: objectID must be a non-empty string`);
}
