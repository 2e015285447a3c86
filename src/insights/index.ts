/**
 * Insights in the browser: the user token, the automatic click / view / conversion events of the hits
 * that elements report, and their queued, batched, unload-safe sending to `POST /1/events`.
 *
 * @example
 * const insights = createInsights({ client, store, root: searchElement });
 * insights.observe(li, { objectID: '42', queryID, position: 13, indexName: 'products' });
 * insights.convert(['42'], 'Added to cart');
 */
import type { InsightsEvent, SearchClient } from '../client/types.js';
import type { SearchStore } from '../store/types.js';
import type { HitRef, InsightsLike } from './types.js';
import { ConversionWindow } from './conversion-window.js';
import { EventQueue, type QueueStats } from './event-queue.js';
import { INSIGHTS_LIMITS, isValidUserToken, validateEvent } from './rules.js';
import { anonymousUserToken, forgetAnonymousUserToken, safeStorage } from './user-token.js';

export type { HitRef, InsightsLike } from './types.js';
export { INSIGHTS_LIMITS, USER_TOKEN_PATTERN, isValidUserToken, validateEvent as validateInsightsEvent } from './rules.js';
export type { QueueStats } from './event-queue.js';

export interface InsightsOptions {
  client: SearchClient;
  store: SearchStore;
  /** An authenticated user token (after login); the anonymous token is used otherwise. */
  userToken?: string;
  /** Also keep the anonymous token in a first-party cookie (default: local storage only). */
  useCookie?: boolean;
  /** Whether the user agreed to analytics (default `true`); `false` sends nothing and keeps no token. */
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

/** `detail` of the `svc-insights` DOM event dispatched for every event queued for sending. */
export interface InsightsEventDetail {
  event: InsightsEvent;
}

declare global {
  interface HTMLElementEventMap {
    'svc-insights': CustomEvent<InsightsEventDetail>;
  }
}

/** How many viewed (queryID, objectID) pairs and queryID times a long session keeps in memory. */
const MAX_REMEMBERED = 5000;

/** Drops the oldest tenth of a Set or Map (both iterate in insertion order). */
function forgetOldest(collection: Set<string> | Map<string, unknown>): void {
  let n = Math.ceil(collection.size / 10);
  for (const key of collection.keys()) {
    if (n-- <= 0) break;
    collection.delete(key);
  }
}

/** Storage key of the queue (one per application). */
export const QUEUE_KEY_PREFIX = 'svc-insights-queue:';

/**
 * The Insights module of one `<svc-search>` root.
 * @example
 * const insights = createInsights({ client, store });
 * insights.attach(document.querySelector('svc-search')!);
 */
export class Insights implements InsightsLike {
  private readonly storage: ReturnType<typeof safeStorage>;
  private readonly queue: EventQueue;
  private readonly conversionWindow: ConversionWindow;
  private readonly hits = new Map<Element, HitRef>();
  private readonly viewed = new Set<string>();
  private readonly handledClicks = new WeakSet<Event>();
  private pendingViews = new Map<string, { indexName: string; queryID?: string; objectIDs: string[] }>();
  private viewTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly queryIDSeenAt = new Map<string, number>();
  private readonly observer: IntersectionObserver | undefined;
  private root: HTMLElement | undefined;
  private consent: boolean;
  private anonymousToken: string | undefined;
  private authenticatedToken: string | undefined;
  private removeNeeds: (() => void) | undefined;
  private readonly unsubscribeStore: () => void;
  private disposed = false;

  constructor(private readonly options: InsightsOptions) {
    this.storage = safeStorage(options.storage ?? (typeof localStorage !== 'undefined' ? localStorage : undefined));
    this.conversionWindow = new ConversionWindow(this.storage);
    this.queue = new EventQueue({
      client: options.client,
      storage: this.storage,
      storageKey: QUEUE_KEY_PREFIX + options.client.appId,
      flushDelayMs: options.flushDelayMs,
      retryBaseMs: options.retryBaseMs,
      retryMaxMs: options.retryMaxMs,
    });
    this.consent = options.consent ?? true;
    this.queue.setPaused(!this.consent);
    if (options.userToken !== undefined) this.setUserToken(options.userToken);
    if (this.consent) this.anonymousToken = anonymousUserToken(this.storage, options.useCookie);
    this.registerNeeds();
    if (typeof IntersectionObserver !== 'undefined') {
      // A hit counts as viewed when at least half of it is in the viewport, not merely rendered.
      this.observer = new IntersectionObserver((entries) => this.onIntersection(entries), { threshold: [0.5] });
    }
    // When each queryID was answered: the conversion window runs one hour from the search.
    this.unsubscribeStore = options.store.subscribe((snapshot) => {
      const queryID = snapshot.results?.queryID;
      if (queryID && !this.queryIDSeenAt.has(queryID)) this.rememberQueryID(queryID);
    });
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', this.onPageHide);
      window.addEventListener('pageshow', this.onPageShow);
      document.addEventListener('visibilitychange', this.onVisibilityChange);
      // Elements joined with `search="id"` may sit outside the root: the document sees their clicks too.
      document.addEventListener('click', this.onClick);
      document.addEventListener('auxclick', this.onClick);
    }
    if (options.root) this.attach(options.root);
  }

  /** The token events are sent with: the authenticated one when set, else the anonymous one. */
  get userToken(): string | undefined {
    return this.consent ? (this.authenticatedToken ?? this.anonymousToken) : undefined;
  }

  /** Counters of the queue (requests, beacons, events sent, dropped, retries). */
  get stats(): Readonly<QueueStats> {
    return this.queue.stats;
  }

  /** Events waiting to be sent. */
  get queueSize(): number {
    return this.queue.size;
  }

  /** Listens for clicks on `root` (normally `<svc-search>`); replaces a previous root. */
  attach(root: HTMLElement): void {
    this.detach();
    this.root = root;
    root.addEventListener('click', this.onClick);
    root.addEventListener('auxclick', this.onClick);
  }

  detach(): void {
    this.root?.removeEventListener('click', this.onClick);
    this.root?.removeEventListener('auxclick', this.onClick);
    this.root = undefined;
  }

  /**
   * Sets the authenticated user token (after login), or `undefined` to go back to the anonymous one.
   * @throws TypeError when the token does not match `[a-zA-Z0-9_-=/+]{1,128}`.
   */
  setUserToken(token: string | undefined): void {
    if (token !== undefined && !isValidUserToken(token)) {
      throw new TypeError(`svc-insights: invalid userToken ${JSON.stringify(token)}: expected [a-zA-Z0-9_-=/+]{1,128}`);
    }
    this.authenticatedToken = token;
    if (!this.disposed && this.removeNeeds) this.registerNeeds();
  }

  /**
   * Turns sending on or off. Off drops the queue, forgets the anonymous token and the conversion window
   * and stops asking searches for `clickAnalytics`; on creates a new anonymous token.
   */
  setConsent(consent: boolean): void {
    if (consent === this.consent) return;
    this.consent = consent;
    if (consent) {
      this.anonymousToken = anonymousUserToken(this.storage, this.options.useCookie);
    } else {
      this.anonymousToken = undefined;
      this.authenticatedToken = undefined;
      forgetAnonymousUserToken(this.storage);
      this.conversionWindow.clear();
      this.pendingViews.clear();
      this.queue.clear();
    }
    this.queue.setPaused(!consent);
    this.registerNeeds();
  }

  observe(element: Element, hit: HitRef): void {
    if (this.disposed) return;
    const previous = this.hits.get(element);
    this.hits.set(element, { ...hit });
    if (previous && previous.objectID === hit.objectID && previous.queryID === hit.queryID) return;
    if (hit.queryID && !this.queryIDSeenAt.has(hit.queryID)) this.rememberQueryID(hit.queryID);
    // Re-observing makes the observer report the element's current visibility for the new hit.
    this.observer?.unobserve(element);
    this.observer?.observe(element);
  }

  unobserve(element: Element): void {
    this.hits.delete(element);
    this.observer?.unobserve(element);
  }

  filterApplied(indexName: string, attribute: string, value: string, queryID?: string): void {
    this.send({
      eventType: 'click',
      eventName: 'Filter Applied',
      index: indexName,
      ...(queryID ? { queryID } : {}),
      filters: [`${attribute}:${value}`],
    });
  }

  convert(objectIDs: string[], eventName = 'Conversion', indexName?: string): void {
    // One event per search the objectIDs came from (queryID from the conversion window store, else from
    // a hit on this page); objectIDs with no search within the hour are converted without a queryID.
    const groups = new Map<string, { index: string; queryID?: string; objectIDs: string[] }>();
    for (const objectID of objectIDs) {
      const source = this.searchOf(objectID, indexName);
      const index = source?.indexName ?? indexName ?? this.options.store.baseIndex;
      const key = `${index}\u0000${source?.queryID ?? ''}`;
      const group = groups.get(key) ?? { index, ...(source?.queryID ? { queryID: source.queryID } : {}), objectIDs: [] };
      group.objectIDs.push(objectID);
      groups.set(key, group);
    }
    // At most 20 objectIDs an event, as for views (the hosted service's own per-event limit).
    for (const { objectIDs: ids, ...group } of groups.values()) {
      for (let i = 0; i < ids.length; i += INSIGHTS_LIMITS.objectIDsPerEvent) {
        this.send({ eventType: 'conversion', eventName, ...group, objectIDs: ids.slice(i, i + INSIGHTS_LIMITS.objectIDsPerEvent) });
      }
    }
  }

  /** Sends everything queued now; resolves when the requests were answered (or a retry is scheduled). */
  async flush(): Promise<void> {
    this.flushViews();
    await this.queue.flush();
  }

  /** Stops listening; queued events stay stored and the next instance (page load) sends them. */
  dispose(): void {
    if (this.disposed) return;
    this.flushViews();
    this.disposed = true;
    this.detach();
    this.observer?.disconnect();
    this.hits.clear();
    this.removeNeeds?.();
    this.removeNeeds = undefined;
    this.unsubscribeStore();
    if (typeof window !== 'undefined') {
      window.removeEventListener('pagehide', this.onPageHide);
      window.removeEventListener('pageshow', this.onPageShow);
      document.removeEventListener('visibilitychange', this.onVisibilityChange);
      document.removeEventListener('click', this.onClick);
      document.removeEventListener('auxclick', this.onClick);
    }
    this.queue.dispose();
  }

  private rememberQueryID(queryID: string): void {
    this.queryIDSeenAt.set(queryID, Date.now());
    if (this.queryIDSeenAt.size > MAX_REMEMBERED) forgetOldest(this.queryIDSeenAt);
  }

  private registerNeeds(): void {
    if (this.disposed) return;
    const userToken = this.userToken;
    if (!userToken) {
      this.removeNeeds?.();
      this.removeNeeds = undefined;
      return;
    }
    // While on, every search asks for a queryID and carries the user token.
    this.removeNeeds = this.options.store.registerNeeds('insights', { params: { clickAnalytics: true, userToken } });
  }

  /** The search that led to `objectID`: the conversion window store, then a hit on this page. */
  private searchOf(objectID: string, indexName?: string): { indexName: string; queryID?: string } | undefined {
    const remembered = this.conversionWindow.lookup(objectID, indexName);
    if (remembered) return remembered;
    let found: HitRef | undefined;
    for (const hit of this.hits.values()) {
      if (hit.objectID === objectID && (indexName === undefined || hit.indexName === indexName)) found = hit;
    }
    if (found?.queryID && Date.now() - (this.queryIDSeenAt.get(found.queryID) ?? Date.now()) >= INSIGHTS_LIMITS.conversionWindowMs) {
      return { indexName: found.indexName };
    }
    return found;
  }

  private onIntersection(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting || entry.intersectionRatio < 0.5) continue;
      const hit = this.hits.get(entry.target);
      if (!hit) continue;
      // Each objectID once per queryID.
      const key = `${hit.indexName}\u0000${hit.queryID ?? ''}\u0000${hit.objectID}`;
      if (this.viewed.has(key)) continue;
      this.viewed.add(key);
      if (this.viewed.size > MAX_REMEMBERED) forgetOldest(this.viewed);
      const groupKey = `${hit.indexName}\u0000${hit.queryID ?? ''}`;
      const group = this.pendingViews.get(groupKey) ?? { indexName: hit.indexName, queryID: hit.queryID, objectIDs: [] };
      group.objectIDs.push(hit.objectID);
      this.pendingViews.set(groupKey, group);
    }
    if (this.pendingViews.size && this.viewTimer === undefined) {
      this.viewTimer = setTimeout(() => this.flushViews(), this.options.viewDelayMs ?? 200);
    }
  }

  /** Turns the gathered visible hits into `Hits Viewed` events of at most 20 objectIDs. */
  private flushViews(): void {
    clearTimeout(this.viewTimer);
    this.viewTimer = undefined;
    const groups = [...this.pendingViews.values()];
    this.pendingViews = new Map();
    for (const group of groups) {
      for (let i = 0; i < group.objectIDs.length; i += INSIGHTS_LIMITS.objectIDsPerEvent) {
        this.send({
          eventType: 'view',
          eventName: 'Hits Viewed',
          index: group.indexName,
          ...(group.queryID ? { queryID: group.queryID } : {}),
          objectIDs: group.objectIDs.slice(i, i + INSIGHTS_LIMITS.objectIDsPerEvent),
        });
      }
    }
  }

  private readonly onClick = (event: MouseEvent): void => {
    if (event.type === 'auxclick' && event.button !== 1) return; // middle-click only
    // Seen by the root and then by the document: handled once.
    if (this.handledClicks.has(event)) return;
    this.handledClicks.add(event);
    let conversionName: string | undefined;
    for (const node of event.composedPath()) {
      if (!(node instanceof Element)) continue;
      if (conversionName === undefined && node.hasAttribute('data-svc-conversion')) {
        conversionName = node.getAttribute('data-svc-conversion') || 'Conversion';
      }
      const hit = this.hits.get(node);
      if (!hit) continue;
      if (conversionName !== undefined) this.convertHit(hit, conversionName);
      else this.clickHit(hit);
      return;
    }
  };

  private clickHit(hit: HitRef): void {
    if (hit.queryID) {
      this.conversionWindow.remember({
        objectID: hit.objectID,
        indexName: hit.indexName,
        queryID: hit.queryID,
        searchedAt: this.queryIDSeenAt.get(hit.queryID) ?? Date.now(),
      });
    }
    this.send({
      eventType: 'click',
      eventName: 'Hit Clicked',
      index: hit.indexName,
      ...(hit.queryID ? { queryID: hit.queryID } : {}),
      objectIDs: [hit.objectID],
      positions: [hit.position],
    });
  }

  private convertHit(hit: HitRef, eventName: string): void {
    const withinWindow = hit.queryID && Date.now() - (this.queryIDSeenAt.get(hit.queryID) ?? Date.now()) < INSIGHTS_LIMITS.conversionWindowMs;
    this.send({
      eventType: 'conversion',
      eventName,
      index: hit.indexName,
      ...(withinWindow ? { queryID: hit.queryID } : {}),
      objectIDs: [hit.objectID],
    });
  }

  /** Completes, validates and queues one event, and mirrors it as a `svc-insights` DOM event. */
  private send(partial: Omit<InsightsEvent, 'userToken'>): void {
    const userToken = this.userToken;
    if (this.disposed || !userToken) return; // no consent: nothing is sent
    const event: InsightsEvent = { ...partial, userToken, timestamp: Date.now() };
    const problem = validateEvent(event);
    if (problem) {
      console.warn(`svc-insights: event not sent (${problem})`, event);
      return;
    }
    this.queue.enqueue([event]);
    this.root?.dispatchEvent(new CustomEvent<InsightsEventDetail>('svc-insights', { detail: { event }, bubbles: true, composed: true }));
  }

  private readonly onPageHide = (): void => {
    this.flushViews();
    this.queue.flushOnUnload();
  };

  private readonly onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) this.queue.resume();
  };

  private readonly onVisibilityChange = (): void => {
    // `visibilitychange` to hidden is the last event a mobile browser reliably fires before killing a tab.
    if (document.visibilityState === 'hidden') this.onPageHide();
    else this.queue.resume();
  };
}

/**
 * Creates the Insights module of a search root.
 * @example
 * const insights = createInsights({ client, store, root: document.querySelector('svc-search')! });
 * insights.setUserToken('user-42'); // after login
 */
export function createInsights(options: InsightsOptions): Insights {
  return new Insights(options);
}
