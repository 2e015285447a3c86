/**
 * Helpers of the service's Node tests: a real service on a loopback port with a temporary data
 * directory, and a small HTTP caller that returns status, headers and the parsed JSON body.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../src/cluster/postgres.js';
import { createService, DEV_CREDENTIALS, type Service, type ServiceOptions } from '../src/index.js';
import type { SqliteStorage } from '../src/storage/sqlite/storage.js';

export const APP_ID: string = DEV_CREDENTIALS.appId;
export const ADMIN_KEY: string = DEV_CREDENTIALS.adminKey;
export const SEARCH_KEY: string = DEV_CREDENTIALS.searchKey;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  key?: string | null;
  appId?: string | null;
  headers?: Record<string, string>;
  /** Raw body text (sent as is). */
  raw?: string | Buffer;
}

export interface Running {
  service: Service;
  url: string;
  dataDir: string;
  call<T = any>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  /** Admin call that must answer 200; returns the body. */
  ok<T = any>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<T>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

export function caller(url: string) {
  return async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const appId = options.appId === undefined ? APP_ID : options.appId;
    const key = options.key === undefined ? ADMIN_KEY : options.key;
    if (appId !== null) headers['X-Service-Application-Id'] = appId;
    if (key !== null) headers['X-Service-API-Key'] = key;
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json; charset=UTF-8';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: typeof payload === 'string' || payload === undefined ? payload : new Uint8Array(payload),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}

/**
 * The storage the suite runs on: SQLite (default), or PostgreSQL when `SVC_TEST_STORAGE=postgres` (`npm test`
 * runs the storage-touching files both ways: `test:postgres`). On PostgreSQL each data directory gets its own
 * database on a throwaway server of this test process, so a test that restarts a service on the same data
 * directory finds its data again.
 */
export const TEST_STORAGE: 'sqlite' | 'postgres' = process.env.SVC_TEST_STORAGE === 'postgres' ? 'postgres' : 'sqlite';

let testPostgres: Promise<ThrowawayPostgres> | undefined;
let memoryDatabases = 0;

/**
 * The PostgreSQL database of a data directory on this test process's throwaway server (started on first
 * use): the same directory gives the same database, so a restarted service finds its data; `:memory:` gives
 * a new one each time.
 *
 * @example
 * const database = await postgresDatabaseFor(tempDir()); // postgres://svc@127.0.0.1:PORT/dir_…
 */
export async function postgresDatabaseFor(dataDir: string): Promise<string> {
  testPostgres ??= startThrowawayPostgres({ fsync: false });
  const postgres = await testPostgres;
  memoryDatabases += 1;
  const name =
    dataDir === ':memory:'
      ? `memory_${memoryDatabases}`
      : `dir_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  return postgres.createDatabase(name);
}

/**
 * The `createService` options of a data directory on the suite's storage (`TEST_STORAGE`), or on the one
 * `storage` names (a test about SQLite's own file).
 *
 * @example
 * const service = await createService(await storageOptions(':memory:'));
 */
export async function storageOptions(
  dataDir: string,
  storage: 'sqlite' | 'postgres' = TEST_STORAGE,
): Promise<{ dataDir: string; database?: string }> {
  return storage === 'postgres' ? { dataDir, database: await postgresDatabaseFor(dataDir) } : { dataDir };
}

/**
 * The storage arguments of `svc-search-service serve` for a data directory on the suite's storage
 * (`--data-dir DIR`, plus `--database URL` on PostgreSQL).
 */
export async function serveStorageArgs(dataDir: string): Promise<string[]> {
  const { database } = await storageOptions(dataDir);
  return database ? ['--data-dir', dataDir, '--database', database] : ['--data-dir', dataDir];
}

export interface StartOptions {
  /** The backend, for a test about one of them (SQLite's file, its pre-migration fixtures); else the suite's. */
  storage?: 'sqlite' | 'postgres';
}

export async function startService(options: ServiceOptions = {}, { storage }: StartOptions = {}): Promise<Running> {
  const dataDir = options.dataDir ?? tempDir();
  const database = options.database ?? (await storageOptions(dataDir, storage)).database;
  const service = await createService({ ...options, dataDir, ...(database ? { database } : {}) });
  const { url } = await service.listen(0, '127.0.0.1');
  const call = caller(url);
  return {
    service,
    url,
    dataDir,
    call,
    async ok(method, path, body, callOptions) {
      const answer = await call(method, path, body, callOptions);
      if (answer.status !== 200)
        throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async stop({ keepData = false } = {}) {
      await service.close();
      if (!keepData && dataDir !== ':memory:') rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A secured API key exactly as document 1 describes it (hex HMAC-SHA256 + restrictions, Base64). */
export function securedKey(parentKey: string, restrictions: Record<string, unknown>): string {
  const query = Object.entries(restrictions)
    .map(([name, value]) => {
      const text =
        typeof value === 'string'
          ? value
          : Array.isArray(value) || typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
      return `${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
    })
    .join('&');
  const digest = createHmac('sha256', parentKey).update(query).digest('hex');
  return Buffer.from(digest + query).toString('base64');
}

/** Indexes records through the batch endpoint and returns the taskID. */
export async function index(
  running: Running,
  indexName: string,
  records: Array<Record<string, unknown>>,
  settings?: Record<string, unknown>,
) {
  if (settings) await running.ok('PUT', `/1/indexes/${encodeURIComponent(indexName)}/settings`, settings);
  const answer = await running.ok('POST', `/1/indexes/${encodeURIComponent(indexName)}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  return answer.taskID as number;
}

const DAY_MS = 86_400_000;

/**
 * A scenario's base time: ten minutes ago (Insights accepts event timestamps up to four days old), or the
 * middle of yesterday when that is within an hour of midnight UTC or after 20:00 — so a whole scenario,
 * including events an hour later, stays on one UTC day.
 */
export function scenarioTime(): number {
  const now = Date.now();
  const t = now - 10 * 60_000;
  const timeOfDay = t % DAY_MS;
  return timeOfDay > 3_600_000 && timeOfDay < 20 * 3_600_000 ? t : Math.floor(now / DAY_MS) * DAY_MS - DAY_MS / 2;
}

/** A small shop of seven records for the Analytics and A/B test scenarios (ranks make the order fixed). */
export const SMALL_SHOP = {
  records: [
    { objectID: '1', name: 'Oak chair', brand: 'Hon', price: 120, rank: 7 },
    { objectID: '2', name: 'Office chair', brand: 'Hon', price: 300, rank: 6 },
    { objectID: '3', name: 'Garden chair', brand: 'Acme', price: 80, rank: 5 },
    { objectID: '4', name: 'Chair cushion', brand: 'Acme', price: 20, rank: 4 },
    { objectID: '5', name: 'Desk lamp', brand: 'Tensor', price: 30, rank: 3 },
    { objectID: '6', name: 'Floor lamp', brand: 'Tensor', price: 90, rank: 2 },
    { objectID: '7', name: 'Standing desk', brand: 'Hon', price: 500, rank: 1 },
  ],
  settings: {
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['brand', 'price'],
    customRanking: ['desc(rank)'],
  },
};

/** The SQLite database under a service started on SQLite (tests about SQLite's own file and pragmas). */
export function databaseOf(service: Service): Database.Database {
  assert.equal(service.services.storage.kind, 'sqlite', 'a test of SQLite itself runs on SQLite');
  return (service.services.storage as SqliteStorage).db;
}
