/** Forgetting what Insights kept in this browser, when consent is withdrawn or denied. */
import { WINDOW_KEY } from './conversion-window.js';
import { TOKEN_KEY, type KeptValues } from './storage.js';
import { QUEUE_KEY_PREFIX } from './stored-queue.js';
import { readCookie, writeCookie } from './token.js';

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
