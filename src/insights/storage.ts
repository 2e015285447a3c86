/**
 * What Insights keeps in the browser (the user token, the queue, the conversion window), and storage access
 * that never throws: private mode, disabled storage and a full quota read as "nothing kept". The stored queue's
 * shape is `stored-queue.ts` (the first-paint script, in the loader's file, reads the token only).
 */

/** Storage key of the anonymous user token (unless it is kept in the cookie). */
export const TOKEN_KEY = 'svc-insights-user-token';

/** Safe access to one `Storage`: strings as they are, other values as JSON; `null` removes. */
export interface KeptValues {
  /** The stored string, or undefined/null when there is none or storage fails. */
  readRaw(key: string): string | null | undefined;
  /** The stored JSON value, or undefined (its shape is the caller's to check: storage is shared with other code). */
  read<T = unknown>(key: string): T | undefined;
  /** Stores `value` (a string as is, anything else as JSON); `null` or `undefined` removes the key. */
  write(key: string, value: unknown): void;
}

/**
 * Safe access to `storage` (default `localStorage`).
 *
 * @example
 * const kept = keptValues(localStorage);
 * kept.write('key', { a: 1 }); kept.read('key'); // { a: 1 }
 */
export function keptValues(storage: Storage | undefined = globalThis.localStorage): KeptValues {
  const readRaw = (key: string) => {
    try {
      return storage.getItem(key);
    } catch {
      return undefined;
    }
  };
  return {
    readRaw,
    read<T>(key: string) {
      try {
        return (JSON.parse(readRaw(key) ?? 'null') as T | null) ?? undefined;
      } catch {
        return undefined;
      }
    },
    write(key, value) {
      try {
        if (value == null) storage.removeItem(key);
        else storage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
      } catch {
        // Nothing kept: the events of this page are still sent while it lives.
      }
    },
  };
}

/** A random id (`crypto.randomUUID` where it exists). */
export const randomId = (): string =>
  globalThis.crypto?.randomUUID?.() ?? Date.now().toString(36) + Math.random().toString(36).slice(2);
