/**
 * Insights in the browser: the user token, the automatic click / view / conversion events of the hits that
 * elements report, and their queued, batched, unload-safe sending to `POST /1/events`. The parts are modules of
 * their own: `token.ts` (the anonymous token), `queue.ts` (the stored queue and its leases), `sender.ts`
 * (requests, retries, beacons), `automatic.ts` (views, clicks, conversions) and `conversion-window.ts`.
 *
 * Nothing is lost: every queued event is mirrored in local storage until the service has accepted it, and a
 * page's stored part is adopted by the next page load (or another tab) once released or expired. An event leaves
 * the queue only once its request succeeded or a beacon was accepted, so a request is never sent twice from one
 * page; every event carries its own millisecond timestamp, by which the local service recognises the re-send of
 * a request whose answer a dying page never read.
 *
 * @example
 * const insights = createInsights({ client, store, root: searchElement });
 * insights.observe(li, { objectID: '42', queryID, position: 13, indexName: 'products' });
 * insights.convert(['42'], 'Added to cart');
 */
import { fail } from '../client/errors.js';
import type { InsightsEvent } from '../client/types.js';
import { INSIGHTS_LIMITS, isValidUserToken, validateInsightsEvent } from '../protocol/insights.js';
import { type AutomaticEvents, type EventFields, chunked, createAutomaticEvents } from './automatic.js';
import type { ClickTarget } from './click-target.js';
import { createQueue } from './queue.js';
import { createSender } from './sender.js';
import { forgetKept } from './forget.js';
import { keptValues } from './storage.js';
import { QUEUE_KEY_PREFIX } from './stored-queue.js';
import { anonymousToken } from './token.js';
import type { Insights, InsightsOptions, QueueStats } from './types.js';

export type {
  HitRef,
  Insights,
  InsightsErrorDetail,
  InsightsEventDetail,
  InsightsSentDetail,
  InsightsLike,
  InsightsOptions,
  QueueStats,
} from './types.js';
export {
  INSIGHTS_LIMITS,
  USER_TOKEN_PATTERN,
  isValidUserToken,
  validateInsightsEvent,
  type InsightsEventProblem,
} from '../protocol/insights.js';
export { QUEUE_KEY_PREFIX };

const inBrowser = typeof document === 'object';

/** Internal: a click recorded before the module loaded, replayed into the instance that now handles it. */
const clickHandlers = new WeakMap<Insights, AutomaticEvents['click']>();

/**
 * Replays a click that the stand-in of `<svc-search>` recorded before this module loaded (`at`: when it
 * happened), as if `insights` had seen it.
 *
 * @example
 * replayClick(insights, { hit: { objectID: 'p5', queryID, position: 6, indexName: 'products' } }, clickedAt);
 */
export function replayClick(insights: Insights, target: ClickTarget, at: number): void {
  clickHandlers.get(insights)?.(target, at);
}

/**
 * Creates the Insights module of a search root.
 * @example
 * const insights = createInsights({ client, store, root: document.querySelector('svc-search')! });
 * insights.setUserToken('user-42'); // after login
 */
export function createInsights(options: InsightsOptions): Insights {
  const {
    client,
    store,
    useCookie,
    flushDelayMs = 1000,
    viewDelayMs = 200,
    retryBaseMs = 1000,
    retryMaxMs = 60_000,
  } = options;
  const kept = keptValues(options.storage);
  const stats: QueueStats = { requests: 0, beacons: 0, eventsSent: 0, eventsDropped: 0, retries: 0 };
  let consent = options.consent ?? true;
  let anonymous: string | undefined;
  let authenticated: string | undefined;
  let root: HTMLElement | undefined;
  let removeNeeds: (() => void) | undefined;
  let disposed = false;

  const queue = createQueue(kept, QUEUE_KEY_PREFIX + client.appId, () => sender.schedule());
  const sender = createSender({
    client,
    queue,
    stats,
    consent: () => consent,
    disposed: () => disposed,
    flushDelayMs,
    retryBaseMs,
    retryMaxMs,
    announce,
  });
  const automatic = createAutomaticEvents(kept, send, () => consent, viewDelayMs);

  const userToken = () => (consent ? (authenticated ?? anonymous) : undefined);

  function registerNeeds() {
    if (disposed) return;
    const token = userToken();
    removeNeeds?.();
    // While on, every search asks for a queryID and carries the user token.
    removeNeeds = token
      ? store.registerNeeds('insights', { params: { clickAnalytics: true, userToken: token }, inherit: true })
      : undefined;
  }

  /**
   * Consent withdrawn (or denied at start): the stored queue, the anonymous token, its cookie and the conversion
   * window are forgotten. The authenticated token (memory only, from the site) is kept for when consent is
   * granted again; nothing is sent with it meanwhile.
   */
  function forget() {
    forgetKept(kept, client.appId);
    automatic.forgetViews();
    queue.clear();
    sender.stop();
  }

  /** Dispatches `svc-insights`, `svc-insights-sent` or `svc-insights-error` on the root (bubbles, composed). */
  function announce<K extends 'svc-insights' | 'svc-insights-sent' | 'svc-insights-error'>(
    type: K,
    detail: HTMLElementEventMap[K]['detail'],
  ): void {
    root?.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Completes, validates and queues one event, and mirrors it as a `svc-insights` DOM event. */
  function send(
    eventType: InsightsEvent['eventType'],
    eventName: string,
    index: string,
    queryID: string | undefined | false,
    fields: EventFields,
    timestamp = Date.now(),
  ) {
    const token = userToken();
    if (disposed || !token) return; // no consent: nothing is sent
    const event = {
      eventType,
      eventName,
      index,
      ...(queryID && { queryID }),
      ...fields,
      userToken: token,
      timestamp,
    } as InsightsEvent;
    const problem = validateInsightsEvent(event);
    if (problem) {
      console.warn(`svc-insights: event not sent (${problem.field}: ${problem.reason})`, event);
      return;
    }
    queue.add(event);
    if (queue.entries.length - queue.inFlight.size >= INSIGHTS_LIMITS.eventsPerRequest) void sender.flush();
    else sender.schedule();
    announce('svc-insights', { event });
  }

  const onPageHide = () => {
    automatic.flushViews();
    sender.pageHide();
  };
  // `visibilitychange` to hidden is the last event a mobile browser reliably fires before killing a tab.
  const onVisibilityChange = () => (document.visibilityState === 'hidden' ? onPageHide() : sender.pageShow());

  function listenForClicks(target: EventTarget | undefined, on: boolean) {
    for (const type of ['click', 'auxclick']) {
      if (on) target?.addEventListener(type, automatic.onClick as EventListener);
      else target?.removeEventListener(type, automatic.onClick as EventListener);
    }
  }

  function listenToPage(on: boolean) {
    if (!inBrowser) return;
    const method = on ? 'addEventListener' : 'removeEventListener';
    window[method]('pagehide', onPageHide);
    window[method]('pageshow', sender.pageShow);
    document[method]('visibilitychange', onVisibilityChange);
    // Elements joined with `search="id"` may sit outside the root: the document sees their clicks too.
    listenForClicks(document, on);
  }

  const unsubscribeStore = store.subscribe((snapshot) => automatic.remember(snapshot.results?.queryID));

  const insights: Insights = {
    get userToken() {
      return userToken();
    },
    stats,
    get queueSize() {
      return queue.entries.length;
    },
    attach(element) {
      insights.detach();
      root = element;
      listenForClicks(root, true);
    },
    detach() {
      listenForClicks(root, false);
      root = undefined;
    },
    setUserToken(token) {
      if (token !== undefined && !isValidUserToken(token))
        fail(`insights: invalid userToken ${JSON.stringify(token)}, expected [a-zA-Z0-9_-=/+]{1,128}`);
      authenticated = token;
      if (removeNeeds) registerNeeds();
    },
    setConsent(value) {
      if (value === consent) return;
      consent = value;
      anonymous = undefined;
      if (value) {
        anonymous = anonymousToken(kept, useCookie);
        if (queue.entries.length) sender.schedule();
      } else forget();
      registerNeeds();
    },
    observe(element, hit) {
      if (!disposed) automatic.observe(element, hit);
    },
    unobserve: automatic.unobserve,
    filterApplied(indexName, attribute, value, queryID) {
      send('click', 'Filter Applied', indexName, queryID, { filters: [`${attribute}:${value}`] });
    },
    convert(objectIDs, eventName = 'Conversion', indexName) {
      // One event per search the objectIDs came from (queryID from the conversion window store, else from a hit
      // on this page); objectIDs with no search within the hour are converted without a queryID.
      const groups = new Map<string, [index: string, queryID: string | undefined, objectIDs: string[]]>();
      for (const objectID of objectIDs) {
        const source = automatic.searchOf(objectID, indexName);
        const index = source?.indexName ?? indexName ?? store.baseIndex;
        const key = `${index}\0${source?.queryID ?? ''}`;
        if (!groups.has(key)) groups.set(key, [index, source?.queryID, []]);
        groups.get(key)![2].push(objectID);
      }
      for (const [index, queryID, ids] of groups.values())
        chunked(ids, (chunk) => send('conversion', eventName, index, queryID, { objectIDs: chunk }));
    },
    flush() {
      automatic.flushViews();
      return sender.flush();
    },
    dispose() {
      if (disposed) return;
      automatic.dispose();
      insights.detach();
      removeNeeds?.();
      unsubscribeStore();
      listenToPage(false);
      sender.stop();
      queue.dispose();
      // A request in flight finishes on its own: its events are handed back only if it fails (see the sender).
      queue.persist({ release: true, mine: queue.ready() });
      disposed = true;
    },
  };
  const clicked = (target: ClickTarget, at: number) => {
    if (consent && !disposed) automatic.click(target, at);
  };
  clickHandlers.set(insights, clicked);

  if (options.userToken !== undefined) insights.setUserToken(options.userToken);
  // Denied from the start: what an earlier page kept goes too (and then `persist` adopts nothing).
  if (consent) anonymous = anonymousToken(kept, useCookie);
  else forget();
  queue.persist({ adopt: true });
  registerNeeds();
  listenToPage(true);
  if (options.root) insights.attach(options.root);
  // Clicks on the hits the first-paint script painted, as they happen, until `<svc-hits>` replaces them (the
  // stand-in handed over those it took before this module loaded).
  options.paintedClicks?.((click) => clicked(click, click.at));
  return insights;
}
