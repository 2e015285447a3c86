/**
 * The automatic events: views of the observed hits (at least half visible, each objectID once per queryID,
 * gathered into `Hits Viewed` events of ≤ 20 objectIDs), clicks on them (`Hit Clicked` with the absolute
 * position), `data-svc-conversion` conversions, and the queryID a later conversion is attributed to.
 */
import type { InsightsEvent } from '../protocol/types.js';
import { INSIGHTS_LIMITS } from '../protocol/insights-limits.js';
import { type ClickTarget, clickTarget, countsAsClick } from './click-target.js';
import { type Source, rememberClick, windowEntries } from './conversion-window.js';
import type { KeptValues } from './storage.js';
import type { HitRef } from './types.js';

/** objectIDs per `Hits Viewed` or conversion event (the browser's own batching rule, as InstantSearch does). */
export const OBJECT_IDS_PER_EVENT = 20;
/** How many viewed (queryID, objectID) pairs and queryID times a long session keeps in memory. */
const MAX_REMEMBERED = 5000;

export type EventFields = Omit<InsightsEvent, 'userToken' | 'eventType' | 'eventName' | 'index' | 'timestamp'>;
/** Completes, validates and queues one event (the Insights module's `send`). */
export type Send = (
  eventType: InsightsEvent['eventType'],
  eventName: string,
  index: string,
  queryID: string | undefined | false,
  fields: EventFields,
  timestamp?: number,
) => void;

/** Drops the oldest tenth of a Set or Map (both iterate in insertion order) once it holds too much. */
function bound(collection: Set<string> | Map<string, unknown>) {
  if (collection.size <= MAX_REMEMBERED) return;
  for (const key of [...collection.keys()].slice(0, MAX_REMEMBERED / 10)) collection.delete(key);
}

/**
 * One event per 20 objectIDs (the hosted service's own per-event limit, as InstantSearch does).
 *
 * @example
 * chunked(ids, (chunk) => send('conversion', 'Purchased', index, queryID, { objectIDs: chunk }));
 */
export function chunked(objectIDs: string[], each: (ids: string[]) => void): void {
  for (let i = 0; i < objectIDs.length; i += OBJECT_IDS_PER_EVENT) each(objectIDs.slice(i, i + OBJECT_IDS_PER_EVENT));
}

export interface AutomaticEvents {
  observe(element: Element, hit: HitRef): void;
  unobserve(element: Element): void;
  /** The `click` / `auxclick` listener of the root and the document. */
  onClick(event: MouseEvent): void;
  /** A click on a hit, as seen at `at` (also a click recorded before the module loaded). */
  click(target: ClickTarget, at?: number): void;
  /** Turns the gathered visible hits into `Hits Viewed` events now. */
  flushViews(): void;
  /** Notes when an answer's queryID was seen (the conversion window runs one hour from it). */
  remember(queryID: string | undefined): void;
  /** The search that led to `objectID`: the conversion window store, then a hit on this page. */
  searchOf(objectID: string, indexName?: string): Source | undefined;
  /** Forgets the pending views (consent withdrawn). */
  forgetViews(): void;
  dispose(): void;
}

/**
 * The automatic events of one Insights instance; `consent()` says whether anything may be sent or remembered.
 *
 * @example
 * const automatic = createAutomaticEvents(kept, send, () => true, 200);
 * automatic.observe(li, { objectID: '42', queryID, position: 3, indexName: 'products' });
 */
export function createAutomaticEvents(
  kept: KeptValues,
  send: Send,
  consent: () => boolean,
  viewDelayMs: number,
): AutomaticEvents {
  const hits = new Map<Element, HitRef>();
  const viewed = new Set<string>();
  const handledClicks = new WeakSet<Event>();
  /** When each queryID was answered: the conversion window runs one hour from the search. */
  const seenAt = new Map<string, number>();
  let pendingViews = new Map<string, HitRef[]>();
  let viewTimer: ReturnType<typeof setTimeout> | undefined;

  const withinWindow = (queryID: string) =>
    Date.now() - (seenAt.get(queryID) ?? Date.now()) < INSIGHTS_LIMITS.conversionWindowMs;

  function remember(queryID: string | undefined) {
    if (!queryID || seenAt.has(queryID)) return;
    seenAt.set(queryID, Date.now());
    bound(seenAt);
  }

  function flushViews() {
    clearTimeout(viewTimer);
    viewTimer = undefined;
    for (const group of pendingViews.values()) {
      const { indexName, queryID } = group[0]!;
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

  function click({ hit, conversion }: ClickTarget, at = Date.now()) {
    const { objectID, queryID, indexName } = hit;
    if (conversion !== undefined) {
      const attributed = queryID && withinWindow(queryID) ? queryID : undefined;
      send('conversion', conversion, indexName, attributed, { objectIDs: [objectID] }, at);
      return;
    }
    if (queryID) rememberClick(kept, { objectID, indexName, queryID, searchedAt: seenAt.get(queryID) ?? at });
    send('click', 'Hit Clicked', indexName, queryID, { objectIDs: [objectID], positions: [hit.position] }, at);
  }

  return {
    observe(element, hit) {
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
    onClick(event) {
      // Seen by the root and then by the document: handled once. Without consent nothing is sent nor remembered
      // (hits rendered before a withdrawal still carry a queryID).
      if (!consent() || !countsAsClick(event) || handledClicks.has(event)) return;
      handledClicks.add(event);
      const target = clickTarget(event.composedPath(), hits);
      if (target) click(target);
    },
    click,
    flushViews,
    remember,
    searchOf(objectID, indexName) {
      const same = (source: Source) =>
        source.objectID === objectID && (indexName === undefined || source.indexName === indexName);
      const found: Source | undefined = windowEntries(kept).findLast(same) ?? [...hits.values()].findLast(same);
      // A hit on this page whose search is older than the window: converted without its queryID.
      if (found?.queryID && !withinWindow(found.queryID) && !found.searchedAt) return { indexName: found.indexName };
      return found;
    },
    forgetViews() {
      pendingViews.clear();
    },
    dispose() {
      flushViews();
      observer?.disconnect();
      hits.clear();
    },
  };
}
