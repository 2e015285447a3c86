/**
 * Insights delivery rules in real Chromium against the local service mounted in the test server: retry
 * backoff, the keepalive fallback of a refused beacon, the conversion window's bounds, a 422 from the
 * service, the `svc-insights` mirror (queued) and its outcome events `svc-insights-sent` / `svc-insights-error`. Requests are observed where they arrive (the `/__flaky<N>/<key>/`
 * test host of web-test-runner.config.mjs logs each one) and events are read back from the service's store.
 */
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/elements/search/define.js';
import '../../src/elements/hits/define.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { InsightsEvent } from '../../src/client/types.js';
import { createSearchStore } from '../../src/store/index.js';
import { createClient } from '../../src/client/index.js';
import type { SearchClient } from '../../src/client/types.js';
import {
  createInsights,
  type Insights,
  type InsightsErrorDetail,
  type InsightsOptions,
  type InsightsSentDetail,
} from '../../src/insights/index.js';
import {
  APP_ID,
  admin,
  SEARCH_KEY,
  asSent,
  clickAt,
  eventually,
  fillIndex,
  flakyStats,
  resetInsightsStorage,
  searchClient,
  settleViews,
  sleep,
  storedEvents,
  uniqueKey,
} from './helpers.js';

const INDEX = `insights_delivery_${Date.now().toString(36)}`;
const WINDOW_KEY = 'svc-insights-conversion-window';
const QUEUE_KEY = `svc-insights-queue:${APP_ID}`;
/** A queryID as the service makes them (32 hex digits). */
const queryIDOf = (n: number) => n.toString(16).padStart(32, 'a');

/** An Insights module without elements (a product page), its `svc-insights` mirror, and cleanup. */
function bareInsights(options: Partial<InsightsOptions> & { client: InsightsOptions['client'] }) {
  const store = createSearchStore({ client: searchClient(), indexName: INDEX });
  const root = document.createElement('div');
  document.body.append(root);
  const mirrored: InsightsEvent[] = [];
  root.addEventListener('svc-insights', (e) => mirrored.push(e.detail.event));
  const insights: Insights = createInsights({ store, root, flushDelayMs: 60_000, ...options });
  const dispose = () => {
    insights.dispose();
    store.dispose();
    root.remove();
  };
  return { insights, mirrored, root, dispose };
}

async function renderSearch(): Promise<{
  search: SvcSearch;
  items: HTMLElement[];
  queryID: string;
  userToken: string;
  mirrored: InsightsEvent[];
}> {
  const wrapper = await fixture<HTMLDivElement>(html`<div>
    <style>
      svc-hits::part(item) { block-size: 150px; box-sizing: border-box; overflow: hidden; margin: 0; }
    </style>
    <svc-search .client=${searchClient()} index-name=${INDEX} .initialState=${{ hitsPerPage: 10 }}><svc-hits></svc-hits></svc-search>
  </div>`);
  const search = wrapper.querySelector('svc-search')!;
  const mirrored: InsightsEvent[] = [];
  search.addEventListener('svc-insights', (e) => mirrored.push(e.detail.event));
  const hits = search.querySelector('svc-hits')!;
  let items: HTMLElement[] = [];
  await eventually(() => {
    items = [...(hits.shadowRoot?.querySelectorAll<HTMLElement>('li[data-svc-object-id]') ?? [])];
    return items.length === 10 && items.every((li) => li.dataset.svcQueryId);
  });
  return {
    search,
    items,
    queryID: search.store!.getSnapshot().results!.queryID!,
    userToken: search.insights!.userToken!,
    mirrored,
  };
}

/** Each mirrored event stored exactly once, and nothing else stored: compared field by field, in order. */
async function expectStoredExactly(userToken: string, mirrored: InsightsEvent[]): Promise<void> {
  const stored = (await storedEvents(userToken)).map(asSent);
  expect(stored).to.deep.equal(mirrored);
}

before(async () => {
  await fillIndex(INDEX, 20);
});

beforeEach(() => {
  resetInsightsStorage();
  window.scrollTo(0, 0);
});

afterEach(async () => {
  fixtureCleanup();
  await sleep(5); // <svc-search> disposes its store and insights a task after removal
  resetInsightsStorage();
});

describe('insights delivery: retries', () => {
  it('backs off between attempts (doubling from retryBaseMs, capped at retryMaxMs) and then delivers every event once', async () => {
    // The host answers 503 to the first four requests: the first attempt and three retries fail, the fourth retry passes.
    const host = `${location.origin}/__flaky4/${uniqueKey('b')}`;
    const userToken = `backoff-${uniqueKey('t')}`;
    const base = 500;
    const max = 2000;
    const { insights, mirrored, dispose } = bareInsights({
      client: searchClient(host),
      userToken,
      retryBaseMs: base,
      retryMaxMs: max,
    });
    try {
      insights.convert(['p1'], 'Backoff A');
      insights.convert(['p2', 'p3'], 'Backoff B');
      insights.filterApplied(INDEX, 'brand', 'Acme');
      expect(mirrored).to.have.length(3);
      await insights.flush();
      await eventually(() => insights.queueSize === 0, 15_000);
      const { requests, failed, proxied, log } = await flakyStats(host);
      expect([requests, failed, proxied]).to.deep.equal([5, 4, 1], 'one request per attempt, no extra one');
      expect(insights.stats.retries).to.equal(4);
      // The waits as scheduled: the nominal delay (500, 1000, 2000, then 2000 capped; uncapped the fourth would be
      // 4000) with ±25 % jitter. Read from the sender, not from arrival times: an upper bound on elapsed time fails
      // on a loaded machine.
      const delays = insights.stats.retryDelaysMs ?? [];
      const nominal = [base, 2 * base, max, max];
      expect(delays).to.have.length(4);
      delays.forEach((delay, i) => {
        expect(delay, `retry ${i + 1} of ${JSON.stringify(delays)}`).to.be.within(
          nominal[i]! * 0.75,
          nominal[i]! * 1.25,
        );
      });
      // And the server saw each retry no earlier than its wait after the attempt before (a timer never fires early;
      // 5 ms for the two clocks' rounding).
      const gaps = log.slice(1).map((request, i) => request.at - log[i]!.at);
      gaps.forEach((gap, i) => {
        expect(gap, `gap ${i + 1} of ${JSON.stringify(gaps)}`).to.be.at.least(delays[i]! - 5);
      });
      // Nothing lost, nothing twice: the service holds exactly the three events, as mirrored.
      await expectStoredExactly(userToken, mirrored);
      expect(localStorage.getItem(QUEUE_KEY)).to.equal(null, 'the stored queue is empty once accepted');
    } finally {
      dispose();
    }
  });
});

describe('insights delivery: pagehide', () => {
  it('a beacon the browser refuses falls back to fetch(keepalive) with the credentials in the URL, and the events arrive once', async () => {
    const host = `${location.origin}/__flaky0/${uniqueKey('k')}`; // records requests, fails none
    const userToken = `keepalive-${uniqueKey('t')}`;
    const { insights, mirrored, dispose } = bareInsights({ client: searchClient(host), userToken });
    const beacons: string[] = [];
    try {
      insights.convert(['p1'], 'Left on unload');
      insights.convert(['p2'], 'Left on unload');
      insights.filterApplied(INDEX, 'brand', 'Acme');
      await sleep(0);
      expect(insights.queueSize).to.equal(3);
      // The browser's answer when its beacon queue is full: false. Only this test's page sees the replacement;
      // the fallback's request is a real one to the real service.
      navigator.sendBeacon = (url: string | URL) => {
        beacons.push(String(url));
        return false;
      };
      try {
        window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      } finally {
        delete (navigator as Partial<Navigator>).sendBeacon;
      }
      expect(navigator.sendBeacon).to.equal(Navigator.prototype.sendBeacon, 'restored');
      expect(beacons).to.have.length(1, 'the beacon was tried first');
      expect(insights.stats.beacons).to.equal(1);
      await eventually(() => insights.queueSize === 0);
      await sleep(300);
      const { log } = await flakyStats(host);
      expect(log).to.have.length(1, 'one keepalive request, nothing sent again');
      const [request] = log;
      expect(request!.method).to.equal('POST');
      expect(request!.credentialHeaders).to.equal(
        false,
        'no credential headers: a keepalive request without preflight',
      );
      expect(request!.contentType).to.match(/^text\/plain/);
      const url = new URL(request!.url, location.origin);
      expect(url.pathname).to.equal('/1/events');
      expect([...url.searchParams]).to.deep.equal([
        ['X-Service-Application-Id', APP_ID],
        ['X-Service-API-Key', SEARCH_KEY],
      ]);
      expect(new URL(beacons[0]!).search).to.equal(url.search, 'the same URL as the refused beacon');
      await expectStoredExactly(userToken, mirrored);
      expect(localStorage.getItem(QUEUE_KEY)).to.equal(null, 'nothing left for the next page load to send again');
    } finally {
      delete (navigator as Partial<Navigator>).sendBeacon;
      dispose();
    }
  });
});

describe('insights delivery: conversion window bounds', () => {
  it('keeps at most 200 objectIDs, dropping the oldest', async () => {
    const { search, items, queryID, userToken } = await renderSearch();
    const now = Date.now();
    // A full window as earlier pages left it, oldest first (ten minutes ago, well within the hour).
    const earlier = Array.from({ length: 200 }, (_, i) => ({
      objectID: `w${i}`,
      indexName: INDEX,
      queryID: queryIDOf(i),
      searchedAt: now - 600_000 + i,
    }));
    localStorage.setItem(WINDOW_KEY, JSON.stringify(earlier));
    await clickAt(items[0]!); // p0: one more entry
    const kept = JSON.parse(localStorage.getItem(WINDOW_KEY)!) as Array<{
      objectID: string;
      queryID: string;
      indexName: string;
    }>;
    expect(kept).to.have.length(200);
    expect(kept.map((e) => e.objectID)).to.deep.equal(
      [...earlier.slice(1).map((e) => e.objectID), 'p0'],
      'w0, the oldest, dropped',
    );
    expect(kept.at(-1)).to.include({ objectID: 'p0', queryID, indexName: INDEX });
    // A conversion on the product page: w0 has no search any more, w1 still has its own.
    search.insights!.convert(['w0', 'w1', 'p0'], 'Purchased');
    await search.insights!.flush();
    const conversions = await storedEvents(userToken, 'conversion');
    expect(conversions.map((e) => [e.objectIDs, e.queryID])).to.deep.equal([
      [['w0'], undefined],
      [['w1'], queryIDOf(1)],
      [['p0'], queryID],
    ]);
  });

  it('does not use an entry older than one hour (the conversion goes without queryID), and drops it at the next write', async () => {
    const now = Date.now();
    localStorage.setItem(
      WINDOW_KEY,
      JSON.stringify([
        { objectID: 'p3', indexName: INDEX, queryID: queryIDOf(3), searchedAt: now - 3_600_000 - 5_000 }, // one hour and 5 s ago
        { objectID: 'p4', indexName: INDEX, queryID: queryIDOf(4), searchedAt: now - 3_600_000 + 60_000 }, // 59 minutes ago
      ]),
    );
    const userToken = `window-${uniqueKey('t')}`;
    const { insights, root, dispose } = bareInsights({ client: searchClient(), userToken });
    try {
      insights.convert(['p3', 'p4'], 'Purchased');
      await insights.flush();
      const conversions = await storedEvents(userToken, 'conversion');
      expect(conversions.map((e) => [e.objectIDs, e.queryID])).to.deep.equal([
        [['p3'], undefined],
        [['p4'], queryIDOf(4)],
      ]);
      // A hit clicked on this page rewrites the window: the expired entry goes, the recent one stays.
      const hit = document.createElement('div');
      root.append(hit);
      insights.observe(hit, { objectID: 'p5', queryID: queryIDOf(5), position: 6, indexName: INDEX });
      hit.click();
      const kept = JSON.parse(localStorage.getItem(WINDOW_KEY)!) as Array<{ objectID: string }>;
      expect(kept.map((e) => e.objectID)).to.deep.equal(['p4', 'p5']);
    } finally {
      dispose();
    }
  });
});

describe('insights delivery: refusals and the mirror', () => {
  it('a 422 drops only the event it names, with a console warning, and sends the rest once (no retry)', async () => {
    const host = `${location.origin}/__flaky0/${uniqueKey('r')}`;
    const userToken = `refused-${uniqueKey('t')}`;
    const now = Date.now();
    const event = (name: string, timestamp: number): InsightsEvent => ({
      eventType: 'conversion',
      eventName: name,
      index: INDEX,
      userToken,
      objectIDs: ['p1'],
      timestamp,
    });
    // A queue an earlier page left five days ago (released): its middle event is now too old for the service.
    const left = [event('Fresh A', now - 1000), event('Too old', now - 5 * 86_400_000), event('Fresh B', now - 500)];
    localStorage.setItem(
      QUEUE_KEY,
      JSON.stringify({ owners: { gone: { lease: 0, entries: left.map((e, i) => ({ id: `left-${i}`, event: e })) } } }),
    );
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    const { insights, dispose } = bareInsights({ client: searchClient(host), userToken, retryBaseMs: 50 });
    try {
      expect(insights.queueSize).to.equal(3, 'adopted');
      await insights.flush();
      await sleep(500); // ten retry bases: a retry would have come
      expect(insights.queueSize).to.equal(0);
      const { log } = await flakyStats(host);
      expect(log).to.have.length(2, 'the refused request, then the rest once');
      expect(insights.stats).to.include({ requests: 2, retries: 0, eventsDropped: 1, eventsSent: 2 });
      expect(warnings.map((w) => String(w[0]))).to.deep.equal([
        'svc-insights: the service refused 1 event(s) (422): events[1].timestamp: must be at most four days old',
      ]);
      expect((await storedEvents(userToken)).map(asSent)).to.deep.equal([left[0], left[2]]);
    } finally {
      console.warn = warn;
      dispose();
    }
  });

  it('the svc-insights DOM event mirrors exactly the events sent: views, clicks, conversions, filters; an invalid event neither', async () => {
    const { search, items, userToken, mirrored } = await renderSearch();
    const insights = search.insights!;
    await settleViews();
    await clickAt(items[1]!);
    await clickAt(items[2]!, 'middle');
    insights.convert(['p1'], 'Purchased');
    insights.filterApplied(INDEX, 'brand', 'Acme', search.store!.getSnapshot().results!.queryID);
    const warn = console.warn;
    const warnings: unknown[][] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      insights.convert(['p1'], 'x'.repeat(65)); // refused before queueing: eventName over 64 characters
    } finally {
      console.warn = warn;
    }
    expect(String(warnings[0]?.[0])).to.match(/event not sent \(eventName/);
    await insights.flush();
    expect(mirrored.map((e) => e.eventType)).to.include.members(['view', 'click', 'conversion']);
    expect(mirrored.filter((e) => e.eventType === 'click')).to.have.length(3);
    expect(mirrored.some((e) => e.eventName.length > 64)).to.equal(false);
    await expectStoredExactly(userToken, mirrored);
  });
});

describe('insights delivery: the outcome events', () => {
  /** A client whose key may not send events of INDEX: the service refuses its requests (401). */
  async function refusedClient(): Promise<SearchClient> {
    const { key } = await admin.request<{ key: string }>('POST', '/1/keys', {
      acl: ['search'],
      indexes: ['elsewhere'],
    });
    return createClient({ appId: APP_ID, apiKey: key, hosts: [location.origin], cache: false });
  }

  it('svc-insights says queued; svc-insights-sent carries the events the service stored; svc-insights-error the refused ones', async () => {
    const userToken = `outcome-${uniqueKey('t')}`;
    const warn = console.warn;
    console.warn = () => undefined; // the refusal's warning is asserted by the 422 test above
    const refused = bareInsights({ client: await refusedClient(), userToken });
    const accepted = bareInsights({ client: searchClient(), userToken });
    const outcomes: Array<{ type: string; detail: InsightsSentDetail | InsightsErrorDetail }> = [];
    for (const { root } of [refused, accepted]) {
      root.addEventListener('svc-insights-sent', (e) => outcomes.push({ type: e.type, detail: e.detail }));
      root.addEventListener('svc-insights-error', (e) => outcomes.push({ type: e.type, detail: e.detail }));
    }
    try {
      refused.insights.convert(['p1'], 'Refused purchase', INDEX);
      accepted.insights.convert(['p2'], 'Stored purchase', INDEX);
      accepted.insights.convert(['p3'], 'Stored purchase', INDEX);
      // Both were announced when queued, before anything was sent.
      expect(refused.mirrored.map((e) => e.eventName)).to.deep.equal(['Refused purchase']);
      expect(accepted.mirrored.map((e) => e.eventName)).to.deep.equal(['Stored purchase', 'Stored purchase']);
      expect(outcomes).to.deep.equal([]);
      await refused.insights.flush();
      await accepted.insights.flush();

      const stored = await storedEvents(userToken);
      expect(stored.map(asSent)).to.deep.equal(accepted.mirrored);
      expect(outcomes.map((o) => o.type)).to.deep.equal(['svc-insights-error', 'svc-insights-sent']);
      const error = outcomes[0]!.detail as InsightsErrorDetail;
      expect(error.status).to.equal(401);
      expect(error.reason).to.match(/not allowed/);
      expect(error.events).to.deep.equal(refused.mirrored);
      expect(outcomes[1]!.detail).to.deep.equal({ events: stored.map(asSent), transport: 'fetch' });
    } finally {
      console.warn = warn;
      refused.dispose();
      accepted.dispose();
    }
  });

  it('a 422 announces the one refused event as an error and the others as sent', async () => {
    const userToken = `outcome-${uniqueKey('u')}`;
    const now = Date.now();
    const event = (eventName: string, timestamp: number): InsightsEvent => ({
      eventType: 'conversion',
      eventName,
      index: INDEX,
      userToken,
      objectIDs: ['p1'],
      timestamp,
    });
    const left = [event('Fresh', now - 1000), event('Too old', now - 5 * 86_400_000)];
    localStorage.setItem(
      QUEUE_KEY,
      JSON.stringify({ owners: { gone: { lease: 0, entries: left.map((e, i) => ({ id: `o-${i}`, event: e })) } } }),
    );
    const warn = console.warn;
    console.warn = () => undefined;
    const { insights, root, dispose } = bareInsights({ client: searchClient(), userToken });
    const errors: InsightsErrorDetail[] = [];
    const sent: InsightsSentDetail[] = [];
    root.addEventListener('svc-insights-error', (e) => errors.push(e.detail));
    root.addEventListener('svc-insights-sent', (e) => sent.push(e.detail));
    try {
      await insights.flush();
      expect(errors).to.have.length(1);
      expect(errors[0]).to.deep.include({ status: 422, events: [left[1]] });
      expect(errors[0]!.reason).to.match(/^events\[1\]\.timestamp/);
      expect(sent).to.deep.equal([{ events: [left[0]], transport: 'fetch' }]);
    } finally {
      console.warn = warn;
      dispose();
    }
  });
});
