/**
 * The indices of the service: the engine `Index` of each index with its settings, replicas, rules and
 * synonyms, in memory — what every search reads — loaded from storage at start and kept in step with it:
 * every change is made inside a write of the task queue (`tasks/queue.ts`), which records what storage must
 * keep and commits it with the write's task. A write that fails to commit rebuilds the indices it touched
 * from storage.
 *
 * Replicas (`replicas` setting) are indices of their own whose records mirror the primary's: every record
 * write to a primary is applied to its replicas in the same write. Settings with replicas, copy and move:
 * `settings.ts`.
 */
import { type Dictionaries, Index, type Synonym } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { Write } from '../tasks/queue.js';
import type { CatalogChange, CatalogStore, IndexMeta, ItemKind, Rule, StoredRecord } from '../storage/types.js';

/** Settings the service handles itself rather than the engine. */
export const SERVICE_SETTINGS = new Set(['replicas', 'primary']);

/**
 * @example
 * const catalog = await Catalog.load(storage.catalog, dictionaries);
 * await tasks.run({ indexName: 'products', kind: 'addObject' }, (write) => catalog.saveObjects(write, 'products', [record]));
 * catalog.require('products').search(params);
 */
export class Catalog {
  readonly #store: CatalogStore;
  readonly #dictionaries: Dictionaries;
  readonly #indices = new Map<string, Index>();
  readonly #meta = new Map<string, IndexMeta>();
  /** Rules of each index (document 1, Rules), in the order they were first saved. */
  readonly #rules = new Map<string, Map<string, Rule>>();
  /** Synonyms of each index (document 1, Synonyms), in the order they were first saved; mirrored in the engine index. */
  readonly #synonyms = new Map<string, Map<string, Synonym>>();
  /**
   * The write in progress: the indices whose row it must store (once, before its commit), and the engine
   * indices whose upkeep waits for its end (`Index.beginBatch`).
   */
  #dirty: { write: Write; names: Set<string>; batched: Map<string, Index> } | undefined;

  private constructor(store: CatalogStore, dictionaries: Dictionaries) {
    this.#store = store;
    this.#dictionaries = dictionaries;
  }

  /** Builds every index from storage (service start). */
  static async load(store: CatalogStore, dictionaries: Dictionaries): Promise<Catalog> {
    const catalog = new Catalog(store, dictionaries);
    for (const meta of await store.indices()) await catalog.#loadIndex(meta);
    return catalog;
  }

  // ---- reads -------------------------------------------------------------------------------------------

  get(name: string): Index | undefined {
    return this.#indices.get(name);
  }

  /** The index, or 404. */
  require(name: string): Index {
    const index = this.#indices.get(name);
    if (!index) throw new ServiceError(404, `Index ${name} does not exist`);
    return index;
  }

  names(): string[] {
    return [...this.#indices.keys()].sort();
  }

  meta(name: string): IndexMeta | undefined {
    return this.#meta.get(name);
  }

  /** Full settings as the API answers them: the engine's settings plus `replicas`/`primary`. */
  settingsOf(name: string): Record<string, unknown> {
    const index = this.require(name);
    const meta = this.#meta.get(name)!;
    const settings: Record<string, unknown> = { ...(index.getSettings() as unknown as Record<string, unknown>) };
    for (const key of SERVICE_SETTINGS) delete settings[key];
    if (meta.replicas.length > 0) settings.replicas = [...meta.replicas];
    if (meta.primary) settings.primary = meta.primary;
    return settings;
  }

  /** Stored bytes of each index's records (JSON). */
  dataSizes(): Promise<Map<string, number>> {
    return this.#store.dataSizes();
  }

  /** The synonyms of an index (empty when none). */
  synonyms(name: string): Synonym[] {
    return [...(this.#synonyms.get(name)?.values() ?? [])];
  }

  getSynonym(name: string, objectID: string): Synonym | undefined {
    return this.#synonyms.get(name)?.get(objectID);
  }

  /** The rules of an index (empty when none). */
  rules(name: string): Rule[] {
    return [...(this.#rules.get(name)?.values() ?? [])];
  }

  getRule(name: string, objectID: string): Rule | undefined {
    return this.#rules.get(name)?.get(objectID);
  }

  /** The index and its replicas. */
  withReplicas(name: string): string[] {
    return [name, ...(this.#meta.get(name)?.replicas ?? [])];
  }

  // ---- records -----------------------------------------------------------------------------------------

  /** Creates the index when missing (a write to an unknown index creates it). */
  ensure(write: Write, name: string): Index {
    const existing = this.#indices.get(name);
    if (existing) return existing;
    const now = Date.now();
    const meta: IndexMeta = { name, settings: {}, replicas: [], createdAt: now, updatedAt: now };
    const index = this.newIndex(name);
    this.#indices.set(name, index);
    this.#meta.set(name, meta);
    this.touch(write, name);
    return index;
  }

  /**
   * Adds or replaces whole records (and mirrors them to the replicas). The engine gets its own copy of
   * each record, parsed back from the JSON that is stored: what it would read after a restart.
   * `owned`: the records are the caller's to give away (parsed from one request, held by nothing else),
   * so the index keeps them as they are (the engine never changes a record it holds).
   *
   * @example
   * catalog.saveObjects(write, 'products', [{ objectID: '1', name: 'Chair' }]);
   */
  saveObjects(write: Write, name: string, records: StoredRecord[], options: { owned?: boolean } = {}): void {
    if (records.length === 0) {
      this.ensure(write, name);
      return;
    }
    const texts = records.map((record) => JSON.stringify(record));
    let given = options.owned === true;
    for (const target of this.withReplicas(name)) {
      const index = this.ensure(write, target);
      this.touch(write, target);
      write.change({ area: 'catalog', type: 'putItems', kind: 'records', indexName: target, items: records, texts });
      index.saveObjects(given ? records : texts.map((text) => JSON.parse(text) as StoredRecord));
      given = false;
    }
  }

  deleteObjects(write: Write, name: string, objectIDs: string[]): void {
    for (const target of this.withReplicas(name)) {
      const index = this.#indices.get(target);
      if (!index) continue;
      this.touch(write, target);
      write.change({ area: 'catalog', type: 'deleteItems', kind: 'records', indexName: target, objectIDs });
      index.deleteObjects(objectIDs);
    }
  }

  /** Removes the records, keeps settings. */
  clearObjects(write: Write, name: string): void {
    for (const target of this.withReplicas(name)) {
      const index = this.#indices.get(target);
      if (!index) continue;
      this.touch(write, target);
      write.change({ area: 'catalog', type: 'clearItems', kind: 'records', indexName: target });
      index.clear();
    }
  }

  /** Deletes the index; its replicas become regular indices, a replica leaves its primary's list. */
  deleteIndex(write: Write, name: string): void {
    const meta = this.#meta.get(name);
    if (!meta) return;
    this.touch(write, name);
    for (const replica of meta.replicas) {
      const replicaMeta = this.#meta.get(replica);
      if (replicaMeta) {
        delete replicaMeta.primary;
        this.touch(write, replica);
      }
    }
    if (meta.primary) {
      const primaryMeta = this.#meta.get(meta.primary);
      if (primaryMeta) {
        primaryMeta.replicas = primaryMeta.replicas.filter((replica) => replica !== name);
        this.touch(write, meta.primary);
      }
    }
    write.change({ area: 'catalog', type: 'dropIndex', name });
    this.#indices.delete(name);
    this.#meta.delete(name);
    this.#rules.delete(name);
    this.#synonyms.delete(name);
  }

  // ---- rules and synonyms ------------------------------------------------------------------------------

  /** Adds or replaces synonyms; `replaceExisting` replaces every synonym of the index. */
  saveSynonyms(write: Write, name: string, synonyms: Synonym[], replaceExisting = false, forward = false): void {
    for (const target of forward ? this.withReplicas(name) : [name]) {
      this.ensure(write, target);
      this.#putItems(write, 'synonyms', this.#synonyms, target, synonyms, replaceExisting);
      this.#indices.get(target)?.setSynonyms(this.synonyms(target));
    }
  }

  /** Deletes one synonym; false when the index has no such synonym. */
  deleteSynonym(write: Write, name: string, objectID: string, forward = false): boolean {
    const found = this.#deleteItem(write, 'synonyms', this.#synonyms, name, objectID, forward);
    for (const target of forward ? this.withReplicas(name) : [name])
      this.#indices.get(target)?.setSynonyms(this.synonyms(target));
    return found;
  }

  clearSynonyms(write: Write, name: string, forward = false): void {
    for (const target of forward ? this.withReplicas(name) : [name]) {
      if (!this.#meta.has(target)) continue;
      this.#clearItems(write, 'synonyms', this.#synonyms, target);
      this.#indices.get(target)?.setSynonyms([]);
    }
  }

  /** Adds or replaces rules; `clearExisting` replaces every rule of the index. */
  saveRules(write: Write, name: string, rules: Rule[], clearExisting = false, forward = false): void {
    for (const target of forward ? this.withReplicas(name) : [name]) {
      this.ensure(write, target);
      this.#putItems(write, 'rules', this.#rules, target, rules, clearExisting);
    }
  }

  /** Deletes one rule; false when the index has no such rule. */
  deleteRule(write: Write, name: string, objectID: string, forward = false): boolean {
    return this.#deleteItem(write, 'rules', this.#rules, name, objectID, forward);
  }

  clearRules(write: Write, name: string, forward = false): void {
    for (const target of forward ? this.withReplicas(name) : [name]) {
      if (this.#meta.has(target)) this.#clearItems(write, 'rules', this.#rules, target);
    }
  }

  #putItems<T extends { objectID: string }>(
    write: Write,
    kind: 'rules' | 'synonyms',
    maps: Map<string, Map<string, T>>,
    target: string,
    items: T[],
    replaceExisting: boolean,
  ): void {
    this.touch(write, target);
    if (replaceExisting) this.#clearItems(write, kind, maps, target);
    let map = maps.get(target);
    if (!map) {
      map = new Map();
      maps.set(target, map);
    }
    write.change({ area: 'catalog', type: 'putItems', kind, indexName: target, items: items as never });
    for (const item of items) map.set(item.objectID, structuredClone(item));
  }

  #deleteItem(
    write: Write,
    kind: 'rules' | 'synonyms',
    maps: Map<string, Map<string, unknown>>,
    name: string,
    objectID: string,
    forward: boolean,
  ): boolean {
    let found = false;
    for (const target of forward ? this.withReplicas(name) : [name]) {
      const map = maps.get(target);
      if (!map?.has(objectID)) continue;
      this.touch(write, target);
      if (target === name) found = true;
      write.change({ area: 'catalog', type: 'deleteItems', kind, indexName: target, objectIDs: [objectID] });
      map.delete(objectID);
    }
    return found;
  }

  #clearItems(write: Write, kind: ItemKind, maps: Map<string, unknown>, target: string): void {
    this.touch(write, target);
    write.change({ area: 'catalog', type: 'clearItems', kind, indexName: target });
    maps.delete(target);
  }

  // ---- upkeep (shared with settings.ts) ------------------------------------------------------------------

  /** A new engine index with the service's dictionaries. */
  newIndex(name: string): Index {
    return new Index(name, { dictionaries: this.#dictionaries });
  }

  /** Puts a new engine index in place of `name`'s (a full copy starts from a fresh index). */
  replaceIndex(write: Write, name: string, index: Index): void {
    this.#indices.set(name, index);
    this.touch(write, name);
  }

  /**
   * Marks an index as changed by `write`: its row (settings, replicas, `updatedAt`) is stored once before the
   * commit, and it is rebuilt from storage if the write fails. Its engine upkeep (`Index.beginBatch`) waits
   * for the end of the write, so a task of many operations pays it once, just after it is acknowledged.
   */
  touch(write: Write, name: string): void {
    let dirty = this.#dirty;
    if (dirty?.write !== write) {
      const started = { write, names: new Set<string>(), batched: new Map<string, Index>() };
      dirty = started;
      this.#dirty = started;
      write.beforeCommit(() => {
        const now = Date.now();
        for (const dirtyName of started.names) {
          const meta = this.#meta.get(dirtyName);
          if (!meta) continue;
          meta.updatedAt = now;
          write.change({ area: 'catalog', type: 'putIndex', meta: structuredClone(meta) });
        }
        if (this.#dirty === started) this.#dirty = undefined;
      });
      write.afterCommit(() => {
        const batched = [...started.batched.values()];
        started.batched.clear();
        // The upkeep runs once the write is acknowledged (the answer is on its way; a search before it does
        // the upkeep itself), so the next batch's request travels meanwhile; a write that comes first joins
        // the batch, and the upkeep runs once for both.
        setImmediate(() => {
          for (const index of batched) index.endBatch();
        });
      });
      // the indices the write touched are rebuilt from storage: their batches go with them
      write.onFailure(() => {
        started.batched.clear();
        return this.#restore(started.names);
      });
    }
    dirty.names.add(name);
    const index = this.#indices.get(name);
    if (index && dirty.batched.get(name) !== index) {
      index.beginBatch();
      dirty.batched.set(name, index);
    }
  }

  /**
   * Applies another replica's write (its catalog changes, in log order) to memory: record changes go to the
   * engine index as they are; an index whose settings, replicas, rules or synonyms changed, or that was
   * created or dropped, is rebuilt from storage.
   *
   * @example
   * await catalog.replay([{ area: 'catalog', type: 'putItems', kind: 'records', indexName: 'products', items }]);
   */
  async replay(changes: readonly CatalogChange[]): Promise<void> {
    const rebuilt = new Set<string>();
    for (const change of changes) {
      if (change.type === 'dropIndex') rebuilt.add(change.name);
      else if (change.type === 'putIndex') {
        const known = this.#meta.get(change.meta.name);
        if (!known || !sameIndexRow(known, change.meta)) rebuilt.add(change.meta.name);
      } else if (change.kind !== 'records' || !this.#indices.has(change.indexName)) rebuilt.add(change.indexName);
    }
    // The engine's upkeep once per index for the whole write, as on the writer.
    const batched = new Set<Index>();
    try {
      for (const change of changes) {
        if (change.type === 'putIndex') {
          const known = this.#meta.get(change.meta.name);
          if (known && !rebuilt.has(change.meta.name)) known.updatedAt = change.meta.updatedAt;
          continue;
        }
        if (change.type === 'dropIndex' || rebuilt.has(change.indexName)) continue;
        const index = this.#indices.get(change.indexName)!;
        if (!batched.has(index)) {
          index.beginBatch();
          batched.add(index);
        }
        // The items were parsed from the log for this replica alone: the engine keeps them as they are.
        if (change.type === 'putItems') index.saveObjects([...change.items] as StoredRecord[]);
        else if (change.type === 'deleteItems') index.deleteObjects([...change.objectIDs]);
        else index.clear();
      }
    } finally {
      for (const index of batched) index.endBatch();
    }
    for (const name of rebuilt) {
      const meta = await this.#store.index(name);
      // Built aside, then put in place: searches meanwhile answer from the previous index, never a 404.
      if (meta) await this.#loadIndex(meta);
      else {
        this.#indices.delete(name);
        this.#meta.delete(name);
        this.#rules.delete(name);
        this.#synonyms.delete(name);
      }
    }
  }

  /**
   * Builds every index from storage again (a replica that found the log pruned past it): each is built aside
   * and put in place, so searches meanwhile answer from the previous one; indices gone from storage go.
   *
   * @example
   * await catalog.reload();
   */
  async reload(): Promise<void> {
    const stored = await this.#store.indices();
    const names = new Set(stored.map((meta) => meta.name));
    for (const meta of stored) await this.#loadIndex(meta);
    for (const name of [...this.#indices.keys()]) {
      if (names.has(name)) continue;
      this.#indices.delete(name);
      this.#meta.delete(name);
      this.#rules.delete(name);
      this.#synonyms.delete(name);
    }
  }

  async #loadIndex(meta: IndexMeta): Promise<void> {
    const index = this.newIndex(meta.name);
    if (Object.keys(meta.settings).length > 0) index.setSettings(structuredClone(meta.settings) as never);
    const records = await this.#store.items('records', meta.name);
    if (records.length > 0) index.saveObjects(records);
    const rules = await this.#store.items('rules', meta.name);
    const synonyms = await this.#store.items('synonyms', meta.name);
    this.#indices.set(meta.name, index);
    this.#meta.set(meta.name, meta);
    if (rules.length > 0) this.#rules.set(meta.name, new Map(rules.map((rule) => [rule.objectID, rule])));
    else this.#rules.delete(meta.name);
    if (synonyms.length > 0) {
      this.#synonyms.set(meta.name, new Map(synonyms.map((synonym) => [synonym.objectID, synonym])));
      index.setSynonyms(synonyms);
    } else this.#synonyms.delete(meta.name);
  }

  /** After a failed write: rebuild the touched indices from storage. */
  async #restore(names: Set<string>): Promise<void> {
    if (this.#dirty?.names === names) this.#dirty = undefined;
    for (const name of names) {
      this.#indices.delete(name);
      this.#meta.delete(name);
      this.#rules.delete(name);
      this.#synonyms.delete(name);
      const meta = await this.#store.index(name);
      if (meta) await this.#loadIndex(meta);
    }
  }
}

/** Whether two rows of an index hold the same settings, primary and replicas (`updatedAt` aside). */
function sameIndexRow(a: IndexMeta, b: IndexMeta): boolean {
  return (
    a.primary === b.primary &&
    JSON.stringify(a.replicas) === JSON.stringify(b.replicas) &&
    JSON.stringify(a.settings) === JSON.stringify(b.settings)
  );
}

/**
 * Index names: non-empty, at most 512 bytes, no `*` (reserved for multi-index paths), no control characters.
 *
 * @example
 * validateIndexName('products') // ok; validateIndexName('a*') // ServiceError 400
 */
export function validateIndexName(name: string): void {
  if (typeof name !== 'string' || name.length === 0)
    throw new ServiceError(400, 'Invalid indexName: it must be a non-empty string');
  if (Buffer.byteLength(name) > 512) throw new ServiceError(400, 'Invalid indexName: longer than 512 bytes');
  if (name.includes('*') || hasControlCharacter(name)) {
    throw new ServiceError(
      400,
      `Invalid indexName ${JSON.stringify(name)}: '*' and control characters are not allowed`,
    );
  }
}

/** A C0 control character or DEL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
