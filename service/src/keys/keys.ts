/**
 * API keys created through `/1/keys` and `/1/indexes/{indexName}/keys` (the admin and search keys of the
 * service options are not stored): kept in memory — every call's authorisation reads them — and written
 * through the task queue. A key whose `validity` has elapsed stops working at once and is purged (for good:
 * not restorable) at the next listing; a deleted key can be restored.
 */
import { randomBytes } from 'node:crypto';
import type { KeyStore, StoredKey } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import type { Right } from './types.js';

export type { StoredKey } from '../storage/types.js';

/** The fields a create or update sets (every one optional). */
export type KeyFields = Partial<Omit<StoredKey, 'value' | 'createdAt' | 'index' | 'deletedAt' | 'acl'>> & {
  acl?: Right[];
};

function expired(key: StoredKey, now: number): boolean {
  return key.validity > 0 && now >= key.createdAt + key.validity * 1000;
}

/** Oldest first, then by value (the order of the lists). */
function byCreation(a: StoredKey, b: StoredKey): number {
  return a.createdAt - b.createdAt || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/**
 * @example
 * const keys = await Keys.load(storage.keys, tasks);
 * const key = await keys.create({ acl: ['search'], indexes: ['products'] });
 * keys.get(key.value)?.acl // ['search']
 */
export class Keys {
  readonly #tasks: TaskQueue;
  /** Every stored key by value, deleted ones included. */
  readonly #keys = new Map<string, StoredKey>();

  /** The service clock (Unix ms): creation, deletion and `validity` are counted on it. */
  readonly #now: () => number;

  private constructor(tasks: TaskQueue, now: () => number) {
    this.#tasks = tasks;
    this.#now = now;
  }

  static async load(store: KeyStore, tasks: TaskQueue, now: () => number = Date.now): Promise<Keys> {
    const keys = new Keys(tasks, now);
    await keys.reload(store);
    return keys;
  }

  /** Reads every key from storage again (a replica applying another replica's write). */
  async reload(store: KeyStore): Promise<void> {
    const stored = await store.all();
    this.#keys.clear();
    for (const key of stored) this.#keys.set(key.value, key);
  }

  /** A live key (not deleted, not expired). */
  get(value: string): StoredKey | undefined {
    const key = this.#keys.get(value);
    if (!key || key.deletedAt !== undefined || expired(key, this.#now())) return undefined;
    return key;
  }

  /** Every live non-admin key value: candidate parents of a secured API key. */
  values(): string[] {
    const now = this.#now();
    return [...this.#keys.values()]
      .filter((key) => key.deletedAt === undefined && !expired(key, now))
      .map((key) => key.value);
  }

  /** The live keys (of one index when given), oldest first; expired keys are purged first. */
  async list(index?: string): Promise<StoredKey[]> {
    const now = this.#now();
    const gone = [...this.#keys.values()].filter((key) => expired(key, now)).map((key) => key.value);
    if (gone.length > 0) {
      await this.#tasks.run({ indexName: '*', kind: 'keys:purge' }, (write) => {
        write.change({ area: 'keys', type: 'purge', values: gone });
        write.afterCommit(() => {
          for (const value of gone) this.#keys.delete(value);
        });
      });
    }
    return [...this.#keys.values()]
      .filter((key) => key.deletedAt === undefined && (index === undefined || key.index === index))
      .sort(byCreation);
  }

  async create(fields: KeyFields, index?: string): Promise<StoredKey> {
    const key: StoredKey = {
      value: randomBytes(16).toString('hex'),
      acl: fields.acl ?? [],
      description: fields.description ?? '',
      validity: fields.validity ?? 0,
      maxHitsPerQuery: fields.maxHitsPerQuery ?? 0,
      maxQueriesPerIPPerHour: fields.maxQueriesPerIPPerHour ?? 0,
      queryParameters: fields.queryParameters ?? '',
      referers: fields.referers ?? [],
      createdAt: this.#now(),
    };
    if (fields.indexes) key.indexes = fields.indexes;
    if (index !== undefined) key.index = index;
    await this.#put('keys:create', key);
    return key;
  }

  /** Replaces the given fields; `undefined` when the key does not exist. */
  async update(value: string, fields: KeyFields): Promise<StoredKey | undefined> {
    const key = this.get(value);
    if (!key) return undefined;
    const next: StoredKey = { ...key, ...fields };
    if (fields.validity !== undefined) next.createdAt = this.#now(); // validity counts from the update
    await this.#put('keys:update', next);
    return next;
  }

  /** Moves the key to the deleted list; false when it did not exist. */
  async delete(value: string): Promise<boolean> {
    const key = this.get(value);
    if (!key) return false;
    await this.#put('keys:delete', { ...key, deletedAt: this.#now() });
    return true;
  }

  /** Brings a deleted key back; undefined when it is not in the deleted list. */
  async restore(value: string): Promise<StoredKey | undefined> {
    const key = this.#keys.get(value);
    if (!key || key.deletedAt === undefined) return undefined;
    const { deletedAt: _deletedAt, ...restored } = key;
    await this.#put('keys:restore', restored);
    return this.get(value);
  }

  async #put(kind: string, key: StoredKey): Promise<void> {
    await this.#tasks.run({ indexName: '*', kind }, (write) => {
      write.change({ area: 'keys', type: 'put', key });
      write.afterCommit(() => this.#keys.set(key.value, key));
    });
  }
}
