/**
 * Reading records (document 1, "Get objects"): the attributes a key may retrieve, and the records a key with
 * forced filters may see at all.
 */
import type { Index } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { KeyInfo } from '../keys/types.js';
import { keyRecordConstraints, toSearchParams } from '../search/key-params.js';

export function listParam(value: unknown, name: string): string[] | undefined {
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
      throw new ServiceError(400, `${name} must be an array of attribute names`);
    }
    return trimmed
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  throw new ServiceError(400, `${name} must be an array of attribute names`);
}

/** Sets an own data property (an attribute named `__proto__` stays data). */
function assign(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Picks the retrievable attributes of a record (`attributesToRetrieve`, `unretrievableAttributes`). */
export function retrieve(record: Record<string, unknown>, index: Index, key: KeyInfo, attributesToRetrieve?: string[]) {
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
export function keyVisibility(index: Index, key: KeyInfo): ((objectID: string) => boolean) | undefined {
  const forced = keyRecordConstraints(key);
  if (!forced) return undefined;
  const visible = new Set(index.matchingObjectIDs(toSearchParams(forced)));
  return (objectID) => visible.has(objectID);
}
