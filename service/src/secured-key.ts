/**
 * Secured API keys, for servers (Node): a key derived from a non-admin parent key that carries
 * restrictions the front end cannot change (Authentication, rule 3 of the API document).
 *
 * Server code: it imports `node:crypto`, and the parent key must never reach a browser, so it is part of the
 * service package, not of the browser library. Import it from `@svc-search/service/secured-key` (this module
 * alone) or `@svc-search/service`.
 */
import { createHmac } from 'node:crypto';

/** Restrictions of a secured key (any other search parameter is forced on every query, e.g. `filters`). */
export interface SecuredKeyRestrictions {
  /** Expiry, Unix seconds. */
  validUntil?: number;
  /** Allowed index names (sent comma-separated). */
  restrictIndices?: string[] | string;
  /** Allowed referrers, `*` wildcards at either end. */
  referers?: string[];
  /** Allowed IPv4 network, e.g. `192.168.1.0/24`. */
  restrictSources?: string;
  /** Distinguishes users behind one IP for rate limiting. */
  userToken?: string;
  /** Search parameters forced on every query, e.g. `{ filters: 'visible:true' }`. */
  searchParams?: Record<string, unknown>;
  [parameter: string]: unknown;
}

/**
 * The URL-encoded restriction list the digest is computed over: keys sorted, `undefined` skipped, arrays
 * of scalars comma-joined, nested arrays/objects as JSON, spaces as `%20` (the official clients' form).
 *
 * @example
 * serializeRestrictions({ restrictIndices: ['a', 'b'], validUntil: 1700000000 }) // 'restrictIndices=a%2Cb&validUntil=1700000000'
 */
export function serializeRestrictions(restrictions: SecuredKeyRestrictions): string {
  const { searchParams, ...rest } = restrictions;
  const merged: Record<string, unknown> = { ...rest, ...(searchParams ?? {}) };
  return Object.keys(merged)
    .filter((key) => merged[key] !== undefined)
    .sort()
    .map((key) => {
      const value = merged[key];
      let text: string;
      if (Array.isArray(value))
        text = value.some((v) => typeof v === 'object' && v !== null) ? JSON.stringify(value) : value.join(',');
      else if (typeof value === 'object' && value !== null) text = JSON.stringify(value);
      else text = String(value);
      return `${key}=${encodeURIComponent(text).replace(/\+/g, '%20')}`;
    })
    .join('&');
}

/**
 * Derives a secured API key: Base64 of (hex HMAC SHA-256 of the URL-encoded restrictions, keyed with the
 * parent key) followed by the restrictions themselves. The service recomputes the digest with the parent
 * key it knows and enforces the restrictions (403 when violated).
 *
 * @example
 * const key = generateSecuredApiKey('local-search-key', { restrictIndices: ['products'], validUntil: Math.floor(Date.now() / 1000) + 3600 });
 */
export function generateSecuredApiKey(parentKey: string, restrictions: SecuredKeyRestrictions = {}): string {
  if (typeof parentKey !== 'string' || parentKey === '')
    throw new TypeError('generateSecuredApiKey: parentKey must be a non-empty string');
  if (restrictions === null || typeof restrictions !== 'object' || Array.isArray(restrictions)) {
    throw new TypeError('generateSecuredApiKey: restrictions must be an object');
  }
  if (restrictions.validUntil !== undefined && !Number.isFinite(restrictions.validUntil)) {
    throw new TypeError('generateSecuredApiKey: validUntil must be a Unix timestamp in seconds');
  }
  const queryParameters = serializeRestrictions(restrictions);
  const digest = createHmac('sha256', parentKey).update(queryParameters).digest('hex');
  return Buffer.from(digest + queryParameters, 'utf8').toString('base64');
}

/**
 * Seconds left before a secured key's `validUntil` (negative when expired).
 *
 * @example
 * securedApiKeyRemainingValidity(key) // 3599
 */
export function securedApiKeyRemainingValidity(securedKey: string, now: number = Date.now()): number {
  const match = /(?:^|&)validUntil=(\d+)/.exec(Buffer.from(securedKey, 'base64').toString('utf8').slice(64));
  if (!match) throw new Error('securedApiKeyRemainingValidity: the key has no validUntil');
  return Number(match[1]) - Math.round(now / 1000);
}
