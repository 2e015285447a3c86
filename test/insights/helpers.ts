/**
 * Shared setup of the Insights browser tests: an index filled through the API of the real service
 * mounted in the test server, and read-back of stored events through the service's own
 * `GET /1/_local/events` (admin key).
 */
import { sendMouse } from '@web/test-runner-commands';
import { createClient } from '../../src/client/index.js';
import type { InsightsEvent, SearchClient } from '../../src/client/types.js';

export const APP_ID = 'SVCLOCAL';
export const SEARCH_KEY = 'local-search-key';
const ADMIN_KEY = 'local-admin-key';

export const admin = createClient({ appId: APP_ID, apiKey: ADMIN_KEY, hosts: [location.origin], cache: false });

/** A search client; `insightsHost` lets a test route `/1/events` through the flaky test host. */
export function searchClient(insightsHost?: string): SearchClient {
  return createClient({
    appId: APP_ID,
    apiKey: SEARCH_KEY,
    hosts: [location.origin],
    cache: false,
    ...(insightsHost ? { insightsHost } : {}),
  });
}

async function waitTask(indexName: string, taskID: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const task = await admin.request<{ status: string }>(
      'GET',
      `/1/indexes/${encodeURIComponent(indexName)}/task/${taskID}`,
    );
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskID} of ${indexName} not published`);
}

/**
 * Creates `indexName` with `count` records `p0…p{count-1}` ("lamp model i"), ranked in that order.
 * @example await fillIndex('insights_test', 40)
 */
export async function fillIndex(indexName: string, count: number): Promise<void> {
  const settings = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/settings`, {
    searchableAttributes: ['name'],
    customRanking: ['asc(rank)'],
  });
  await waitTask(indexName, settings.taskID);
  const records = Array.from({ length: count }, (_, i) => ({ objectID: `p${i}`, name: `lamp model ${i}`, rank: i }));
  const batch = await admin.request<{ taskID: number }>('POST', `/1/indexes/${indexName}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(indexName, batch.taskID);
}

export interface StoredEventJson extends InsightsEvent {
  id: number;
  timestamp: number;
  search?: { indexName: string; query: string; at: number; positions: Array<number | null>; withinWindow: boolean };
}

/** The events the service stored for `userToken`, oldest first. */
export async function storedEvents(userToken: string, eventType?: string): Promise<StoredEventJson[]> {
  const params = new URLSearchParams({ userToken, limit: '10000' });
  if (eventType) params.set('eventType', eventType);
  const answer = await admin.request<{ events: StoredEventJson[] }>('GET', `/1/_local/events?${params}`);
  return answer.events;
}

/** Every event the service stored for `index` (any user token), oldest first: proves that nothing was sent. */
export async function storedEventsOfIndex(index: string): Promise<StoredEventJson[]> {
  const params = new URLSearchParams({ index, limit: '10000' });
  const answer = await admin.request<{ events: StoredEventJson[] }>('GET', `/1/_local/events?${params}`);
  return answer.events;
}

/** The anonymous token cookie (`_svc_insights_token`), decoded, or undefined. */
export function tokenCookie(): string | undefined {
  const value = /(?:^|; )_svc_insights_token=([^;]*)/.exec(document.cookie)?.[1];
  return value === undefined ? undefined : decodeURIComponent(value);
}

export function clearTokenCookie(): void {
  document.cookie = '_svc_insights_token=; path=/; max-age=0';
}

/** Polls until `check` returns true (the service receives beacons on its own schedule). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 8000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two animation frames: IntersectionObserver callbacks run after a frame's layout. */
export function frames(n = 2): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(n);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Fraction of `element` inside the viewport. */
export function visibleRatio(element: Element): number {
  const rect = element.getBoundingClientRect();
  const height = Math.max(0, Math.min(rect.bottom, innerHeight) - Math.max(rect.top, 0));
  const width = Math.max(0, Math.min(rect.right, innerWidth) - Math.max(rect.left, 0));
  return rect.width * rect.height === 0 ? 0 : (height * width) / (rect.width * rect.height);
}

/** The events sent so far (the cleaned local storage holds no token, queue or window of earlier tests). */
export function resetInsightsStorage(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith('svc-insights')) localStorage.removeItem(key);
}

/** A real mouse click (Chromium input, not `element.click()`) inside `element`, scrolled into view first. */
export async function clickAt(element: Element, button: 'left' | 'middle' = 'left'): Promise<void> {
  element.scrollIntoView({ block: 'center' });
  await frames();
  const rect = element.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(rect.left + Math.min(20, rect.width / 2)), Math.round(rect.top + rect.height / 2)],
    button,
  });
}

/** Lets the IntersectionObserver report and the view batch (200 ms) close. */
export async function settleViews(): Promise<void> {
  await frames(3);
  await sleep(300);
}

/** One request as the `/__flaky<N>/<key>/` test host saw it arrive (see web-test-runner.config.mjs). */
export interface FlakyRequest {
  /** Server time of arrival (ms). */
  at: number;
  method: string;
  /** Path and query after the `/__flaky<N>/<key>` prefix. */
  url: string;
  contentType?: string;
  /** Whether the `X-Service-API-Key` header came (keepalive and beacon requests carry the credentials in the URL). */
  credentialHeaders: boolean;
}

/** What the `/__flaky<N>/<key>/` test host did: requests, failed (503), proxied, and each request's arrival. */
export async function flakyStats(
  prefix: string,
): Promise<{ requests: number; failed: number; proxied: number; log: FlakyRequest[] }> {
  return (await fetch(`${prefix}/_stats`)).json();
}

/** A key of the flaky test host that no other test uses. */
export const uniqueKey = (tag: string) => `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** The fields of the event table of a stored event (without the service's id, time of receipt and search). */
export function asSent({ id, receivedAt, search, ...event }: StoredEventJson & { receivedAt?: number }): InsightsEvent {
  return event;
}
