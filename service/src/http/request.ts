/**
 * What the HTTP layer reads from a request for the domain: the credentials (headers, else URL parameters of
 * the same names in any case), the {@link Caller} the authorizer checks, and the {@link SearchOrigin}
 * Analytics and A/B tests count users by. The domain never sees a Hono context.
 */
import type { Context } from 'hono';
import type { SearchOrigin } from '../analytics/record.js';
import { asUnauthorized } from '../errors.js';
import type { Caller } from '../keys/authorizer.js';
import type { KeyInfo, Requirement } from '../keys/types.js';
import type { Services } from '../services.js';

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

/** The first address of `X-Forwarded-For`. */
function forwardedFor(c: Context): string | undefined {
  return c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || undefined;
}

/**
 * What the call presents to the authorizer.
 *
 * @example
 * services.authorize(callerOf(c), 'search', 'products');
 */
export function callerOf(c: Context): Caller {
  return {
    ...credentialsOf(c),
    referer: c.req.header('referer') ?? c.req.header('origin'),
    ip: clientIp(c),
    userToken: c.req.header('x-service-usertoken'),
    forwardedFor: forwardedFor(c),
    forwardedApiKey: c.req.header('x-forwarded-api-key'),
  };
}

/** A two-letter country code, upper case; `XX` (Cloudflare: unknown) and anything else are no country. */
function countryOf(value: string | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) && code !== 'XX' ? code : undefined;
}

/**
 * Where a search came from: the peer address, `X-Forwarded-For`, `X-Service-UserToken`, and the country a
 * proxy put in one of `countryHeaders`.
 *
 * @example
 * services.search.run(indexName, raw, key, originOf(c, services.config.countryHeaders));
 */
export function originOf(c: Context, countryHeaders: readonly string[]): SearchOrigin {
  const origin: SearchOrigin = {};
  for (const header of countryHeaders) {
    const country = countryOf(c.req.header(header));
    if (country) {
      origin.country = country;
      break;
    }
  }
  const ip = clientIp(c);
  if (ip) origin.ip = ip;
  const forwarded = forwardedFor(c);
  if (forwarded) origin.forwardedFor = forwarded;
  const userToken = c.req.header('x-service-usertoken');
  if (userToken) origin.userToken = userToken;
  return origin;
}

/**
 * Authorises the call: its key, or a 403 (`CredentialsError` for missing or wrong credentials).
 *
 * @example
 * const key = authorize(services, c, 'search', 'products');
 */
export function authorize(services: Services, c: Context, right: Requirement, indexName?: string): KeyInfo {
  return services.authorize(callerOf(c), right, indexName);
}

/**
 * {@link authorize} for the APIs of documents 2 and 3: missing credentials are a 401 (A/B test: "401
 * application ID or key missing"; the other endpoint tables list 401), wrong ones `wrong` — 403 where the
 * document says "403 invalid credentials" (A/B test, and Analytics on the same host), 401 where it lists
 * only 401 (Insights, Recommend, Query Suggestions, Personalization).
 *
 * @example
 * const key = authorizeOrUnauthorized(services, c, 'analytics', index, 403);
 */
export function authorizeOrUnauthorized(
  services: Services,
  c: Context,
  right: Requirement,
  indexName: string | undefined,
  wrong: 401 | 403,
): KeyInfo {
  try {
    return authorize(services, c, right, indexName);
  } catch (error) {
    throw asUnauthorized(error, wrong);
  }
}
