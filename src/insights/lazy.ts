/**
 * A stand-in for the Insights module while it loads: `<svc-search>` creates it instead of the module, so the
 * first results wait for none of Insights but what their search needs (consent and the user token: the first
 * search already asks for a queryID and carries the token). The module (queue, sender, views, validation) loads
 * after the first results are painted, or at once when a click, `flush()` or an explicit event asks for it;
 * everything reported meanwhile is handed to it: the observed hits, each click with the hit, queryID and position
 * it had when it happened (and its time), `filterApplied` and `convert` calls, consent and token changes.
 *
 * A page left (or a stand-in disposed) before the module loaded writes its clicks and filters to the stored queue
 * as events, released, and each click's conversion-window entry: the next page load sends them.
 */
import type { InsightsEvent } from '../client/types.js';
import { fail } from '../client/errors.js';
import { isValidUserToken } from '../protocol/user-token.js';
import { type ClickTarget, clickTarget, countsAsClick } from './click-target.js';
import { rememberClick } from './conversion-window.js';
import { forgetKept } from './forget.js';
import { keptValues, randomId } from './storage.js';
import { QUEUE_KEY_PREFIX, type QueueEntry, storeReleased } from './stored-queue.js';
import { anonymousToken, insightsNeeds } from './token.js';
import type { HitRef, Insights, InsightsOptions, QueueStats } from './types.js';

/** What the stand-in needs of the Insights module (`svc-search/insights`). */
export interface InsightsModule {
  createInsights(options: InsightsOptions): Insights;
  replayClick(insights: Insights, target: ClickTarget, at: number): void;
}

/** A call made before the module loaded, replayed in order once it has. */
type Pending =
  | { kind: 'click'; target: ClickTarget; at: number }
  | { kind: 'filter'; args: [indexName: string, attribute: string, value: string, queryID?: string]; at: number }
  | { kind: 'convert'; args: [objectIDs: string[], eventName?: string, indexName?: string] };

const inBrowser = typeof document === 'object';

/** Runs `then` after the next frame is painted (a timer where there are no frames). */
function afterPaint(then: () => void): void {
  if (inBrowser && typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
    requestAnimationFrame(() => setTimeout(then));
  else setTimeout(then);
}

/**
 * An `Insights` that loads the module with `load()` after the store's first results (or at the first click,
 * `flush()`, `filterApplied` or `convert`) and hands it what happened meanwhile.
 *
 * @example
 * const insights = createLazyInsights({ client, store, root: this }, () => import('svc-search/insights'));
 */
export function createLazyInsights(options: InsightsOptions, load: () => Promise<InsightsModule>): Insights {
  const { client, store, useCookie } = options;
  const kept = keptValues(options.storage);
  const stats: QueueStats = { requests: 0, beacons: 0, eventsSent: 0, eventsDropped: 0, retries: 0 };
  const observed = new Map<Element, HitRef>();
  const handledClicks = new WeakSet<Event>();
  let pending: Pending[] = [];
  let consent = options.consent ?? true;
  let authenticated: string | undefined;
  let anonymous: string | undefined;
  let root = options.root;
  let removeNeeds: (() => void) | undefined;
  let real: Insights | undefined;
  let loading: Promise<Insights> | undefined;
  let disposed = false;

  const userToken = () => (consent ? (authenticated ?? anonymous) : undefined);

  function registerNeeds() {
    const token = userToken();
    removeNeeds?.();
    removeNeeds = token ? store.registerNeeds('insights', insightsNeeds(token)) : undefined;
  }

  function onClick(event: MouseEvent) {
    if (!consent || !countsAsClick(event) || handledClicks.has(event)) return;
    handledClicks.add(event);
    const target = clickTarget(event.composedPath(), observed);
    if (!target) return;
    pending.push({ kind: 'click', target: { ...target, hit: { ...target.hit } }, at: Date.now() });
    void start();
  }

  function listenForClicks(on: boolean) {
    const targets: Array<EventTarget | undefined> = [root, inBrowser ? document : undefined];
    for (const target of targets) {
      for (const type of ['click', 'auxclick']) {
        if (on) target?.addEventListener(type, onClick as EventListener);
        else target?.removeEventListener(type, onClick as EventListener);
      }
    }
  }

  /** The clicks and filters not handed to the module yet, as stored events (and the clicks' window entries). */
  function handOff() {
    const token = userToken();
    if (!token) return;
    const entries: Array<QueueEntry<InsightsEvent>> = [];
    for (const call of pending) {
      if (call.kind === 'click') {
        const { hit, conversion } = call.target;
        const { objectID, queryID, indexName: index, position } = hit;
        const event: InsightsEvent = {
          eventType: conversion === undefined ? 'click' : 'conversion',
          eventName: conversion ?? 'Hit Clicked',
          index,
          objectIDs: [objectID],
          userToken: token,
          timestamp: call.at,
        };
        if (queryID) event.queryID = queryID;
        if (conversion === undefined) event.positions = [position];
        entries.push({ id: randomId(), event });
        if (queryID && conversion === undefined)
          rememberClick(kept, { objectID, indexName: index, queryID, searchedAt: call.at });
      } else if (call.kind === 'filter') {
        const [index, attribute, value, queryID] = call.args;
        const event: InsightsEvent = {
          eventType: 'click',
          eventName: 'Filter Applied',
          index,
          filters: [`${attribute}:${value}`],
          userToken: token,
          timestamp: call.at,
        };
        if (queryID) event.queryID = queryID;
        entries.push({ id: randomId(), event });
      }
    }
    storeReleased(kept, QUEUE_KEY_PREFIX + client.appId, entries);
    pending = [];
  }

  function stop() {
    listenForClicks(false);
    unsubscribe();
    if (inBrowser) removeEventListener('pagehide', onPageHide);
  }

  const onPageHide = () => {
    if (!real) handOff();
  };

  /** Loads the module (once) and hands it everything. */
  function start(): Promise<Insights> {
    loading ??= load().then((module) => {
      if (disposed) throw new DOMException('The Insights stand-in was disposed.', 'AbortError');
      stop();
      const insights = module.createInsights({ ...options, root, consent, userToken: authenticated });
      // The module registered its own needs under the same id; taking ours back leaves its own in place.
      removeNeeds?.();
      removeNeeds = undefined;
      for (const [element, hit] of observed) insights.observe(element, hit);
      for (const call of pending) {
        if (call.kind === 'click') module.replayClick(insights, call.target, call.at);
        else if (call.kind === 'filter') insights.filterApplied(...call.args);
        else insights.convert(...call.args);
      }
      pending = [];
      observed.clear();
      real = insights;
      return insights;
    });
    return loading;
  }

  // The first results (or a failed search) on screen: load the module once they are painted.
  let waiting = true;
  const unsubscribe = store.subscribe((snapshot) => {
    if (!waiting || (!snapshot.results && snapshot.status !== 'error')) return;
    waiting = false;
    afterPaint(() => {
      if (!disposed) start().catch(() => undefined);
    });
  });

  const insights: Insights = {
    get userToken() {
      return real ? real.userToken : userToken();
    },
    get stats() {
      return real?.stats ?? stats;
    },
    get queueSize() {
      return real ? real.queueSize : pending.length;
    },
    attach(element) {
      if (real) return real.attach(element);
      listenForClicks(false);
      root = element;
      listenForClicks(true);
    },
    detach() {
      if (real) return real.detach();
      listenForClicks(false);
      root = undefined;
      listenForClicks(true);
    },
    setUserToken(token) {
      if (real) return real.setUserToken(token);
      if (token !== undefined && !isValidUserToken(token))
        fail(`insights: invalid userToken ${JSON.stringify(token)}, expected [a-zA-Z0-9_-=/+]{1,128}`);
      authenticated = token;
      if (removeNeeds) registerNeeds();
    },
    setConsent(value) {
      if (real) return real.setConsent(value);
      if (value === consent) return;
      consent = value;
      anonymous = value ? anonymousToken(kept, useCookie) : undefined;
      if (!value) {
        forgetKept(kept, client.appId);
        pending = [];
      }
      registerNeeds();
    },
    observe(element, hit) {
      if (real) real.observe(element, hit);
      else if (!disposed) observed.set(element, { ...hit });
    },
    unobserve(element) {
      if (real) real.unobserve(element);
      else observed.delete(element);
    },
    filterApplied(...args) {
      if (real) return real.filterApplied(...args);
      if (!userToken() || disposed) return;
      pending.push({ kind: 'filter', args, at: Date.now() });
      void start().catch(() => undefined);
    },
    convert(...args) {
      if (real) return real.convert(...args);
      if (!userToken() || disposed) return;
      pending.push({ kind: 'convert', args });
      void start().catch(() => undefined);
    },
    async flush() {
      if (disposed && !real) return;
      await (await start()).flush();
    },
    dispose() {
      if (real) return real.dispose();
      if (disposed) return;
      disposed = true;
      stop();
      handOff();
      removeNeeds?.();
    },
  };

  if (options.userToken !== undefined) insights.setUserToken(options.userToken);
  if (consent) anonymous = anonymousToken(kept, useCookie);
  else forgetKept(kept, client.appId);
  registerNeeds();
  // Clicks on the painted hits (src/prepaint): those made before this stand-in, then each as it happens, until the
  // module (given the same source) takes them itself.
  options.paintedClicks?.(({ hit, conversion, at }) => {
    if (!consent || disposed) return;
    pending.push({ kind: 'click', target: { hit: { ...hit }, conversion }, at });
    void start().catch(() => undefined);
  });
  listenForClicks(true);
  if (inBrowser) addEventListener('pagehide', onPageHide);
  return insights;
}
