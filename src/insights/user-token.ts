/**
 * The anonymous user token: created once per browser and kept in local storage (and in a first-party
 * cookie only when the site asks for one, as search-insights' `useCookie` does).
 */
import { isValidUserToken } from './rules.js';

/** Storage key and cookie name of the anonymous token. */
export const ANONYMOUS_TOKEN_KEY = 'svc-insights-user-token';
const COOKIE_NAME = '_svc_insights_token';
/** Cookie lifetime: six months, like the `_ALGOLIA` cookie of search-insights. */
const COOKIE_MAX_AGE_S = 60 * 60 * 24 * 183;

/** A `Storage` that never throws (private mode, disabled storage, quota). */
export function safeStorage(storage: Storage | undefined): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  return {
    getItem(key) {
      try {
        return storage?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    setItem(key, value) {
      try {
        storage?.setItem(key, value);
      } catch {
        /* storage full or disabled: the value lives in memory only */
      }
    },
    removeItem(key) {
      try {
        storage?.removeItem(key);
      } catch {
        /* disabled storage */
      }
    },
  };
}

function readCookie(): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE_NAME) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(value: string | null): void {
  if (typeof document === 'undefined') return;
  document.cookie =
    value === null
      ? `${COOKIE_NAME}=; path=/; max-age=0; SameSite=Lax`
      : `${COOKIE_NAME}=${encodeURIComponent(value)}; path=/; max-age=${COOKIE_MAX_AGE_S}; SameSite=Lax`;
}

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * The anonymous token of this browser, created on first call and kept.
 * @example anonymousUserToken(localStorage) // 'anonymous-6f1c…'
 */
export function anonymousUserToken(storage: ReturnType<typeof safeStorage>, useCookie = false): string {
  const fromCookie = useCookie ? readCookie() : null;
  const stored = fromCookie ?? storage.getItem(ANONYMOUS_TOKEN_KEY);
  const token = isValidUserToken(stored) ? stored : `anonymous-${randomId()}`;
  storage.setItem(ANONYMOUS_TOKEN_KEY, token);
  if (useCookie) writeCookie(token);
  return token;
}

/** Forgets the anonymous token (consent withdrawn). */
export function forgetAnonymousUserToken(storage: ReturnType<typeof safeStorage>): void {
  storage.removeItem(ANONYMOUS_TOKEN_KEY);
  if (readCookie() !== null) writeCookie(null);
}
