/**
 * The anonymous user token of this browser and forgetting what Insights kept. Small on purpose: `<svc-search>`
 * needs the token for its first search, before the rest of Insights is loaded.
 */
import { isValidUserToken } from '../protocol/insights-limits.js';
import type { Needs } from '../store/types.js';
import { type KeptValues, QUEUE_KEY_PREFIX, TOKEN_KEY, WINDOW_KEY, randomId } from './storage.js';

/** Cookie of the anonymous token (only with `useCookie`), six months like search-insights' `_ALGOLIA`. */
export const TOKEN_COOKIE = '_svc_insights_token';
const COOKIE_MAX_AGE_S = 15_811_200;

const inBrowser = typeof document === 'object';

/** The token kept in the cookie (URL-encoded), or undefined. */
function readCookie(): string | undefined {
  if (!inBrowser) return undefined;
  return /(?:^|; )_svc_insights_token=([^;]*)/.exec(document.cookie)?.[1];
}

/** A cookie value decoded; one that is not valid percent-encoding (set by another script) is no token. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/** Sets the cookie to `value`, or removes it (`null`). */
function writeCookie(value: string | null): void {
  if (!inBrowser) return;
  const maxAge = value ? COOKIE_MAX_AGE_S : 0;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is asynchronous and missing in Firefox; the token is needed at once.
  document.cookie = `${TOKEN_COOKIE}=${value ? encodeURIComponent(value) : ''}; path=/; max-age=${maxAge}; SameSite=Lax`;
}

/**
 * The anonymous token of this browser, created on first use: kept in local storage, or with `useCookie` in the
 * first-party cookie instead (a token kept the other way is moved over, so switching keeps the user).
 *
 * @example
 * anonymousToken(keptValues(), false) // 'anonymous-1b2c…'
 */
export function anonymousToken(kept: KeptValues, useCookie: boolean | undefined): string {
  const inCookie = safeDecode(readCookie() ?? '');
  const stored = useCookie ? inCookie || kept.readRaw(TOKEN_KEY) : kept.readRaw(TOKEN_KEY) || inCookie;
  const token = isValidUserToken(stored) ? stored : `anonymous-${randomId()}`;
  kept.write(TOKEN_KEY, useCookie ? null : token);
  if (useCookie || inCookie) writeCookie(useCookie ? token : null);
  return token;
}

/**
 * Consent withdrawn (or denied): forgets the anonymous token, its cookie, the conversion window and the stored
 * queue of the application (every page's part).
 *
 * @example
 * forgetKept(keptValues(), 'SVCLOCAL');
 */
export function forgetKept(kept: KeptValues, appId: string): void {
  kept.write(TOKEN_KEY, null);
  if (readCookie() !== undefined) writeCookie(null);
  kept.write(WINDOW_KEY, null);
  kept.write(QUEUE_KEY_PREFIX + appId, null);
}

/**
 * What Insights asks of every search while it has a user token: a queryID per search (`clickAnalytics`) and the
 * token. Inherited by the added indices. The first-paint script (src/prepaint) asks the same of its search.
 *
 * @example
 * store.registerNeeds('insights', insightsNeeds('anonymous-1b2c'));
 */
export const insightsNeeds = (userToken: string): Needs => ({
  params: { clickAnalytics: true, userToken },
  inherit: true,
});
