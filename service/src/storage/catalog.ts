/**
 * The indices of the service: the in-memory engine `Index` of each index, kept in step with the
 * database. Every write runs in one SQLite transaction that also publishes its task, so a write whose
 * task is published is durable (WAL, synchronous FULL) and already visible to reads.
 *
 * Replicas (`replicas` setting) are indices of their own whose records mirror the primary's: every
 * record write to a primary is applied to its replicas in the same transaction.
 */
import type Database from 'better-sqlite3';
import { Dictionaries, Index, type Synonym } from '../engine/index.js';
import { HttpError } from '../http/errors.js';

export type Record_ = Record<string, unknown> & { objectID: string };

export interface IndexMeta {
  name: string;
  /** Settings as given (accumulated partial updates), without `replicas`/`primary`. */
  settings: Record<string, unknown>;
  primary?: string;
  replicas: string[];
  createdAt: number;
  updatedAt: number;
}

interface IndexRow {
  name: string;
  settings: string;
  primary_index: string | null;
  replicas: string;
  created_at: number;
  updated_at: number;
}

/** Rows per record upsert statement in a large write. */
const UPSERT_ROWS = 100;

/** Settings the service handles itself rather than the engine. */
const SERVICE_SETTINGS = new Set(['replicas', 'primary']);

export type CopyScope = 'settings' | 'synonyms' | 'rules' | 'records';

/** A rule (document 1, Rules): validated by the rules router, stored as given. */
export interface Rule {
  objectID: string;
  conditions?: Array<{
    pattern?: string;
    anchoring?: 'is' | 'startsWith' | 'endsWith' | 'contains';
    context?: string;
    alternatives?: boolean;
  }>;
  consequence: {
    params?: Record<string, unknown>;
    promote?: Array<{ objectID?: string; objectIDs?: string[]; position: number }>;
    hide?: Array<{ objectID: string }>;
    userData?: unknown;
    filterPromotes?: boolean;
  };
  description?: string;
  enabled?: boolean;
  validity?: Array<{ from: number; until: number }>;
  [field: string]: unknown;
}

export class Catalog {
  readonly #db: Database.Database;
  readonly #indices = new Map<string, Index>();
  readonly #meta = new Map<string, IndexMeta>();
  /** Rules of each index (document 1, Rules), in the order they were first saved. */
  readonly #rules = new Map<string, Map<string, Rule>>();
  /** Synonyms of each index (document 1, Synonyms), in the order they were first saved; mirrored in the engine index. */
  readonly #synonyms = new Map<string, Map<string, Synonym>>();
  #touched: Set<string> | null = null;
  /** Indices whose engine upkeep waits for the end of the current write (`Index.beginBatch`). */
  #batched = new Map<string, Index>();
  readonly #stmt;
  #upsertMany: Database.Statement | undefined;
  /** The service's language dictionaries, shared by every index. */
  readonly #dictionaries: Dictionaries;

  constructor(db: Database.Database, dictionaries: Dictionaries = new Dictionaries()) {
    this.#db = db;
    this.#dictionaries = dictionaries;
    this.#stmt = {
      allIndices: db.prepare('SELECT * FROM service_indices ORDER BY name'),
      upsertIndex: db.prepare(
        `INSERT INTO service_indices (name, settings, primary_index, replicas, created_at, updated_at)
         VALUES (@name, @settings, @primary, @replicas, @createdAt, @updatedAt)
         ON CONFLICT (name) DO UPDATE SET settings = excluded.settings, primary_index = excluded.primary_index,
           replicas = excluded.replicas, updated_at = excluded.updated_at`,
      ),
      deleteIndex: db.prepare('DELETE FROM service_indices WHERE name = ?'),
      records: db.prepare('SELECT body FROM service_records WHERE index_name = ? ORDER BY seq'),
      upsertRecord: db.prepare(
        `INSERT INTO service_records (index_name, object_id, body) VALUES (?, ?, ?)
         ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
      ),
      deleteRecord: db.prepare('DELETE FROM service_records WHERE index_name = ? AND object_id = ?'),
      clearRecords: db.prepare('DELETE FROM service_records WHERE index_name = ?'),
      rules: db.prepare('SELECT body FROM service_rules WHERE index_name = ? ORDER BY seq'),
      upsertRule: db.prepare(
        `INSERT INTO service_rules (index_name, object_id, body) VALUES (?, ?, ?)
         ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
      ),
      deleteRule: db.prepare('DELETE FROM service_rules WHERE index_name = ? AND object_id = ?'),
      clearRules: db.prepare('DELETE FROM service_rules WHERE index_name = ?'),
      synonyms: db.prepare('SELECT body FROM service_synonyms WHERE index_name = ? ORDER BY seq'),
      upsertSynonym: db.prepare(
        `INSERT INTO service_synonyms (index_name, object_id, body) VALUES (?, ?, ?)
         ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
      ),
      deleteSynonym: db.prepare('DELETE FROM service_synonyms WHERE index_name = ? AND object_id = ?'),
      clearSynonyms: db.prepare('DELETE FROM service_synonyms WHERE index_name = ?'),
      insertTask: db.prepare(
        'INSERT INTO service_tasks (index_name, kind, created_at, published_at) VALUES (?, ?, ?, ?)',
      ),
      publishTask: db.prepare('UPDATE service_tasks SET published_at = ? WHERE task_id = ?'),
      task: db.prepare('SELECT task_id, index_name, published_at FROM service_tasks WHERE task_id = ?'),
    };
  }

  /** Rebuilds every index from the database (service start). */
  load(): void {
    this.#indices.clear();
    this.#meta.clear();
    this.#rules.clear();
    this.#synonyms.clear();
    for (const row of this.#stmt.allIndices.all() as IndexRow[]) this.#loadIndex(row);
  }

  get(name: string): Index | undefined {
    return this.#indices.get(name);
  }

  require(name: string): Index {
    const index = this.#indices.get(name);
    if (!index) throw new HttpError(404, `Index ${name} does not exist`);
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

  /**
   * Runs `fn` in one transaction and publishes a task for `indexName`. On failure the database rolls
   * back and the touched in-memory indices are rebuilt from it, so memory never runs ahead of disk.
   *
   * @example
   * const { taskID } = catalog.write('products', 'addObject', () => catalog.saveObjects('products', [record]));
   */
  write<T>(indexName: string, kind: string, fn: () => T): { taskID: number; result: T } {
    const outer = this.#touched === null;
    if (outer) this.#touched = new Set();
    try {
      const run = this.#db.transaction(() => {
        const now = Date.now();
        const taskID = Number(this.#stmt.insertTask.run(indexName, kind, now, null).lastInsertRowid);
        const result = fn();
        // Published inside the same transaction: visible and durable at the same moment.
        this.#stmt.publishTask.run(Date.now(), taskID);
        return { taskID, result };
      });
      const done = run();
      if (outer) this.#finishBatches();
      return done;
    } catch (error) {
      if (outer) this.#restore(this.#touched!);
      throw error;
    } finally {
      if (outer) {
        this.#touched = null;
        this.#batched.clear();
      }
    }
  }

  /** Several writes (e.g. a multi-index batch) in one transaction, one task per index. */
  writeMany<T>(fn: () => T): T {
    const outer = this.#touched === null;
    if (outer) this.#touched = new Set();
    try {
      const done = this.#db.transaction(fn)();
      if (outer) this.#finishBatches();
      return done;
    } catch (error) {
      if (outer) this.#restore(this.#touched!);
      throw error;
    } finally {
      if (outer) {
        this.#touched = null;
        this.#batched.clear();
      }
    }
  }

  /** Stored bytes of each index's records (JSON), from the database in one query. */
  dataSizes(): Map<string, number> {
    const rows = this.#db
      .prepare('SELECT index_name, SUM(LENGTH(body)) AS size FROM service_records GROUP BY index_name')
      .all() as Array<{
      index_name: string;
      size: number;
    }>;
    return new Map(rows.map((row) => [row.index_name, row.size]));
  }

  taskStatus(taskID: number): { indexName: string; published: boolean } | undefined {
    const row = this.#stmt.task.get(taskID) as { index_name: string; published_at: number | null } | undefined;
    if (!row) return undefined;
    return { indexName: row.index_name, published: row.published_at !== null };
  }

  /** Creates the index when missing (a write to an unknown index creates it). */
  ensure(name: string): Index {
    const existing = this.#indices.get(name);
    if (existing) return existing;
    this.#touch(name);
    const now = Date.now();
    const meta: IndexMeta = { name, settings: {}, replicas: [], createdAt: now, updatedAt: now };
    const index = this.#newIndex(name);
    this.#indices.set(name, index);
    this.#meta.set(name, meta);
    this.#touch(name);
    this.#saveMeta(meta);
    return index;
  }

  /**
   * Adds or replaces whole records (and mirrors them to the replicas). The engine gets its own copy of
   * each record, parsed back from the JSON that is stored: what it would read after a restart.
   * `owned`: the records are the caller's to give away (parsed from one request, held by nothing
   * else), so the index keeps them as they are (the engine never changes a record it holds).
   */
  saveObjects(name: string, records: Record_[], options: { owned?: boolean } = {}): void {
    if (records.length === 0) {
      this.ensure(name);
      return;
    }
    const texts = records.map((record) => JSON.stringify(record));
    let given = options.owned === true;
    for (const target of this.#withReplicas(name)) {
      const index = this.ensure(target);
      this.#touch(target);
      this.#upsertRecords(target, records, texts);
      index.saveObjects(given ? records : texts.map((text) => JSON.parse(text) as Record_));
      given = false;
      this.#bump(target);
    }
  }

  deleteObjects(name: string, objectIDs: string[]): void {
    for (const target of this.#withReplicas(name)) {
      const index = this.#indices.get(target);
      if (!index) continue;
      this.#touch(target);
      for (const objectID of objectIDs) this.#stmt.deleteRecord.run(target, objectID);
      index.deleteObjects(objectIDs);
      this.#bump(target);
    }
  }

  /** Removes the records, keeps settings. */
  clearObjects(name: string): void {
    for (const target of this.#withReplicas(name)) {
      const index = this.#indices.get(target);
      if (!index) continue;
      this.#touch(target);
      this.#stmt.clearRecords.run(target);
      index.clear();
      this.#bump(target);
    }
  }

  /**
   * Stores records by statements of `UPSERT_ROWS` rows (one statement per row costs more than the row):
   * rows are applied in order, so of two rows with one objectID the later wins, as one by one.
   */
  #upsertRecords(target: string, records: Record_[], texts: string[]): void {
    let i = 0;
    if (records.length >= UPSERT_ROWS) {
      this.#upsertMany ??= this.#db.prepare(
        `INSERT INTO service_records (index_name, object_id, body) VALUES ${Array(UPSERT_ROWS).fill('(?, ?, ?)').join(', ')}
         ON CONFLICT (index_name, object_id) DO UPDATE SET body = excluded.body`,
      );
      const values: unknown[] = new Array(UPSERT_ROWS * 3);
      for (; i + UPSERT_ROWS <= records.length; i += UPSERT_ROWS) {
        for (let k = 0; k < UPSERT_ROWS; k++) {
          values[k * 3] = target;
          values[k * 3 + 1] = records[i + k]!.objectID;
          values[k * 3 + 2] = texts[i + k];
        }
        this.#upsertMany.run(values);
      }
    }
    for (; i < records.length; i++) this.#stmt.upsertRecord.run(target, records[i]!.objectID, texts[i]);
  }

  /** Deletes the index; its replicas become regular indices, a replica leaves its primary's list. */
  deleteIndex(name: string): void {
    const meta = this.#meta.get(name);
    if (!meta) return;
    this.#touch(name);
    for (const replica of meta.replicas) {
      const replicaMeta = this.#meta.get(replica);
      if (replicaMeta) {
        delete replicaMeta.primary;
        this.#saveMeta(replicaMeta);
      }
    }
    if (meta.primary) {
      const primaryMeta = this.#meta.get(meta.primary);
      if (primaryMeta) {
        primaryMeta.replicas = primaryMeta.replicas.filter((replica) => replica !== name);
        this.#saveMeta(primaryMeta);
      }
    }
    this.#stmt.clearRecords.run(name);
    this.#stmt.clearRules.run(name);
    this.#stmt.clearSynonyms.run(name);
    this.#stmt.deleteIndex.run(name);
    this.#indices.delete(name);
    this.#meta.delete(name);
    this.#rules.delete(name);
    this.#synonyms.delete(name);
  }

  /** The synonyms of an index (empty when none). */
  synonyms(name: string): Synonym[] {
    return [...(this.#synonyms.get(name)?.values() ?? [])];
  }

  getSynonym(name: string, objectID: string): Synonym | undefined {
    return this.#synonyms.get(name)?.get(objectID);
  }

  /** Adds or replaces synonyms; `replaceExisting` replaces every synonym of the index atomically. */
  saveSynonyms(name: string, synonyms: Synonym[], replaceExisting = false, forwardToReplicas = false): void {
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      this.ensure(target);
      this.#touch(target);
      if (replaceExisting) {
        this.#stmt.clearSynonyms.run(target);
        this.#synonyms.delete(target);
      }
      let map = this.#synonyms.get(target);
      if (!map) this.#synonyms.set(target, (map = new Map()));
      for (const synonym of synonyms) {
        this.#stmt.upsertSynonym.run(target, synonym.objectID, JSON.stringify(synonym));
        map.set(synonym.objectID, structuredClone(synonym));
      }
      this.#syncSynonyms(target);
      this.#bump(target);
    }
  }

  /** Deletes one synonym; false when the index has no such synonym. */
  deleteSynonym(name: string, objectID: string, forwardToReplicas = false): boolean {
    let found = false;
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      const map = this.#synonyms.get(target);
      if (!map?.has(objectID)) continue;
      this.#touch(target);
      if (target === name) found = true;
      this.#stmt.deleteSynonym.run(target, objectID);
      map.delete(objectID);
      this.#syncSynonyms(target);
      this.#bump(target);
    }
    return found;
  }

  clearSynonyms(name: string, forwardToReplicas = false): void {
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      if (!this.#meta.has(target)) continue;
      this.#touch(target);
      this.#stmt.clearSynonyms.run(target);
      this.#synonyms.delete(target);
      this.#syncSynonyms(target);
      this.#bump(target);
    }
  }

  /** Rebuilds the engine index's expansion map from the stored synonyms (once per change). */
  #syncSynonyms(name: string): void {
    this.#indices.get(name)?.setSynonyms(this.synonyms(name));
  }

  /** The rules of an index (empty when none). */
  rules(name: string): Rule[] {
    return [...(this.#rules.get(name)?.values() ?? [])];
  }

  getRule(name: string, objectID: string): Rule | undefined {
    return this.#rules.get(name)?.get(objectID);
  }

  /** Adds or replaces rules; `clearExisting` replaces every rule of the index atomically. */
  saveRules(name: string, rules: Rule[], clearExisting = false, forwardToReplicas = false): void {
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      this.ensure(target);
      this.#touch(target);
      if (clearExisting) this.clearRules(target);
      let map = this.#rules.get(target);
      if (!map) this.#rules.set(target, (map = new Map()));
      for (const rule of rules) {
        this.#stmt.upsertRule.run(target, rule.objectID, JSON.stringify(rule));
        map.set(rule.objectID, structuredClone(rule));
      }
      this.#bump(target);
    }
  }

  /** Deletes one rule; false when the index has no such rule. */
  deleteRule(name: string, objectID: string, forwardToReplicas = false): boolean {
    let found = false;
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      const map = this.#rules.get(target);
      if (!map?.has(objectID)) continue;
      this.#touch(target);
      if (target === name) found = true;
      this.#stmt.deleteRule.run(target, objectID);
      map.delete(objectID);
      this.#bump(target);
    }
    return found;
  }

  clearRules(name: string, forwardToReplicas = false): void {
    for (const target of forwardToReplicas ? this.#withReplicas(name) : [name]) {
      if (!this.#meta.has(target)) continue;
      this.#touch(target);
      this.#stmt.clearRules.run(target);
      this.#rules.delete(target);
      this.#bump(target);
    }
  }

  /**
   * Applies a partial settings update (validated by the engine). `replicas` creates the new replica
   * indices (settings and records copied from the primary) and detaches the removed ones.
   * `forwardToReplicas` applies the same change to every replica.
   */
  setSettings(name: string, partial: Record<string, unknown>, forwardToReplicas = false): void {
    const index = this.ensure(name);
    this.#touch(name);
    const meta = this.#meta.get(name)!;
    const engineSettings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(partial)) if (!SERVICE_SETTINGS.has(key)) engineSettings[key] = value;
    if ('primary' in partial) throw new HttpError(400, '`primary` is read-only; set `replicas` on the primary index');

    let replicas: string[] | undefined;
    if ('replicas' in partial) {
      replicas = parseReplicas(partial.replicas, name);
      for (const replica of replicas) {
        const other = this.#meta.get(replica);
        if (other?.primary && other.primary !== name) {
          throw new HttpError(400, `Index ${replica} is already a replica of ${other.primary}`);
        }
        if (other && other.replicas.length > 0)
          throw new HttpError(400, `Index ${replica} has replicas and cannot be one`);
      }
    }

    index.setSettings(engineSettings as never);
    meta.settings = { ...meta.settings, ...engineSettings };
    this.#bump(name);

    if (replicas) {
      const removed = meta.replicas.filter((replica) => !replicas!.includes(replica));
      for (const replica of removed) {
        const replicaMeta = this.#meta.get(replica);
        if (replicaMeta) {
          delete replicaMeta.primary;
          this.#saveMeta(replicaMeta);
        }
      }
      const added = replicas.filter((replica) => !meta.replicas.includes(replica));
      meta.replicas = replicas;
      this.#saveMeta(meta);
      for (const replica of added) {
        const existed = this.#indices.has(replica);
        const replicaIndex = this.ensure(replica);
        this.#touch(replica);
        const replicaMeta = this.#meta.get(replica)!;
        replicaMeta.primary = name;
        if (!existed) {
          // A new replica starts with the primary's settings; it diverges from there.
          replicaIndex.setSettings(structuredClone(meta.settings) as never);
          replicaMeta.settings = structuredClone(meta.settings);
        }
        this.#stmt.clearRecords.run(replica);
        replicaIndex.clear();
        const records = [...index.objects()].map((record) => structuredClone(record));
        for (const record of records) this.#stmt.upsertRecord.run(replica, record.objectID, JSON.stringify(record));
        if (records.length > 0) replicaIndex.saveObjects(records);
        this.#saveMeta(replicaMeta);
      }
    }

    if (forwardToReplicas) {
      for (const replica of meta.replicas) {
        const replicaIndex = this.#indices.get(replica);
        const replicaMeta = this.#meta.get(replica);
        if (!replicaIndex || !replicaMeta) continue;
        this.#touch(replica);
        replicaIndex.setSettings(structuredClone(engineSettings) as never);
        replicaMeta.settings = { ...replicaMeta.settings, ...structuredClone(engineSettings) };
        this.#bump(replica);
      }
    }
  }

  /**
   * Copies `source` to `destination` (replacing it). `scope` limits what is copied; without it the
   * destination becomes an exact copy (records and settings; replicas are not copied).
   */
  copy(source: string, destination: string, scope?: CopyScope[]): void {
    const sourceIndex = this.require(source);
    const sourceMeta = this.#meta.get(source)!;
    const destinationMeta = this.#meta.get(destination);
    if (destinationMeta?.primary)
      throw new HttpError(400, `Index ${destination} is a replica; it cannot be overwritten`);
    const parts = new Set<CopyScope>(scope ?? ['settings', 'synonyms', 'rules', 'records']);
    const records = parts.has('records') ? [...sourceIndex.objects()].map((record) => structuredClone(record)) : null;
    if (!scope) {
      // A full copy replaces the destination: start from a fresh index, keep its replicas list.
      const replicas = destinationMeta?.replicas ?? [];
      if (destinationMeta) {
        this.#touch(destination);
        this.#stmt.clearRecords.run(destination);
        this.#indices.set(destination, this.#newIndex(destination));
        destinationMeta.settings = {};
      }
      this.ensure(destination);
      this.#meta.get(destination)!.replicas = replicas;
    }
    const destinationIndex = this.ensure(destination);
    this.#touch(destination);
    const meta = this.#meta.get(destination)!;
    if (parts.has('settings')) {
      destinationIndex.setSettings(structuredClone(sourceMeta.settings) as never);
      meta.settings = { ...meta.settings, ...structuredClone(sourceMeta.settings) };
    }
    if (parts.has('rules')) this.saveRules(destination, this.rules(source), true);
    if (parts.has('synonyms')) this.saveSynonyms(destination, this.synonyms(source), true);
    this.#saveMeta(meta);
    if (records) {
      this.clearObjects(destination);
      this.saveObjects(destination, records);
    }
    this.#bump(destination);
  }

  /** Renames `source` to `destination` (replacing it); the source no longer exists afterwards. */
  move(source: string, destination: string): void {
    if (source === destination) return;
    this.copy(source, destination);
    const sourceMeta = this.#meta.get(source)!;
    // The source's replicas now follow the destination.
    const meta = this.#meta.get(destination)!;
    meta.replicas = [...new Set([...meta.replicas, ...sourceMeta.replicas])];
    for (const replica of sourceMeta.replicas) {
      const replicaMeta = this.#meta.get(replica);
      if (replicaMeta) {
        replicaMeta.primary = destination;
        this.#saveMeta(replicaMeta);
      }
    }
    sourceMeta.replicas = [];
    this.#saveMeta(meta);
    this.deleteIndex(source);
  }

  #newIndex(name: string): Index {
    return new Index(name, { dictionaries: this.#dictionaries });
  }

  #withReplicas(name: string): string[] {
    const meta = this.#meta.get(name);
    return [name, ...(meta?.replicas ?? [])];
  }

  /**
   * Notes an index written by the current write; its engine upkeep (`Index.beginBatch`) then waits for
   * the end of the write, so a task of many operations pays it once, before it is acknowledged.
   */
  #touch(name: string): void {
    if (!this.#touched) return;
    this.#touched.add(name);
    const index = this.#indices.get(name);
    if (index && this.#batched.get(name) !== index) {
      index.beginBatch();
      this.#batched.set(name, index);
    }
  }

  /** The end of a successful write: the engine upkeep of every index it wrote. */
  #finishBatches(): void {
    for (const index of this.#batched.values()) index.endBatch();
    this.#batched.clear();
  }

  #bump(name: string): void {
    const meta = this.#meta.get(name);
    if (!meta) return;
    meta.updatedAt = Date.now();
    this.#saveMeta(meta);
  }

  #saveMeta(meta: IndexMeta): void {
    this.#stmt.upsertIndex.run({
      name: meta.name,
      settings: JSON.stringify(meta.settings),
      primary: meta.primary ?? null,
      replicas: JSON.stringify(meta.replicas),
      createdAt: meta.createdAt,
      updatedAt: meta.updatedAt,
    });
  }

  #loadIndex(row: IndexRow): void {
    const meta: IndexMeta = {
      name: row.name,
      settings: JSON.parse(row.settings) as Record<string, unknown>,
      replicas: JSON.parse(row.replicas) as string[],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
    if (row.primary_index) meta.primary = row.primary_index;
    const index = this.#newIndex(row.name);
    if (Object.keys(meta.settings).length > 0) index.setSettings(structuredClone(meta.settings) as never);
    const records = (this.#stmt.records.all(row.name) as Array<{ body: string }>).map(
      (record) => JSON.parse(record.body) as Record_,
    );
    if (records.length > 0) index.saveObjects(records);
    this.#indices.set(row.name, index);
    this.#meta.set(row.name, meta);
    const rules = new Map<string, Rule>();
    for (const { body } of this.#stmt.rules.all(row.name) as Array<{ body: string }>) {
      const rule = JSON.parse(body) as Rule;
      rules.set(rule.objectID, rule);
    }
    if (rules.size > 0) this.#rules.set(row.name, rules);
    const synonyms = new Map<string, Synonym>();
    for (const { body } of this.#stmt.synonyms.all(row.name) as Array<{ body: string }>) {
      const synonym = JSON.parse(body) as Synonym;
      synonyms.set(synonym.objectID, synonym);
    }
    if (synonyms.size > 0) {
      this.#synonyms.set(row.name, synonyms);
      index.setSynonyms([...synonyms.values()]);
    }
  }

  /** After a rolled-back transaction: rebuild the touched indices from the database. */
  #restore(names: Set<string>): void {
    for (const name of names) {
      this.#indices.delete(name);
      this.#meta.delete(name);
      this.#rules.delete(name);
      this.#synonyms.delete(name);
      const row = this.#db.prepare('SELECT * FROM service_indices WHERE name = ?').get(name) as IndexRow | undefined;
      if (row) this.#loadIndex(row);
    }
  }
}

function parseReplicas(value: unknown, primary: string): string[] {
  if (value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new HttpError(400, '`replicas` must be an array of index names');
  }
  const names = (value as string[]).map((item) => {
    const virtual = /^virtual\((.+)\)$/.exec(item);
    return (virtual ? virtual[1]! : item).trim();
  });
  for (const name of names) {
    validateIndexName(name);
    if (name === primary) throw new HttpError(400, `Index ${primary} cannot be its own replica`);
  }
  return [...new Set(names)];
}

/**
 * Index names: non-empty, at most 512 bytes, no `*` (reserved for multi-index paths), no control characters.
 *
 * @example
 * validateIndexName('products') // ok; validateIndexName('a*') // HttpError 400
 */
export function validateIndexName(name: string): void {
  if (typeof name !== 'string' || name.length === 0)
    throw new HttpError(400, 'Invalid indexName: it must be a non-empty string');
  if (Buffer.byteLength(name) > 512) throw new HttpError(400, 'Invalid indexName: longer than 512 bytes');
  // eslint-disable-next-line no-control-regex
  if (name.includes('*') || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new HttpError(400, `Invalid indexName ${JSON.stringify(name)}: '*' and control characters are not allowed`);
  }
}
