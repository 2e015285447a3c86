/**
 * Shared setup of the embedding tests: records indexed through the real local service mounted in the test
 * server (same origin), the insights admin listing, and instruments that count what an embedding leaves
 * behind (store subscriptions and needs, document/window listeners).
 */
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SearchStore } from '../../src/store/types.js';

export const APP_ID = 'SVCLOCAL';
export const SEARCH_KEY = 'local-search-key';
const ADMIN_KEY = 'local-admin-key';

export async function admin<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { 'content-type': 'application/json', 'x-service-application-id': APP_ID, 'x-service-api-key': ADMIN_KEY },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}

export interface Product extends Record<string, unknown> {
  objectID: string;
  name: string;
  brand: string;
  price: number;
  popularity: number;
}

/** 12 Acme phones, 6 Globex phones, 4 Initech laptops. */
export function products(): Product[] {
  const out: Product[] = [];
  for (let i = 1; i <= 12; i++)
    out.push({ objectID: `acme-${i}`, name: `Acme Phone ${i}`, brand: 'Acme', price: 100 + i, popularity: 100 - i });
  for (let i = 1; i <= 6; i++)
    out.push({
      objectID: `globex-${i}`,
      name: `Globex Phone ${i}`,
      brand: 'Globex',
      price: 200 + i,
      popularity: 50 - i,
    });
  for (let i = 1; i <= 4; i++)
    out.push({
      objectID: `initech-${i}`,
      name: `Initech Laptop ${i}`,
      brand: 'Initech',
      price: 900 + i,
      popularity: 10 - i,
    });
  return out;
}

/** A fresh index with the products (unique per call: the service is shared by every test file). */
export async function indexProducts(
  prefix: string,
  records: Array<Record<string, unknown> & { objectID: string }> = products(),
): Promise<string> {
  const indexName = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin('PUT', `/1/indexes/${indexName}/settings`, {
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['searchable(brand)'],
    customRanking: ['desc(popularity)'],
  });
  await admin('POST', `/1/indexes/${indexName}/batch`, {
    requests: records.map((body) => ({ action: 'updateObject', body })),
  });
  await until(
    async () =>
      (await admin('POST', `/1/indexes/${indexName}/query`, { query: '', hitsPerPage: 0 })).nbHits === records.length,
    'records indexed',
  );
  return indexName;
}

/** Events stored by the service (insights admin listing). */
export async function storedEvents(params: {
  index?: string;
  eventType?: string;
  userToken?: string;
}): Promise<Array<Record<string, any>>> {
  const query = new URLSearchParams({ ...params, limit: '1000' } as Record<string, string>);
  const body = await admin<{ events: Array<Record<string, any>> }>('GET', `/1/_local/events?${query}`);
  return body.events;
}

/** Polls `check` every 25 ms until it holds (10 s at most: CI machines are slower than a laptop). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const start = performance.now();
  for (;;) {
    if (await check()) return;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A client for the local service of the test server. */
export function localClient() {
  return createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });
}

export interface CountedStore {
  /** The real store, with `subscribe` and `registerNeeds` counted (every other member is the store's own). */
  store: SearchStore;
  /** Subscriptions not yet unsubscribed. */
  subscribers(): number;
  /** Needs registered and not yet removed. */
  needs(): number;
}

/**
 * A real store whose subscriptions and needs are counted: what an element takes on connect it must give
 * back on disconnect, so after unmounting everything both counts return to what they were.
 */
export function countedStore(indexName: string): CountedStore {
  const real = createSearchStore({ client: localClient(), indexName });
  let subscribers = 0;
  let needs = 0;
  const store: SearchStore = Object.create(real, {
    subscribe: {
      value(listener: Parameters<SearchStore['subscribe']>[0]) {
        const unsubscribe = real.subscribe(listener);
        subscribers++;
        let done = false;
        return () => {
          if (!done) subscribers--;
          done = true;
          unsubscribe();
        };
      },
    },
    registerNeeds: {
      value(id: string, value: Parameters<SearchStore['registerNeeds']>[1]) {
        const remove = real.registerNeeds(id, value);
        needs++;
        let done = false;
        return () => {
          if (!done) needs--;
          done = true;
          remove();
        };
      },
    },
  });
  return { store, subscribers: () => subscribers, needs: () => needs };
}

/**
 * Counts listeners added to `document` and `window` and not removed (by target, type, listener and capture),
 * so a test can check that mounting and unmounting elements leaves none behind.
 */
export function countListeners(): { active(): number; restore(): void } {
  const targets = new Set<EventTarget>([document, window]);
  const active = new Set<string>();
  const ids = new WeakMap<object, number>();
  let nextId = 0;
  const key = (target: EventTarget, type: string, listener: unknown, options: unknown) => {
    const fn = listener as object;
    if (!ids.has(fn)) ids.set(fn, nextId++);
    const capture =
      typeof options === 'boolean' ? options : Boolean((options as AddEventListenerOptions | undefined)?.capture);
    return `${target === document ? 'document' : 'window'}|${type}|${ids.get(fn)}|${capture}`;
  };
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: any, options?: any) {
    if (targets.has(this) && listener && !(typeof options === 'object' && options?.once))
      active.add(key(this, type, listener, options));
    return add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, listener: any, options?: any) {
    if (targets.has(this) && listener) active.delete(key(this, type, listener, options));
    return remove.call(this, type, listener, options);
  };
  return {
    active: () => active.size,
    restore() {
      EventTarget.prototype.addEventListener = add;
      EventTarget.prototype.removeEventListener = remove;
    },
  };
}

/** Text of the hits of a `<svc-hits>` (its shadow root's list items). */
export function hitTexts(hits: Element | null | undefined): string[] {
  return [...(hits?.shadowRoot?.querySelectorAll('li[part~="item"]') ?? [])].map((li) => li.textContent?.trim() ?? '');
}

/**
 * Removes what insights keeps in `localStorage` (queue, anonymous token, conversion window): the test files
 * share one origin, so events a file left queued would otherwise be sent by the next file's insights.
 */
export function clearInsightsStorage(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith('svc-insights')) localStorage.removeItem(key);
}
