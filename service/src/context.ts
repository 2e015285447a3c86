/**
 * The service context every router module receives (`register(app, ctx)`). Owned by the service layer;
 * other areas (Insights, Recommend) use it to reach the database, the indices, authentication and the
 * search log. See `docs/CONTRACTS.md` (Service).
 */
import type Database from 'better-sqlite3';
import type { Context } from 'hono';
import type { Index } from './engine/index.js';

/**
 * Rights (acl values) of the document's API key table, plus `recommendation` (document 2, Personalization),
 * `setSettings` (document 2's name for the right of A/B test writes: it opens those only; `editSettings`
 * opens them too) and `usage` / `monitoring` (document 3's dedicated keys: a key with one opens that API).
 */
export type Right =
  | 'search'
  | 'browse'
  | 'addObject'
  | 'deleteObject'
  | 'deleteIndex'
  | 'settings'
  | 'editSettings'
  | 'analytics'
  | 'listIndexes'
  | 'logs'
  | 'seeUnretrievableAttributes'
  | 'recommendation'
  | 'setSettings'
  | 'usage'
  | 'monitoring';

/** Every right; the admin key holds them all. */
export const ALL_RIGHTS: readonly Right[] = [
  'search',
  'browse',
  'addObject',
  'deleteObject',
  'deleteIndex',
  'settings',
  'editSettings',
  'analytics',
  'listIndexes',
  'logs',
  'seeUnretrievableAttributes',
  'recommendation',
  'setSettings',
  'usage',
  'monitoring',
];

/**
 * What `authorize` asks for: a right of the table, `'admin'` (endpoints marked "Admin") or `'any'`
 * (any valid key, e.g. task status).
 */
export type Requirement = Right | 'admin' | 'any';

/** The key a request was authorised with. */
export interface KeyInfo {
  acl: Right[];
  isAdmin: boolean;
  /** Restrictions of a secured API key (decoded URL parameters); `{}` for a plain key. */
  restrictions: Record<string, string>;
  /** The key value as sent (for a secured key: the secured key itself). */
  value: string;
  /** For a secured key: the parent key it was derived from. */
  parent?: string;
  /** Index name patterns the key is restricted to (key `indexes` and secured `restrictIndices`); undefined = all. */
  indexes?: string[];
  /** For a secured key with `restrictIndices` whose parent is itself restricted: the parent's patterns (both apply). */
  parentIndexes?: string[];
  /** 0 = unlimited. */
  maxHitsPerQuery: number;
  /**
   * Search parameters forced on every query, one URL-encoded layer per key of the chain: the key's own
   * `queryParameters` (the parent's for a secured key), then the secured key's restrictions. Each layer
   * only narrows the ones before (`forcedByKey` in `http/params.ts`).
   */
  forcedParams: string[];
  /** `userToken` fixed by a secured key. */
  userToken?: string;
}

/** One search answered with `clickAnalytics`, kept so that Insights events can refer to its queryID. */
export interface SearchLogEntry {
  queryID: string;
  indexName: string;
  query: string;
  page: number;
  hitsPerPage: number;
  objectIDs: string[];
  userToken?: string;
  /** Unix ms. */
  createdAt: number;
}

export interface SearchLog {
  record(entry: SearchLogEntry): void;
  get(queryID: string): SearchLogEntry | undefined;
  /** Removes a user token from the logged searches (they stay, without it): `DELETE /1/usertokens/{userToken}`. */
  forgetUser(userToken: string): void;
}

export interface IndexRegistry {
  get(name: string): Index | undefined;
  /** The index, or `HttpError(404)`. */
  require(name: string): Index;
  names(): string[];
}

export interface ServiceContext {
  appId: string;
  adminKey: string;
  searchKey: string;
  /** better-sqlite3, WAL, synchronous FULL. Each area creates its own tables `<area>_…`. */
  db: Database.Database;
  indices: IndexRegistry;
  /**
   * Throws `HttpError(403)` unless the request's credentials (headers, else URL parameters of the same
   * names in any case) hold `right` (and may use `indexName`); missing or wrong credentials are a
   * `CredentialsError` (a 403 that says which, `http/errors.ts`).
   */
  authorize(c: Context, right: Requirement, indexName?: string): KeyInfo;
  /** The parsed JSON body; `HttpError(400)` when malformed, `HttpError(413)` above `maxBytes` (default 10 MB). */
  readJson<T = unknown>(c: Context, maxBytes?: number): Promise<T>;
  searchLog: SearchLog;
  /** The service's clock (Unix ms; `ServiceOptions.now`, default `Date.now`): Analytics times, default dates and rate-limit window. */
  now(): number;
  emit(type: string, payload?: unknown): void;
  on(type: string, listener: (payload: unknown) => void): () => void;
}
