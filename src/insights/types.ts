import type { InsightsEvent, SearchClient } from '../client/types.js';
import type { SearchStore } from '../store/types.js';

/** The surface elements and controllers use to report what the user sees and does. */
export interface HitRef {
  objectID: string;
  /** The queryID of the answer that produced the hit (present when clickAnalytics was on). */
  queryID?: string;
  /** Absolute 1-based position: page × hitsPerPage + index + 1 (Recommend items: 1..n). */
  position: number;
  indexName: string;
}

export interface InsightsLike {
  /** Watches `element` for visibility (≥ 50 % in the viewport → `Hits Viewed`) and clicks inside it. */
  observe(element: Element, hit: HitRef): void;
  unobserve(element: Element): void;
  /** Sends `Filter Applied` for a refinement the user turned on. */
  filterApplied(indexName: string, attribute: string, value: string, queryID?: string): void;
  /** Sends a conversion for the objectIDs (queryID looked up from the conversion window store). */
  convert(objectIDs: string[], eventName?: string, indexName?: string): void;
}

export interface InsightsOptions {
  client: SearchClient;
  store: SearchStore;
  /** An authenticated user token (after login); the anonymous token is used otherwise. */
  userToken?: string;
  /** Keep the anonymous token in a first-party cookie (`_svc_insights_token`, six months) instead of local storage. */
  useCookie?: boolean;
  /**
   * Whether the user agreed to analytics (default `true`). `false` sends nothing, creates no token and asks
   * searches for no `clickAnalytics`; it also forgets what an earlier page kept (token, cookie, conversion
   * window, queue), as `setConsent(false)` does.
   */
  consent?: boolean;
  /**
   * The element whose clicks are watched (normally `<svc-search>`); may be given later with `attach`.
   * Clicks are matched against observed hits through `event.composedPath()`, so hits may sit in
   * shadow roots below it. `svc-insights` events are dispatched on it.
   */
  root?: HTMLElement;
  /** Where the token, the queue and the conversion window are kept (default `localStorage`). */
  storage?: Storage;
  /** Delay before queued events are sent in one request (default 1000 ms). */
  flushDelayMs?: number;
  /** Delay during which newly visible hits are gathered into one `Hits Viewed` event (default 200 ms). */
  viewDelayMs?: number;
  /** First retry delay after a network error or 5xx (default 1000 ms, doubling up to `retryMaxMs`). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * Where the clicks on the hits the first-paint script painted come from (src/prepaint), until `<svc-hits>`
   * replaces them: called once with the function that takes each click — those made before this module existed at
   * once, then each as it happens. Each is sent as a click with its queryID and position (or as the conversion a
   * `data-svc-conversion` element in the hit names) at the time it happened, as if it had been seen here. A later
   * instance given the same source takes the clicks from then on.
   */
  paintedClicks?: (take: (click: { hit: HitRef; conversion?: string; at: number }) => void) => void;
}

/** Counters of the queue, read by tests and the benchmark. */
export interface QueueStats {
  /** `/1/events` requests made with `fetch` (through the client). */
  requests: number;
  /** Requests handed to `navigator.sendBeacon` (or keepalive fetch) on unload. */
  beacons: number;
  /** Events accepted by the service or handed to a beacon. */
  eventsSent: number;
  /** Events dropped after a 4xx answer. */
  eventsDropped: number;
  /** Failed attempts that were scheduled for a retry. */
  retries: number;
  /** The waits of the last ten retries as scheduled (ms, jitter included), oldest first; absent before the first. */
  retryDelaysMs?: number[];
}

/** The Insights module of one `<svc-search>` root (created by {@link createInsights}). */
export interface Insights extends InsightsLike {
  /** The token events are sent with: the authenticated one when set, else the anonymous one; none without consent. */
  readonly userToken: string | undefined;
  /** Counters of the queue (requests, beacons, events sent, dropped, retries). */
  readonly stats: Readonly<QueueStats>;
  /** Events waiting to be sent (including a request in flight). */
  readonly queueSize: number;
  /** Listens for clicks on `root` (normally `<svc-search>`); replaces a previous root. */
  attach(root: HTMLElement): void;
  detach(): void;
  /**
   * Sets the authenticated user token (after login), or `undefined` to go back to the anonymous one.
   * @throws TypeError when the token does not match `[a-zA-Z0-9_-=/+]{1,128}`.
   */
  setUserToken(token: string | undefined): void;
  /**
   * Turns sending on or off. Off drops the queue (also the stored one), forgets the anonymous token, its
   * cookie and the conversion window and stops asking searches for `clickAnalytics`; on creates a new
   * anonymous token (an authenticated token set earlier is used again).
   */
  setConsent(consent: boolean): void;
  /** Sends everything queued now; resolves when the requests were answered (or a retry is scheduled). */
  flush(): Promise<void>;
  /** Stops listening; queued events stay stored and the next instance (page load) sends them. */
  dispose(): void;
}

/**
 * `detail` of the `svc-insights` DOM event, dispatched when an event is *queued* for sending (it may still be
 * refused by the service: `svc-insights-error`, or wait for a later page load).
 */
export interface InsightsEventDetail {
  event: InsightsEvent;
}

/**
 * `detail` of `svc-insights-sent`: events the service accepted (a 2xx answer to their request), or — on page
 * unload — handed to `navigator.sendBeacon` (`transport: 'beacon'`, whose answer a page never sees).
 */
export interface InsightsSentDetail {
  events: InsightsEvent[];
  transport: 'fetch' | 'beacon' | 'keepalive';
}

/** `detail` of `svc-insights-error`: events the service refused (a 4xx other than 408/429); they are dropped. */
export interface InsightsErrorDetail {
  events: InsightsEvent[];
  status: number;
  /** The service's message (for a 422, it names the first invalid event: `events[i].field: …`). */
  reason: string;
}

declare global {
  interface HTMLElementEventMap {
    'svc-insights': CustomEvent<InsightsEventDetail>;
    'svc-insights-sent': CustomEvent<InsightsSentDetail>;
    'svc-insights-error': CustomEvent<InsightsErrorDetail>;
  }
}
