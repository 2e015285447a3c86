/**
 * The anonymous user token of this browser and its cookie. Small on purpose: `<svc-search>` and the first-paint
 * script (src/prepaint, in the loader's file) need the token for the first search, before the rest of Insights is
 * loaded; forgetting what Insights kept is `forget.ts`.
 */
import { isValidUserToken } from '../protocol/user-token.js';
import type { Needs } from '../store/types.js';
import { type KeptValues, TOKEN_KEY, randomId } from './storage.js';

/** Cookie of the anonymous token (only with `useCookie`), six months like search-insights' `_ALGOLIA`. */
export const TOKEN_COOKIE = '_svc_insights_token';
const COOKIE_MAX_AGE_S = 15_811_200;

const inBrowser = typeof document === 'object';

/** The token kept in the cookie (URL-encoded), or undefined. */
export function readCookie(): string | undefined {
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
export function writeCookie(value: string | null): void {
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
