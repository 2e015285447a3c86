/**
 * Insights in the browser: the user token, the automatic click / view / conversion events of the hits
 * that elements report, and their queued, batched, unload-safe sending to `POST /1/events`.
 *
 * The queue: batches of ≤ 1,000 events and under 2 MB (the documented limits), one request per flush;
 * network errors and 5xx (and 408/429) retried with exponential backoff, other 4xx dropped with a console
 * warning; `navigator.sendBeacon` on page unload. Nothing is lost: every queued event is mirrored in local
 * storage until the service has accepted it. Each page (instance) owns its part of the stored queue under
 * a lease that it renews while alive; a later page load (or another tab) adopts the parts whose lease ran
 * out or was released on `pagehide`/`dispose`. An event leaves the queue only once its request succeeded or
 * the beacon was accepted, so a request is never sent twice from one page; every event carries its own
 * millisecond timestamp, by which the local service recognises the re-send of a request whose answer a
 * dying page never read.
 *
 * @example
 * const insights = createInsights({ client, store, root: searchElement });
 * insights.observe(li, { objectID: '42', queryID, position: 13, indexName: 'products' });
 * insights.convert(['42'], 'Added to cart');
 */
import { fail } from '../client/errors.js';
import type { InsightsEvent, SearchClient } from '../client/types.js';
import type { SearchStore } from '../store/types.js';
import { INSIGHTS_LIMITS, isValidUserToken, validateInsightsEvent } from '../protocol/insights.js';
import type { HitRef, InsightsLike } from './types.js';

export type { HitRef, InsightsLike } from './types.js';
export {
  INSIGHTS_LIMITS,
  USER_TOKEN_PATTERN,
  isValidUserToken,
  validateInsightsEvent,
  type InsightsEventProblem,
} from '../protocol/insights.js';

const {
  eventsPerRequest: EVENTS_PER_REQUEST,
  bodyBytes: BODY_BYTES,
  conversionWindowMs: CONVERSION_WINDOW_MS,
} = INSIGHTS_LIMITS;
/** objectIDs per `Hits Viewed` or conversion event (the browser's own batching rule, as InstantSearch does). */
const OBJECT_IDS_PER_EVENT = 20;

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

/** Storage key of the queue (one per application). */
export const QUEUE_KEY_PREFIX = 'svc-insights-queue:';
const TOKEN_KEY = 'svc-insights-user-token';
const WINDOW_KEY = 'svc-insights-conversion-window';
/** Cookie of the anonymous token (only with `useCookie`), six months like search-insights' `_ALGOLIA`. */
const COOKIE = '_svc_insights_token';
/** How long a page's stored part of the queue stays its own without renewal. */
const LEASE_MS = 15_000;
/** Beacon bodies share the browser's 64 KiB keepalive quota. */
const BEACON_BYTES = 60_000;
/** How many viewed (queryID, objectID) pairs and queryID times a long session keeps in memory. */
const MAX_REMEMBERED = 5000;

interface Entry {
  id: string;
  event: InsightsEvent;
}
type Owners = Record<string, { lease: number; entries: Entry[] }>;
/** The search that led to an objectID: kept for the conversion window. */
type Source = { objectID?: string; indexName: string; queryID?: string; searchedAt?: number };
type EventFields = Omit<InsightsEvent, 'userToken' | 'eventType' | 'eventName' | 'index'>;

const randomId = () =>
  globalThis.crypto?.randomUUID?.() ?? Date.now().toString(36) + Math.random().toString(36).slice(2);
const utf8 = new TextEncoder();
const inBrowser = typeof document === 'object';

/** A cookie value decoded; one that is not valid percent-encoding (set by another script) is no token. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/** Drops the oldest tenth of a Set or Map (both iterate in insertion order) once it holds too much. */
function bound(collection: Set<string> | Map<string, unknown>) {
  if (collection.size > MAX_REMEMBERED)
    for (const key of [...collection.keys()].slice(0, MAX_REMEMBERED / 10)) collection.delete(key);
}

/** Splits entries into requests of ≤ 1,000 events and at most `maxBytes` of JSON body. */
function batches(entries: Entry[], maxBytes: number): Entry[][] {
  const out: Entry[][] = [];
  let bytes = Infinity;
  for (const entry of entries) {
    const size = utf8.encode(JSON.stringify(entry.event)).length + 1;
    // 12 bytes: {"events":[]}
    if (bytes + size > maxBytes || out.at(-1)!.length >= EVENTS_PER_REQUEST) out.push([]), (bytes = 12);
    out.at(-1)!.push(entry);
    bytes += size;
  }
  return out;
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
  const storage = options.storage ?? globalThis.localStorage;
  const queueKey = QUEUE_KEY_PREFIX + client.appId;
  const instance = randomId();
  const stats: QueueStats = { requests: 0, beacons: 0, eventsSent: 0, eventsDropped: 0, retries: 0 };
  /** Storage that never throws (private mode, disabled storage, quota): strings as they are, else JSON; `null` removes. */
  const readRaw = (key: string) => {
    try {
      return storage.getItem(key);
    } catch {}
  };
  const read = (key: string): any => {
    try {
      return JSON.parse(readRaw(key)!);
    } catch {}
  };
  const write = (key: string, value: unknown) => {
    try {
      value == null
        ? storage.removeItem(key)
        : storage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
    } catch {}
  };
  const cookie = (value: string | null) => {
    if (inBrowser)
      document.cookie = `${COOKIE}=${value ? encodeURIComponent(value) : ''}; path=/; max-age=${value ? 15_811_200 : 0}; SameSite=Lax`;
  };
  const readCookie = () => (inBrowser ? /(?:^|; )_svc_insights_token=([^;]*)/.exec(document.cookie)?.[1] : undefined);

  let consent = options.consent ?? true;
  let anonymousToken: string | undefined;
  let authenticatedToken: string | undefined;
  let root: HTMLElement | undefined;
  let removeNeeds: (() => void) | undefined;
  let disposed = false;
  // The queue.
  let entries: Entry[] = [];
  const inFlight = new Set<string>();
  /** The next flush: after `flushDelayMs`, or the next retry. */
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => (timer = void clearTimeout(timer));
  let attempt = 0;
  let persistQueued = false;
  let sending: Promise<void> | null = null;
  // Views and clicks.
  const hits = new Map<Element, HitRef>();
  const viewed = new Set<string>();
  const handledClicks = new WeakSet<Event>();
  /** When each queryID was answered: the conversion window runs one hour from the search. */
  const seenAt = new Map<string, number>();
  let pendingViews = new Map<string, HitRef[]>();
  let viewTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * The anonymous token of this browser, created on first use and kept in local storage, or only in the
   * cookie with `useCookie` (a token kept the other way is moved over, so switching keeps the user).
   */
  function anonymous(): string {
    const inCookie = safeDecode(readCookie() ?? '');
    const stored = useCookie ? inCookie || readRaw(TOKEN_KEY) : readRaw(TOKEN_KEY) || inCookie;
    const token = isValidUserToken(stored) ? stored : `anonymous-${randomId()}`;
    write(TOKEN_KEY, useCookie ? null : token);
    if (useCookie || inCookie) cookie(useCookie ? token : null);
    return token;
  }
  const userToken = () => (consent ? (authenticatedToken ?? anonymousToken) : undefined);

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
   * Consent withdrawn (or denied at start): the stored queue, the anonymous token, its cookie and the
   * conversion window are forgotten. The authenticated token (memory only, from the site) is kept for when
   * consent is granted again; nothing is sent with it meanwhile.
   */
  function forget() {
    write(TOKEN_KEY, null);
    if (readCookie() !== undefined) cookie(null);
    write(WINDOW_KEY, null);
    pendingViews.clear();
    entries = [];
    inFlight.clear();
    stop();
    write(queueKey, null);
  }

  const remember = (queryID: string | undefined) => {
    if (queryID && !seenAt.has(queryID)) seenAt.set(queryID, Date.now()), bound(seenAt);
  };
  const withinWindow = (queryID: string) => Date.now() - (seenAt.get(queryID) ?? Date.now()) < CONVERSION_WINDOW_MS;

  // --- the conversion window store: objectID → the search that led to it, across page loads (≤ 200, one hour)
  const windowEntries = (): Source[] =>
    [read(WINDOW_KEY)]
      .flat()
      .filter((e) => typeof e?.queryID === 'string' && Date.now() - e.searchedAt! < CONVERSION_WINDOW_MS);

  /** The search that led to `objectID`: the conversion window store, then a hit on this page. */
  function searchOf(objectID: string, indexName?: string): Source | undefined {
    const same = (e: Source) => e.objectID === objectID && (indexName === undefined || e.indexName === indexName);
    const found: Source | undefined = windowEntries().findLast(same) ?? [...hits.values()].findLast(same);
    return found?.queryID && !withinWindow(found.queryID) && !found.searchedAt ? { indexName: found.indexName } : found;
  }

  // --- the queue
  /** Writes this page's part of the stored queue (`release`: the next page load may adopt it at once), and adopts parts of pages that are gone. */
  function persist(release = false, adopt = false, mine = entries) {
    const stored = read(queueKey)?.owners;
    const owners: Owners = stored && typeof stored === 'object' ? stored : {};
    let adopted = 0;
    for (const [owner, part] of Object.entries(owners)) {
      if (!adopt || owner === instance || part?.lease >= Date.now()) continue;
      for (const entry of Array.isArray(part.entries) ? part.entries : []) {
        if (entry?.event && typeof entry.id === 'string' && !entries.some((e) => e.id === entry.id))
          entries.push(entry), adopted++;
      }
      delete owners[owner];
    }
    if (mine.length) owners[instance] = { lease: release ? 0 : Date.now() + LEASE_MS, entries: mine };
    else delete owners[instance];
    write(queueKey, Object.keys(owners).length ? { owners } : null);
    if (adopted) schedule();
  }
  /** One storage write per task, however many events a task queues. */
  function persistSoon() {
    if (persistQueued) return;
    persistQueued = true;
    queueMicrotask(() => {
      persistQueued = false;
      if (!disposed) persist();
    });
  }
  const remove = (batch: Entry[]) => (entries = entries.filter((e) => !batch.includes(e)));
  /** Dispatches `svc-insights`, `svc-insights-sent` or `svc-insights-error` on the root (bubbles, composed). */
  function announce<K extends 'svc-insights' | 'svc-insights-sent' | 'svc-insights-error'>(
    type: K,
    detail: HTMLElementEventMap[K]['detail'],
  ): void {
    root?.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
  /** `batch` was accepted (or handed to a beacon): it leaves the queue, and `svc-insights-sent` says so. */
  function sent(batch: Entry[], transport: InsightsSentDetail['transport']): void {
    remove(batch);
    stats.eventsSent += batch.length;
    announce('svc-insights-sent', { events: batch.map((e) => e.event), transport });
  }
  const ready = () => entries.filter((e) => !inFlight.has(e.id));

  function schedule(delay = flushDelayMs) {
    if (!disposed && consent && !timer) timer = setTimeout(flushQueue, delay);
  }

  function flushQueue(): Promise<void> {
    stop();
    if (consent) sending ??= drain().finally(() => (sending = null));
    return sending ?? Promise.resolve();
  }

  async function drain(): Promise<void> {
    for (let batch: Entry[] | undefined; !disposed && (batch = batches(ready(), BODY_BYTES - 1024)[0]); ) {
      for (const e of batch) inFlight.add(e.id);
      stats.requests++;
      try {
        await client.sendEvents(batch.map((e) => e.event));
        sent(batch, 'fetch');
        attempt = 0;
        persistSoon();
      } catch (error) {
        const { status, message } = error as { status?: number; message?: string };
        if (status! > 399 && status! < 500 && status !== 408 && status !== 429) {
          // A 4xx will not change on retry. A 422 names the first invalid event (`events[i]…`): only that one
          // is dropped and the rest go again; any other 4xx drops the whole request.
          const invalid = status === 422 && batch[+/events\[(\d+)\]/.exec(message!)?.[1]!];
          const dropped = invalid ? [invalid] : batch;
          console.warn(`svc-insights: the service refused ${dropped.length} event(s) (${status}): ${message}`);
          remove(dropped);
          stats.eventsDropped += dropped.length;
          announce('svc-insights-error', { events: dropped.map((e) => e.event), status: status!, reason: message! });
          if (!disposed) persist();
          continue;
        }
        // After `dispose`, a request that failed gives its events back to storage for the next instance.
        if (disposed) return persist(true, false, [...(read(queueKey)?.owners?.[instance]?.entries ?? []), ...batch]);
        stats.retries++;
        const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** attempt++);
        timer = setTimeout(flushQueue, delay * (0.75 + Math.random() / 2));
        return;
      } finally {
        for (const e of batch) inFlight.delete(e.id);
      }
    }
  }

  /**
   * Page unload: hands every event not already in flight to `navigator.sendBeacon` (credentials in the
   * URL parameters), falling back to a keepalive `fetch`; whatever could not be handed over stays stored
   * and is released to the next page load.
   */
  function onPageHide() {
    flushViews();
    if (!consent) return;
    stop();
    for (const batch of batches(ready(), BEACON_BYTES)) {
      const events = batch.map((e) => e.event);
      let handed = false;
      try {
        handed = navigator.sendBeacon(
          client.eventsBeaconUrl(),
          new Blob([JSON.stringify({ events })], { type: 'text/plain;charset=UTF-8' }),
        );
      } catch {}
      stats.beacons++;
      if (handed) {
        sent(batch, 'beacon');
        continue;
      }
      for (const e of batch) inFlight.add(e.id);
      client
        .sendEvents(events, { keepalive: true })
        .then(() => {
          sent(batch, 'keepalive');
          if (!disposed) persist();
        })
        .catch(() => {})
        .finally(() => batch.forEach((e) => inFlight.delete(e.id)));
    }
    persist(true);
  }

  /** The page came back (from the back/forward cache, or visible again): take the stored part back. */
  function onPageShow(event?: Event) {
    if (disposed || (event as PageTransitionEvent)?.persisted === false) return;
    persist();
    if (entries.length) schedule();
  }

  // `visibilitychange` to hidden is the last event a mobile browser reliably fires before killing a tab.
  const onVisibilityChange = () => (document.visibilityState === 'hidden' ? onPageHide() : onPageShow());

  // --- events
  /** Completes, validates and queues one event, and mirrors it as a `svc-insights` DOM event. */
  function send(
    eventType: InsightsEvent['eventType'],
    eventName: string,
    index: string,
    queryID: string | undefined | false,
    rest: EventFields,
  ) {
    const token = userToken();
    if (disposed || !token) return; // no consent: nothing is sent
    const event = {
      eventType,
      eventName,
      index,
      ...(queryID && { queryID }),
      ...rest,
      userToken: token,
      timestamp: Date.now(),
    } as InsightsEvent;
    const problem = validateInsightsEvent(event);
    if (problem) return console.warn(`svc-insights: event not sent (${problem.field}: ${problem.reason})`, event);
    entries.push({ id: randomId(), event });
    persistSoon();
    if (entries.length - inFlight.size >= EVENTS_PER_REQUEST) flushQueue();
    else schedule();
    announce('svc-insights', { event });
  }

  /** One event per 20 objectIDs (the hosted service's own per-event limit, as InstantSearch does). */
  const chunked = (objectIDs: string[], each: (ids: string[]) => void) => {
    for (let i = 0; i < objectIDs.length; i += OBJECT_IDS_PER_EVENT) each(objectIDs.slice(i, i + OBJECT_IDS_PER_EVENT));
  };

  /** Turns the gathered visible hits into `Hits Viewed` events of at most 20 objectIDs. */
  function flushViews() {
    viewTimer = void clearTimeout(viewTimer);
    for (const group of pendingViews.values()) {
      const [{ indexName, queryID }] = group as [HitRef];
      chunked(
        group.map((hit) => hit.objectID),
        (objectIDs) => send('view', 'Hits Viewed', indexName, queryID, { objectIDs }),
      );
    }
    pendingViews = new Map();
  }

  // A hit counts as viewed when at least half of it is in the viewport, not merely rendered.
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (observed) => {
            for (const entry of observed) {
              const hit = hits.get(entry.target);
              if (!hit || !entry.isIntersecting || entry.intersectionRatio < 0.5) continue;
              // Each objectID once per queryID.
              const group = `${hit.indexName}\0${hit.queryID ?? ''}`;
              const key = `${group}\0${hit.objectID}`;
              if (viewed.has(key)) continue;
              viewed.add(key);
              bound(viewed);
              pendingViews.set(group, [...(pendingViews.get(group) ?? []), hit]);
            }
            if (pendingViews.size) viewTimer ??= setTimeout(flushViews, viewDelayMs);
          },
          { threshold: [0.5] },
        )
      : undefined;

  function onClick(event: MouseEvent) {
    // Middle-click only among aux clicks; seen by the root and then by the document: handled once. Without
    // consent nothing is sent nor remembered (hits rendered before a withdrawal still carry a queryID).
    if (!consent || (event.type === 'auxclick' && event.button !== 1) || handledClicks.has(event)) return;
    handledClicks.add(event);
    let conversion: string | undefined;
    for (const node of event.composedPath()) {
      if (!(node instanceof Element)) continue;
      if (conversion === undefined && node.hasAttribute('data-svc-conversion'))
        conversion = node.getAttribute('data-svc-conversion') || 'Conversion';
      const hit = hits.get(node);
      if (!hit) continue;
      const { objectID, queryID, indexName } = hit;
      if (conversion !== undefined)
        return send('conversion', conversion, indexName, queryID && withinWindow(queryID) && queryID, {
          objectIDs: [objectID],
        });
      if (queryID) {
        const latest = windowEntries().filter((e) => e.objectID !== objectID || e.indexName !== indexName);
        write(
          WINDOW_KEY,
          [...latest, { objectID, indexName, queryID, searchedAt: seenAt.get(queryID) ?? Date.now() }].slice(-200),
        );
      }
      return send('click', 'Hit Clicked', indexName, queryID, { objectIDs: [objectID], positions: [hit.position] });
    }
  }

  const listen = (target: EventTarget | undefined, on: boolean, events: Array<[string, (event: any) => void]>) =>
    events.forEach(([type, listener]) =>
      on ? target?.addEventListener(type, listener) : target?.removeEventListener(type, listener),
    );
  const clicks: Array<[string, (event: MouseEvent) => void]> = [
    ['click', onClick],
    ['auxclick', onClick],
  ];
  const pageEvents = (on: boolean) => {
    if (!inBrowser) return;
    listen(window, on, [
      ['pagehide', onPageHide],
      ['pageshow', onPageShow],
    ]);
    // Elements joined with `search="id"` may sit outside the root: the document sees their clicks too.
    listen(document, on, [['visibilitychange', onVisibilityChange], ...clicks]);
  };

  const unsubscribeStore = store.subscribe((snapshot) => remember(snapshot.results?.queryID));
  const leaseTimer = setInterval(() => persist(false, true), LEASE_MS / 3);

  const insights: Insights = {
    get userToken() {
      return userToken();
    },
    stats,
    get queueSize() {
      return entries.length;
    },
    attach(element) {
      insights.detach();
      listen((root = element), true, clicks);
    },
    detach() {
      listen(root, false, clicks);
      root = undefined;
    },
    setUserToken(token) {
      if (token !== undefined && !isValidUserToken(token))
        fail(`insights: invalid userToken ${JSON.stringify(token)}, expected [a-zA-Z0-9_-=/+]{1,128}`);
      authenticatedToken = token;
      if (removeNeeds) registerNeeds();
    },
    setConsent(value) {
      if (value === consent) return;
      consent = value;
      anonymousToken = undefined;
      if (value) {
        anonymousToken = anonymous();
        if (entries.length) schedule();
      } else forget();
      registerNeeds();
    },
    observe(element, hit) {
      if (disposed) return;
      const previous = hits.get(element);
      hits.set(element, { ...hit });
      if (previous?.objectID === hit.objectID && previous.queryID === hit.queryID) return;
      remember(hit.queryID);
      // Re-observing makes the observer report the element's current visibility for the new hit.
      observer?.unobserve(element);
      observer?.observe(element);
    },
    unobserve(element) {
      hits.delete(element);
      observer?.unobserve(element);
    },
    filterApplied(indexName, attribute, value, queryID) {
      send('click', 'Filter Applied', indexName, queryID, { filters: [`${attribute}:${value}`] });
    },
    convert(objectIDs, eventName = 'Conversion', indexName) {
      // One event per search the objectIDs came from (queryID from the conversion window store, else from
      // a hit on this page); objectIDs with no search within the hour are converted without a queryID.
      const groups = new Map<string, [index: string, queryID: string | undefined, objectIDs: string[]]>();
      for (const objectID of objectIDs) {
        const source = searchOf(objectID, indexName);
        const index = source?.indexName ?? indexName ?? store.baseIndex;
        const key = `${index}\0${source?.queryID ?? ''}`;
        if (!groups.has(key)) groups.set(key, [index, source?.queryID, []]);
        groups.get(key)![2].push(objectID);
      }
      for (const [index, queryID, ids] of groups.values())
        chunked(ids, (chunk) => send('conversion', eventName, index, queryID, { objectIDs: chunk }));
    },
    flush() {
      flushViews();
      return flushQueue();
    },
    dispose() {
      if (disposed) return;
      flushViews();
      insights.detach();
      observer?.disconnect();
      hits.clear();
      removeNeeds?.();
      unsubscribeStore();
      pageEvents(false);
      stop();
      clearInterval(leaseTimer);
      // A request in flight finishes on its own: its events are handed back only if it fails (see drain).
      persist(true, false, ready());
      disposed = true;
    },
  };

  if (options.userToken !== undefined) insights.setUserToken(options.userToken);
  // Denied from the start: what an earlier page kept goes too (and then `persist` adopts nothing).
  if (consent) anonymousToken = anonymous();
  else forget();
  persist(false, true);
  registerNeeds();
  pageEvents(true);
  if (options.root) insights.attach(options.root);
  return insights;
}
