/**
 * Rights, requirements and the key a call was authorised with: the vocabulary of authorisation shared by
 * the key store, the authorizer and every domain module that checks a right (document 1, "API keys").
 */

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
   * only narrows the ones before (`forcedByKey` in `search/key-params.ts`).
   */
  forcedParams: string[];
  /** `userToken` fixed by a secured key. */
  userToken?: string;
}
