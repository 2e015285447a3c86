/**
 * Authentication (document 1, "Authentication"): the two headers on every call, the admin key with
 * every right, the search key with `search` and `browse`, keys created through `/1/keys`, and secured
 * API keys derived from a non-admin key:
 * `base64(hexHMAC_SHA256(parentKey, urlEncodedRestrictions) + urlEncodedRestrictions)`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { ALL_RIGHTS, type KeyInfo, type Requirement, type Right, type ServiceContext } from '../context.js';
import type { KeyStore, StoredKey } from '../storage/keys.js';
import { CredentialsError, HttpError, INVALID_CREDENTIALS, MISSING_CREDENTIALS } from './errors.js';

export interface AuthConfig {
  appId: string;
  adminKey: string;
  searchKey: string;
  keys: KeyStore;
}

/**
 * The two credentials of a call: the headers `X-Service-Application-Id` / `X-Service-API-Key`, else URL
 * parameters of the same names compared without case, on every API. Document 2 names the URL form for
 * Analytics, A/B test and Insights; the official clients' browser builds send it on every API, in lower
 * case (`x-algolia-api-key=` renamed by a proxy), so that a search is a CORS simple request without a
 * preflight. A header wins over a URL parameter.
 *
 * @example
 * credentialsOf(c) // { appId: 'SVCLOCAL', apiKey: 'local-search-key' }
 */
export function credentialsOf(c: Context): { appId: string | undefined; apiKey: string | undefined } {
  let appId = c.req.header('x-service-application-id');
  let apiKey = c.req.header('x-service-api-key');
  if (appId === undefined || apiKey === undefined) {
    const query = c.req.url.indexOf('?');
    if (query >= 0) {
      for (const [name, value] of new URLSearchParams(c.req.url.slice(query + 1))) {
        const lower = name.toLowerCase();
        if (lower === 'x-service-application-id') appId ??= value;
        else if (lower === 'x-service-api-key') apiKey ??= value;
      }
    }
  }
  return { appId, apiKey };
}

/**
 * `ctx.authorize` for the APIs of documents 2 and 3: missing credentials are a 401 (A/B test: "401
 * application ID or key missing"; the other endpoint tables list 401), wrong ones `wrong` — 403 where the
 * document says "403 invalid credentials" (A/B test, and Analytics on the same host), 401 where it lists
 * only 401 (Insights, Recommend, Query Suggestions, Personalization).
 *
 * @example
 * const key = authorizeOrUnauthorized(ctx, c, 'analytics', index, 403);
 */
export function authorizeOrUnauthorized(
  ctx: ServiceContext,
  c: Context,
  right: Requirement,
  indexName: string | undefined,
  wrong: 401 | 403,
): KeyInfo {
  try {
    return ctx.authorize(c, right, indexName);
  } catch (error) {
    throw unauthorized(error, wrong);
  }
}

/**
 * A {@link CredentialsError} as the APIs of documents 2 and 3 answer it (see {@link authorizeOrUnauthorized});
 * any other error unchanged.
 */
export function unauthorized(error: unknown, wrong: 401 | 403): unknown {
  if (!(error instanceof CredentialsError)) return error;
  return error.missing ? new HttpError(401, MISSING_CREDENTIALS) : new HttpError(wrong, INVALID_CREDENTIALS);
}

/**
 * URL parameters the official clients add to every request and that are not parameters of the call: the
 * two credentials and the client's agent (`x-algolia-agent` through a proxy that renames the prefix).
 */
const TRANSPORT_PARAMETERS = new Set(['x-service-application-id', 'x-service-api-key', 'x-service-agent']);

/**
 * Whether a URL parameter is a credential or the client's agent (names compared without case).
 *
 * @example
 * isTransportParameter('X-Service-API-Key') // true; isTransportParameter('query') // false
 */
export function isTransportParameter(name: string): boolean {
  return TRANSPORT_PARAMETERS.has(name.toLowerCase());
}

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

/** `*` wildcards at either end (or inside) of an index or referer pattern. */
function wildcard(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

/**
 * True when `indexName` is allowed by the key's index patterns (undefined = every index).
 *
 * @example
 * indexAllowed({ indexes: ['dev_*'] }, 'dev_products') // true
 */
export function indexAllowed(key: Pick<KeyInfo, 'indexes' | 'parentIndexes'>, indexName: string): boolean {
  const matches = (patterns: string[] | undefined) =>
    !patterns ||
    patterns.some((pattern) => (pattern.includes('*') ? wildcard(pattern).test(indexName) : pattern === indexName));
  return matches(key.indexes) && matches(key.parentIndexes);
}

function refererAllowed(patterns: string[], referer: string | undefined): boolean {
  if (patterns.length === 0) return true;
  if (!referer) return false;
  let host = '';
  let withoutScheme = referer;
  try {
    const url = new URL(referer);
    host = url.host;
    withoutScheme = referer.slice(url.protocol.length + 2);
  } catch {
    // not a URL: compare the raw value
  }
  return patterns.some((pattern) => {
    const regex = wildcard(pattern);
    return regex.test(referer) || regex.test(withoutScheme) || (host !== '' && regex.test(host));
  });
}

function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

/** `restrictSources`: one or more IPv4 networks (`192.168.1.0/24`, `10.0.0.1`), separated by `;` or `,`. */
function sourceAllowed(networks: string, ip: string | undefined): boolean {
  if (!ip) return false;
  let address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (address === '::1') address = '127.0.0.1'; // IPv6 loopback is the same machine
  const value = ipv4ToInt(address);
  if (value === undefined) return false;
  return networks
    .split(/[;,]/)
    .map((network) => network.trim())
    .filter(Boolean)
    .some((network) => {
      const [base, bitsText] = network.split('/');
      const baseValue = ipv4ToInt(base ?? '');
      const bits = bitsText === undefined ? 32 : Number(bitsText);
      if (baseValue === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
      if (bits === 0) return true;
      const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
      return (value & mask) >>> 0 === (baseValue & mask) >>> 0;
    });
}

/**
 * The peer address of the request (Node server or middleware mount).
 *
 * @example
 * clientIp(c) // '127.0.0.1' or '::ffff:127.0.0.1'
 */
export function clientIp(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
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
    acl: [...stored.acl],
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
 * Checks a key already authenticated by `ctx.authorize` against one more right and/or index (a call that
 * names several indices or actions: credentials are checked once, before the body is read, then each
 * request of the body here). Throws `HttpError(403)`.
 *
 * @example
 * const key = ctx.authorize(c, 'search'); // before the body
 * for (const { indexName } of requests) requireRight(key, 'search', indexName);
 */
export function requireRight(info: KeyInfo, right: Requirement, indexName?: string): void {
  if (right === 'admin') {
    if (!info.isAdmin) throw new HttpError(403, 'This operation needs the admin API key');
  } else if (right !== 'any' && !info.isAdmin && !info.acl.includes(right as Right)) {
    throw new HttpError(403, `Method not allowed with this API key (the right ${right} is needed)`);
  }
  if (indexName !== undefined && !indexAllowed(info, indexName)) {
    throw new HttpError(403, `Index ${indexName} is not allowed with this API key`);
  }
}

/**
 * Builds `ctx.authorize`.
 *
 * @example
 * const authorize = createAuthorizer({ appId, adminKey, searchKey, keys });
 * const key = authorize(c, 'search', 'products'); // throws HttpError(403) when refused
 */
export function createAuthorizer(config: AuthConfig) {
  const hourly = new Map<string, { hour: number; count: number }>();

  function rateLimit(stored: StoredKey, c: Context, userToken: string | undefined): void {
    if (stored.maxQueriesPerIPPerHour <= 0) return;
    const hour = Math.floor(Date.now() / 3_600_000);
    const who = userToken ?? clientIp(c) ?? 'unknown';
    const id = `${stored.value}\u0000${who}`;
    const entry = hourly.get(id);
    if (!entry || entry.hour !== hour) {
      hourly.set(id, { hour, count: 1 });
      return;
    }
    entry.count += 1;
    if (entry.count > stored.maxQueriesPerIPPerHour) {
      throw new HttpError(429, 'Too many requests: maxQueriesPerIPPerHour of this API key is exceeded');
    }
  }

  return function authorize(c: Context, right: Requirement, indexName?: string): KeyInfo {
    const { appId, apiKey } = credentialsOf(c);
    if (!appId || !apiKey) throw new CredentialsError(true);
    if (appId !== config.appId) throw new CredentialsError(false);

    const referer = c.req.header('referer') ?? c.req.header('origin');
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
          throw new HttpError(403, 'The secured API key has expired (validUntil)');
        }
      }
      if (restrictions.restrictIndices !== undefined) {
        // Both the parent's indexes and restrictIndices must allow the index.
        if (info.indexes) info.parentIndexes = info.indexes;
        info.indexes = parseList(restrictions.restrictIndices);
      }
      if (restrictions.referers !== undefined && !refererAllowed(parseList(restrictions.referers), referer)) {
        throw new HttpError(403, 'Referer not allowed with this secured API key');
      }
      if (restrictions.restrictSources !== undefined && !sourceAllowed(restrictions.restrictSources, clientIp(c))) {
        throw new HttpError(403, 'Source IP not allowed with this secured API key');
      }
      if (restrictions.userToken !== undefined) info.userToken = restrictions.userToken;
    }

    if (stored && !refererAllowed(stored.referers, referer)) {
      throw new HttpError(403, 'Referer not allowed with this API key');
    }
    requireRight(info, right, indexName);
    if (stored) rateLimit(stored, c, info.userToken ?? c.req.header('x-service-usertoken'));
    if (info.isAdmin) {
      // A server proxying for its users: admin key, the user's IP in X-Forwarded-For and the
      // rate-limited key in X-Forwarded-API-Key (document 1, Limits).
      const forwardedKey = c.req.header('x-forwarded-api-key');
      const forwarded = forwardedKey ? config.keys.get(forwardedKey) : undefined;
      if (forwarded) {
        const forwardedFor = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
        rateLimit(forwarded, c, forwardedFor);
      }
    }
    return info;
  };
}
