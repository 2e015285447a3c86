/**
 * Authentication (document 1, "Authentication"): the credentials of every call, the admin key with
 * every right, the search key with `search` and `browse`, keys created through `/1/keys`, and secured
 * API keys derived from a non-admin key:
 * `base64(hexHMAC_SHA256(parentKey, urlEncodedRestrictions) + urlEncodedRestrictions)`.
 *
 * What a call presents is a {@link Caller}, read from the request by the HTTP layer (`http/request.ts`):
 * this module knows no HTTP.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CredentialsError, ServiceError } from '../errors.js';
import type { Keys, StoredKey } from './keys.js';
import { RateLimiter } from './rate-limit.js';
import { indexAllowed, refererAllowed, sourceAllowed } from './restrictions.js';
import { ALL_RIGHTS, type KeyInfo, type Requirement, type Right } from './types.js';

export { indexAllowed } from './restrictions.js';

export interface AuthConfig {
  appId: string;
  adminKey: string;
  searchKey: string;
  keys: Keys;
  /** The per-hour counters of `maxQueriesPerIPPerHour` (default: a new one on the wall clock). */
  rateLimiter?: RateLimiter;
}

/** What a call presents: its credentials and what the key restrictions are checked against. */
export interface Caller {
  appId?: string | undefined;
  apiKey?: string | undefined;
  /** `Referer`, else `Origin`. */
  referer?: string | undefined;
  /** The peer address of the connection. */
  ip?: string | undefined;
  /** `X-Service-UserToken`: the user a rate limit counts when the key fixes none. */
  userToken?: string | undefined;
  /** The first address of `X-Forwarded-For` (a server proxying for its users, with the admin key). */
  forwardedFor?: string | undefined;
  /** `X-Forwarded-API-Key`: the rate-limited key a proxying server searches for (document 1, Limits). */
  forwardedApiKey?: string | undefined;
}

/** `authorize(caller, right, indexName?)`: the key of the call, or a refusal. */
export type Authorize = (caller: Caller, right: Requirement, indexName?: string) => KeyInfo;

/** Restriction parameters of a secured key that are checked rather than forced on the query. */
const CHECKED_RESTRICTIONS = new Set(['validUntil', 'restrictIndices', 'referers', 'restrictSources', 'userToken']);

/**
 * Parses a list given as a JSON array or a comma-separated string.
 *
 * @example
 * parseList('a,b') // ['a', 'b']; parseList('["a","b"]') // ['a', 'b']
 */
export function parseList(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parsed)) return parsed.map((item) => String(item).trim()).filter(Boolean);
    } catch {
      // fall through to the comma-separated form
    }
  }
  return trimmed
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function decodeSecured(apiKey: string): { digest: string; restrictions: string } | undefined {
  if (apiKey.length < 88 || !/^[A-Za-z0-9+/=_-]+$/.test(apiKey)) return undefined;
  const decoded = Buffer.from(apiKey, 'base64').toString('utf8');
  const match = /^([0-9a-f]{64})(.*)$/s.exec(decoded);
  if (!match) return undefined;
  return { digest: match[1]!, restrictions: match[2]! };
}

function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

function plainKeyInfo(value: string, stored: StoredKey | undefined, config: AuthConfig): KeyInfo | undefined {
  if (value === config.adminKey) {
    return { acl: [...ALL_RIGHTS], isAdmin: true, restrictions: {}, value, maxHitsPerQuery: 0, forcedParams: [] };
  }
  if (value === config.searchKey) {
    return { acl: ['search', 'browse'], isAdmin: false, restrictions: {}, value, maxHitsPerQuery: 0, forcedParams: [] };
  }
  if (!stored) return undefined;
  const info: KeyInfo = {
    acl: [...stored.acl] as Right[],
    isAdmin: false,
    restrictions: {},
    value,
    maxHitsPerQuery: stored.maxHitsPerQuery,
    forcedParams: stored.queryParameters ? [stored.queryParameters] : [],
  };
  const indexes = stored.indexes ?? (stored.index !== undefined ? [stored.index] : undefined);
  if (indexes) info.indexes = indexes;
  return info;
}

/**
 * Checks a key already authenticated by `authorize` against one more right and/or index (a call that
 * names several indices or actions: credentials are checked once, before the body is read, then each
 * request of the body here). Throws `ServiceError(403)`.
 *
 * @example
 * const key = authorize(caller, 'search'); // before the body
 * for (const { indexName } of requests) requireRight(key, 'search', indexName);
 */
export function requireRight(info: KeyInfo, right: Requirement, indexName?: string): void {
  if (right === 'admin') {
    if (!info.isAdmin) throw new ServiceError(403, 'This operation needs the admin API key');
  } else if (right !== 'any' && !info.isAdmin && !info.acl.includes(right as Right)) {
    throw new ServiceError(403, `Method not allowed with this API key (the right ${right} is needed)`);
  }
  if (indexName !== undefined && !indexAllowed(info, indexName)) {
    throw new ServiceError(403, `Index ${indexName} is not allowed with this API key`);
  }
}

/**
 * Builds the authorizer of a service.
 *
 * @example
 * const authorize = createAuthorizer({ appId, adminKey, searchKey, keys });
 * const key = authorize({ appId, apiKey, ip: '127.0.0.1' }, 'search', 'products'); // ServiceError(403) when refused
 */
export function createAuthorizer(config: AuthConfig): Authorize {
  const limiter = config.rateLimiter ?? new RateLimiter();

  function rateLimit(stored: StoredKey, caller: Caller, userToken: string | undefined): void {
    if (stored.maxQueriesPerIPPerHour <= 0) return;
    limiter.count(stored.value, stored.maxQueriesPerIPPerHour, userToken ?? caller.ip ?? 'unknown');
  }

  return function authorize(caller: Caller, right: Requirement, indexName?: string): KeyInfo {
    const { appId, apiKey, referer } = caller;
    if (!appId || !apiKey) throw new CredentialsError(true);
    if (appId !== config.appId) throw new CredentialsError(false);

    const builtIn = apiKey === config.adminKey || apiKey === config.searchKey;
    let stored = builtIn ? undefined : config.keys.get(apiKey);
    let info = plainKeyInfo(apiKey, stored, config);

    if (!info) {
      const secured = decodeSecured(apiKey);
      if (!secured) throw new CredentialsError(false);
      // The parent is a non-admin key: the search key or a key created through /1/keys.
      const digest = Buffer.from(secured.digest, 'hex');
      const parent = [config.searchKey, ...config.keys.values()].find((candidate) =>
        timingSafeEqual(Buffer.from(hmacHex(candidate, secured.restrictions), 'hex'), digest),
      );
      if (parent === undefined) throw new CredentialsError(false);
      stored = config.keys.get(parent);
      const parentInfo = plainKeyInfo(parent, stored, config)!;
      const restrictions = Object.fromEntries(new URLSearchParams(secured.restrictions));
      // The secured key's search parameters are one more layer over the parent's `queryParameters`: they
      // narrow them, never replace them (applyKeyParams in params.ts).
      const searchRestrictions = new URLSearchParams(secured.restrictions);
      for (const name of CHECKED_RESTRICTIONS) searchRestrictions.delete(name);
      const layer = searchRestrictions.toString();
      info = {
        ...parentInfo,
        value: apiKey,
        parent,
        restrictions,
        forcedParams: layer ? [...parentInfo.forcedParams, layer] : [...parentInfo.forcedParams],
      };

      if (restrictions.validUntil !== undefined) {
        const validUntil = Number(restrictions.validUntil);
        if (!Number.isFinite(validUntil) || Date.now() / 1000 > validUntil) {
          throw new ServiceError(403, 'The secured API key has expired (validUntil)');
        }
      }
      if (restrictions.restrictIndices !== undefined) {
        // Both the parent's indexes and restrictIndices must allow the index.
        if (info.indexes) info.parentIndexes = info.indexes;
        info.indexes = parseList(restrictions.restrictIndices);
      }
      if (restrictions.referers !== undefined && !refererAllowed(parseList(restrictions.referers), referer)) {
        throw new ServiceError(403, 'Referer not allowed with this secured API key');
      }
      if (restrictions.restrictSources !== undefined && !sourceAllowed(restrictions.restrictSources, caller.ip)) {
        throw new ServiceError(403, 'Source IP not allowed with this secured API key');
      }
      if (restrictions.userToken !== undefined) info.userToken = restrictions.userToken;
    }

    if (stored && !refererAllowed(stored.referers, referer)) {
      throw new ServiceError(403, 'Referer not allowed with this API key');
    }
    requireRight(info, right, indexName);
    if (stored) rateLimit(stored, caller, info.userToken ?? caller.userToken);
    if (info.isAdmin) {
      // A server proxying for its users: admin key, the user's IP in X-Forwarded-For and the
      // rate-limited key in X-Forwarded-API-Key (document 1, Limits).
      const forwarded = caller.forwardedApiKey ? config.keys.get(caller.forwardedApiKey) : undefined;
      if (forwarded) rateLimit(forwarded, caller, caller.forwardedFor);
    }
    return info;
  };
}
