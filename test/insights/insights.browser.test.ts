/**
 * Insights end to end in real Chromium: real `<svc-search>` + `<svc-hits>` on real searches of the local
 * service mounted in the test server; what was sent is read back from the service's own store
 * (`GET /1/_local/events`), never from the module's memory.
 */
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/elements/search/define.js';
import '../../src/elements/hits/define.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { InsightsEvent, SearchClient } from '../../src/client/types.js';
import { createSearchStore } from '../../src/store/index.js';
import { createInsights } from '../../src/insights/index.js';
import {
  clickAt as click,
  settleViews,
  clearTokenCookie,
  eventually,
  fillIndex,
  resetInsightsStorage,
  searchClient,
  sleep,
  storedEvents,
  tokenCookie,
  visibleRatio,
  type StoredEventJson,
} from './helpers.js';

const INDEX = `insights_browser_${Date.now().toString(36)}`;

interface Rendered {
  search: SvcSearch;
  items: HTMLElement[];
  queryID: string;
  userToken: string;
  /** Every event the module queued, as mirrored by the `svc-insights` DOM event. */
  mirrored: InsightsEvent[];
}

async function renderSearch(
  options: {
    page?: number;
    hitsPerPage?: number;
    itemHeight?: number;
    client?: SearchClient;
    withConversionButton?: boolean;
  } = {},
): Promise<Rendered> {
  const {
    page = 0,
    hitsPerPage = 10,
    itemHeight = 150,
    client = searchClient(),
    withConversionButton = false,
  } = options;
  const wrapper = await fixture<HTMLDivElement>(html`<div>
    <style>
      svc-hits { --svc-hits-gap: 0px; }
      svc-hits::part(item) { block-size: ${itemHeight}px; box-sizing: border-box; overflow: hidden; margin: 0; padding: 0; }
    </style>
    <svc-search .client=${client} index-name=${INDEX} .initialState=${{ page, hitsPerPage }}>
      <svc-hits>
        ${
          withConversionButton
            ? html`<template><span data-text="name"></span> <button data-svc-conversion="Added to cart">Add to cart</button></template>`
            : ''
        }
      </svc-hits>
    </svc-search>
  </div>`);
  const search = wrapper.querySelector('svc-search')!;
  const mirrored: InsightsEvent[] = [];
  search.addEventListener('svc-insights', (e) => mirrored.push(e.detail.event));
  const hits = search.querySelector('svc-hits')!;
  let items: HTMLElement[] = [];
  await eventually(() => {
    items = [...(hits.shadowRoot?.querySelectorAll<HTMLElement>('li[data-svc-object-id]') ?? [])];
    return items.length === hitsPerPage && items.every((li) => li.dataset.svcQueryId);
  });
  const queryID = search.store!.getSnapshot().results!.queryID!;
  expect(queryID).to.be.a('string');
  return { search, items, queryID, userToken: search.insights!.userToken!, mirrored };
}

const objectIDsOf = (events: Array<{ objectIDs?: string[] }>) => events.flatMap((e) => e.objectIDs ?? []);
const sameEvent = (a: InsightsEvent, b: StoredEventJson) =>
  a.eventType === b.eventType &&
  a.eventName === b.eventName &&
  a.timestamp === b.timestamp &&
  JSON.stringify(a.objectIDs) === JSON.stringify(b.objectIDs) &&
  a.queryID === b.queryID;

before(async () => {
  await fillIndex(INDEX, 40);
});

beforeEach(() => {
  resetInsightsStorage();
  window.scrollTo(0, 0);
});

afterEach(async () => {
  fixtureCleanup();
  await sleep(5); // <svc-search> disposes its store and insights a task after removal
  window.scrollTo(0, 0);
});

describe('insights: views', () => {
  it('sends Hits Viewed only for hits at least half visible, once per objectID per queryID', async () => {
    const { search, items, queryID, userToken } = await renderSearch({ itemHeight: 150 });
    const insights = search.insights!;
    const viewedAt = (set: Set<string>) =>
      items
        .filter((li) => visibleRatio(li) >= 0.5)
        .forEach((li) => {
          set.add(li.dataset.svcObjectId!);
        });

    await settleViews();
    await insights.flush();
    const expected = new Set<string>();
    viewedAt(expected);
    expect(expected.size).to.be.within(1, 9, 'some hits are visible, some are not');
    let views = await storedEvents(userToken, 'view');
    expect(objectIDsOf(views).sort()).to.deep.equal([...expected].sort());
    expect(views.every((e) => e.eventName === 'Hits Viewed' && e.queryID === queryID && e.index === INDEX)).to.equal(
      true,
    );

    // Scrolling shows more hits: only those are added.
    window.scrollTo(0, 500);
    await settleViews();
    await insights.flush();
    viewedAt(expected);
    views = await storedEvents(userToken, 'view');
    const after = objectIDsOf(views);
    expect(after.sort()).to.deep.equal([...expected].sort());
    expect(new Set(after).size).to.equal(after.length, 'no objectID twice for one queryID');
    expect(expected.size).to.be.below(10, 'the hits never scrolled into view are not counted');

    // Back to the top: everything there was already viewed for this queryID.
    window.scrollTo(0, 0);
    await settleViews();
    await insights.flush();
    expect((await storedEvents(userToken, 'view')).length).to.equal(views.length);

    // A new search gives a new queryID: the visible hits count again.
    search.store!.setQuery('lamp');
    await eventually(() => {
      const id = search.store!.getSnapshot().results?.queryID;
      return !!id && id !== queryID && items.every((li) => !li.isConnected || li.dataset.svcQueryId === id);
    });
    const secondQueryID = search.store!.getSnapshot().results!.queryID!;
    await settleViews();
    await insights.flush();
    const secondViews = (await storedEvents(userToken, 'view')).filter((e) => e.queryID === secondQueryID);
    const visibleNow = new Set<string>();
    const hits = search.querySelector('svc-hits')!.shadowRoot!;
    hits.querySelectorAll<HTMLElement>('li[data-svc-object-id]').forEach((li) => {
      if (visibleRatio(li) >= 0.5) visibleNow.add(li.dataset.svcObjectId!);
    });
    expect(objectIDsOf(secondViews).sort()).to.deep.equal([...visibleNow].sort());
  });

  it('puts at most 20 objectIDs in one Hits Viewed event', async () => {
    const { search, items, userToken, queryID } = await renderSearch({ hitsPerPage: 40, itemHeight: 10 });
    await settleViews();
    await search.insights!.flush();
    const visible = items.filter((li) => visibleRatio(li) >= 0.5).map((li) => li.dataset.svcObjectId!);
    expect(visible.length).to.be.above(20, 'the page shows more than 20 hits at once');
    const views = await storedEvents(userToken, 'view');
    expect(objectIDsOf(views).sort()).to.deep.equal(visible.sort());
    expect(views.map((e) => e.objectIDs!.length)).to.deep.equal(
      [20, visible.length - 20].filter(Boolean).slice(0, Math.ceil(visible.length / 20)),
    );
    expect(views.every((e) => e.queryID === queryID)).to.equal(true);
    expect(search.insights!.stats.requests).to.equal(1, 'one request per flush, not one per event');
  });
});

describe('insights: clicks and conversions', () => {
  it('a click on the third hit of page 2 with 10 per page sends position 13 and the queryID', async () => {
    const { search, items, queryID, userToken, mirrored } = await renderSearch({ page: 1, hitsPerPage: 10 });
    expect(items[2]!.dataset.svcObjectId).to.equal('p12');
    await click(items[2]!.querySelector('svc-highlight, span, mark') ?? items[2]!); // a click anywhere inside the hit
    await click(items[4]!, 'middle');
    await search.insights!.flush();
    const clicks = await storedEvents(userToken, 'click');
    expect(clicks.map((e) => [e.eventName, e.index, e.queryID, e.objectIDs, e.positions])).to.deep.equal([
      ['Hit Clicked', INDEX, queryID, ['p12'], [13]],
      ['Hit Clicked', INDEX, queryID, ['p14'], [15]],
    ]);
    // The service's own record of the search agrees on the position.
    expect(clicks[0]!.search?.positions).to.deep.equal([13]);
    expect(clicks[0]!.search?.query).to.equal('');
    expect(mirrored.filter((e) => e.eventType === 'click')).to.have.length(2);
  });

  it('clicks on hits placed outside the root (search="id") are sent once', async () => {
    const id = `root-${Date.now().toString(36)}`;
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-search id=${id} .client=${searchClient()} index-name=${INDEX} .initialState=${{ hitsPerPage: 10 }}></svc-search>
      <section><svc-hits search=${id}></svc-hits></section>
    </div>`);
    const search = wrapper.querySelector('svc-search')!;
    const hits = wrapper.querySelector('svc-hits')!;
    let items: HTMLElement[] = [];
    await eventually(() => {
      items = [...(hits.shadowRoot?.querySelectorAll<HTMLElement>('li[data-svc-object-id]') ?? [])];
      return items.length === 10 && items.every((li) => li.dataset.svcQueryId);
    });
    await click(items[5]!);
    await search.insights!.flush();
    const clicks = await storedEvents(search.insights!.userToken!, 'click');
    expect(clicks.map((e) => [e.objectIDs, e.positions, e.queryID])).to.deep.equal([
      [['p5'], [6], items[5]!.dataset.svcQueryId],
    ]);
  });

  it('an element naming its root (search="id") is in the root\'s first search: one request, no second answer', async () => {
    // A second search replaced the hits (and their queryID) between reading them and clicking them: the needs of
    // an element joined with `search="id"` were registered at its first update, after the root's first search.
    const id = `root-${Date.now().toString(36)}`;
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-search id=${id} .client=${searchClient()} index-name=${INDEX} .initialState=${{ hitsPerPage: 10 }}></svc-search>
      <section><svc-hits search=${id}></svc-hits></section>
    </div>`);
    const search = wrapper.querySelector('svc-search')!;
    const hits = wrapper.querySelector('svc-hits')!;
    await eventually(() => hits.shadowRoot?.querySelectorAll('li[data-svc-object-id]').length === 10);
    await sleep(300);
    const searches = search.store!.requestLog.filter((entry) => entry.kind === 'search');
    expect(searches).to.have.length(1);
    const { params } = (searches[0]!.body as { requests: Array<{ params: Record<string, unknown> }> }).requests[0]!;
    expect(params.clickAnalytics, 'Insights asked for a queryID').to.equal(true);
    expect(params.highlightPreTag, 'the hits asked for their highlight tags').to.be.a('string');
  });

  it('data-svc-conversion inside a hit sends a conversion for that hit (not a click)', async () => {
    const { search, items, queryID, userToken } = await renderSearch({ withConversionButton: true });
    await click(items[3]!.querySelector('button')!);
    await search.insights!.flush();
    const conversions = await storedEvents(userToken, 'conversion');
    expect(conversions.map((e) => [e.eventName, e.queryID, e.objectIDs, e.positions])).to.deep.equal([
      ['Added to cart', queryID, ['p3'], undefined],
    ]);
    expect(await storedEvents(userToken, 'click')).to.have.length(0);
  });

  it('a conversion on a second page load carries the queryID of the search that led there', async () => {
    const first = await renderSearch();
    await click(first.items[1]!);
    await first.search.insights!.flush();
    fixtureCleanup(); // leave the search page
    await sleep(5);

    // The product page: a new module (new store, new client) over the same local storage.
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    const insights = createInsights({ client, store, flushDelayMs: 10 });
    try {
      expect(insights.userToken).to.equal(first.userToken, 'the anonymous token is kept');
      insights.convert(['p1', 'p33'], 'Purchased');
      await insights.flush();
      const conversions = await storedEvents(first.userToken, 'conversion');
      expect(conversions.map((e) => [e.eventName, e.queryID, e.objectIDs])).to.deep.equal([
        ['Purchased', first.queryID, ['p1']],
        ['Purchased', undefined, ['p33']],
      ]);
      expect(conversions[0]!.search?.withinWindow).to.equal(true);
    } finally {
      insights.dispose();
      store.dispose();
    }
  });

  it('convert() sends one event per originating search, at most 20 objectIDs each', async () => {
    const { search, items, queryID, userToken } = await renderSearch();
    await click(items[0]!); // p0 now carries the search's queryID in the conversion window
    const cart = ['p0', ...Array.from({ length: 24 }, (_, i) => `other-${i}`)];
    search.insights!.convert(cart, 'Checkout');
    await search.insights!.flush();
    const conversions = await storedEvents(userToken, 'conversion');
    expect(conversions.map((e) => [e.queryID, e.objectIDs!.length])).to.deep.equal([
      [queryID, 1],
      [undefined, 20],
      [undefined, 4],
    ]);
    expect(objectIDsOf(conversions)).to.deep.equal(cart);
  });

  it('Filter Applied carries filters ["attr:value"]', async () => {
    const { search, queryID, userToken } = await renderSearch();
    search.insights!.filterApplied(INDEX, 'brand', 'Acme', queryID);
    await search.insights!.flush();
    const clicks = await storedEvents(userToken, 'click');
    expect(clicks.map((e) => [e.eventName, e.filters, e.objectIDs, e.queryID])).to.deep.equal([
      ['Filter Applied', ['brand:Acme'], undefined, queryID],
    ]);
  });
});

describe('insights: delivery', () => {
  it('a page unload mid-queue loses nothing (sendBeacon on pagehide)', async () => {
    const { search, items, userToken, mirrored } = await renderSearch();
    const insights = search.insights!;
    await click(items[0]!);
    await click(items[1]!);
    await click(items[2]!, 'middle');
    expect(insights.queueSize).to.be.greaterThan(0, 'events are still queued');
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(insights.queueSize).to.equal(0, 'everything was handed to the beacon');
    expect(insights.stats.requests).to.equal(0);
    expect(insights.stats.beacons).to.be.greaterThan(0);
    expect(mirrored.filter((e) => e.eventType === 'click')).to.have.length(3);
    await eventually(async () => (await storedEvents(userToken)).length >= mirrored.length);
    await sleep(1500); // past the flush delay: nothing is sent a second time
    const stored = await storedEvents(userToken);
    expect(stored).to.have.length(mirrored.length);
    for (const event of mirrored)
      expect(
        stored.filter((s) => sameEvent(event, s)),
        JSON.stringify(event),
      ).to.have.length(1);
  });

  it('a 503 then 200 from the service loses nothing and duplicates nothing', async () => {
    const key = `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const { search, items, userToken, mirrored } = await renderSearch({
      client: searchClient(`${location.origin}/__flaky/${key}`),
    });
    const insights = search.insights!;
    await click(items[0]!);
    await click(items[1]!);
    await insights.flush(); // answered 503: kept, retried with backoff
    expect(insights.stats.retries).to.equal(1);
    expect(insights.queueSize).to.equal(mirrored.length);
    await eventually(() => insights.queueSize === 0, 10_000);
    const flaky = (await (await fetch(`/__flaky/${key}/_stats`)).json()) as { failed: number; proxied: number };
    expect(flaky.failed).to.equal(1);
    expect(flaky.proxied).to.be.greaterThan(0);
    const stored = await storedEvents(userToken);
    expect(stored).to.have.length(mirrored.length);
    for (const event of mirrored)
      expect(
        stored.filter((s) => sameEvent(event, s)),
        JSON.stringify(event),
      ).to.have.length(1);
    expect(stored.filter((e) => e.eventType === 'click')).to.have.length(2);
  });

  it('events a page left queued are sent by the next page load (the queue lives in local storage)', async () => {
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    const first = createInsights({ client, store, flushDelayMs: 60_000 });
    const userToken = first.userToken!;
    first.convert(['p5'], 'Left behind');
    first.convert(['p6'], 'Left behind');
    await sleep(0);
    expect(JSON.parse(localStorage.getItem('svc-insights-queue:SVCLOCAL')!).owners).to.be.an('object');
    first.dispose(); // the page goes away without sending
    expect(await storedEvents(userToken)).to.have.length(0);
    const second = createInsights({ client, store, flushDelayMs: 10 });
    try {
      expect(second.queueSize).to.equal(2, 'adopted from storage');
      await eventually(async () => (await storedEvents(userToken)).length === 2);
      await sleep(200);
      expect((await storedEvents(userToken)).map((e) => e.objectIDs)).to.deep.equal([['p5'], ['p6']]);
      expect(localStorage.getItem('svc-insights-queue:SVCLOCAL')).to.equal(null);
    } finally {
      second.dispose();
      store.dispose();
    }
  });

  it('a request in flight at dispose is handed to the next instance only if it fails', async () => {
    const key = `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const store = createSearchStore({ client: searchClient(), indexName: INDEX });
    const flakyClient = searchClient(`${location.origin}/__flaky/${key}`);
    const goodClient = searchClient();
    const userToken = `dispose-${key}`;
    const attempt = async (client: SearchClient) => {
      const insights = createInsights({ client, store, userToken, flushDelayMs: 60_000 });
      insights.convert(['p7'], `Attempt ${key}`);
      const sending = insights.flush();
      insights.dispose(); // e.g. <svc-search> rebuilt while the request is out
      await sending;
    };
    try {
      await attempt(goodClient); // succeeds: nothing handed back
      let next = createInsights({ client: goodClient, store, userToken });
      expect(next.queueSize).to.equal(0);
      next.dispose();
      await attempt(flakyClient); // answered 503: handed back to storage
      next = createInsights({ client: goodClient, store, userToken, flushDelayMs: 10 });
      expect(next.queueSize).to.equal(1);
      await next.flush();
      next.dispose();
      expect((await storedEvents(userToken)).map((e) => e.objectIDs)).to.deep.equal([['p7'], ['p7']]);
    } finally {
      store.dispose();
    }
  });

  it('splits the queue into requests of at most 1000 events and under 2 MB', async () => {
    const base = searchClient();
    // Each request as the module hands it to the client (which sends it to the real service).
    const requests: Array<{ events: number; bytes: number }> = [];
    const client: SearchClient = {
      ...base,
      sendEvents(events, options) {
        requests.push({ events: events.length, bytes: new TextEncoder().encode(JSON.stringify({ events })).length });
        return base.sendEvents(events, options);
      },
    };
    const store = createSearchStore({ client, indexName: INDEX });
    const insights = createInsights({ client, store, flushDelayMs: 60_000, storage: sessionStorage });
    const userToken = `bulk-${Date.now().toString(36)}`;
    insights.setUserToken(userToken);
    try {
      // Distinct events (identical ones in one ms are one event to the service), told apart by their name and
      // all about one objectID: the service's Recommend models (built once any Recommend request ran, as in a
      // full run) count the co-converted pairs of a session, so one user converting 2,100 distinct objectIDs
      // costs them seconds per request, quadratically — which made this test time out under load.
      for (let i = 0; i < 1500; i++) insights.convert(['bulk'], `Bulk ${i}`);
      await insights.flush();
      expect(requests.map((r) => r.events)).to.deep.equal([1000, 500], '1500 events: 1000 + 500');
      expect(insights.stats.requests).to.equal(2);
      expect(await storedEvents(userToken, 'conversion')).to.have.length(1500);
      // 600 events of ≈ 4 KB (2.4 MB in all): fewer than 1000 events, but over 2 MB in one body.
      const long = 'x'.repeat(4000);
      for (let i = 0; i < 600; i++) insights.convert([long], `Big ${i}`);
      await insights.flush();
      expect(requests).to.have.length(4);
      expect(requests.slice(2).reduce((sum, r) => sum + r.events, 0)).to.equal(600);
      expect(requests.every((r) => r.bytes < 2 * 1024 * 1024)).to.equal(true, JSON.stringify(requests));
      expect(insights.stats.requests).to.equal(4);
      expect(insights.stats.eventsDropped).to.equal(0);
      expect(
        (await storedEvents(userToken, 'conversion')).filter((e) => e.eventName.startsWith('Big ')),
      ).to.have.length(600);
    } finally {
      insights.dispose();
      store.dispose();
      sessionStorage.clear();
    }
  });

  it('a 4xx answer drops the events with a console warning (no retry)', async () => {
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    // A key the service does not know: every request is refused with 401.
    const { createClient } = await import('../../src/client/index.js');
    const badClient = createClient({ appId: 'SVCLOCAL', apiKey: 'not-a-key', hosts: [location.origin] });
    const insights = createInsights({ client: badClient, store, flushDelayMs: 10, storage: sessionStorage });
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      insights.convert(['p1'], 'Purchased');
      await insights.flush();
      expect(insights.queueSize).to.equal(0);
      expect(insights.stats.eventsDropped).to.equal(1);
      expect(insights.stats.retries).to.equal(0);
      expect(String(warnings[0]?.[0])).to.match(/refused 1 event\(s\) \(401\)/);
    } finally {
      console.warn = warn;
      insights.dispose();
      store.dispose();
      sessionStorage.clear();
    }
  });
});

describe('insights: user token and consent', () => {
  it('creates one anonymous token, kept across instances; in a cookie instead of local storage only when asked', async () => {
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    clearTokenCookie();
    const a = createInsights({ client, store });
    const token = a.userToken!;
    expect(token).to.match(/^anonymous-[a-zA-Z0-9_\-=/+]+$/);
    expect(localStorage.getItem('svc-insights-user-token')).to.equal(token);
    a.dispose();
    expect(tokenCookie()).to.equal(undefined);
    // Asking for the cookie moves the same token there (the user stays the same) and out of local storage.
    const b = createInsights({ client, store, useCookie: true });
    expect(b.userToken).to.equal(token);
    expect(tokenCookie()).to.equal(token);
    expect(localStorage.getItem('svc-insights-user-token')).to.equal(null);
    b.dispose();
    // And back.
    const c = createInsights({ client, store });
    expect(c.userToken).to.equal(token);
    expect(tokenCookie()).to.equal(undefined);
    expect(localStorage.getItem('svc-insights-user-token')).to.equal(token);
    c.dispose();
    store.dispose();
  });

  it('a token cookie that is not valid percent-encoding (another script’s) is no token: a new anonymous one, no exception', async () => {
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    document.cookie = '_svc_insights_token=%E0%A4%A; path=/';
    const insights = createInsights({ client, store, useCookie: true });
    try {
      expect(insights.userToken).to.match(/^anonymous-/);
      expect(tokenCookie()).to.equal(insights.userToken);
    } finally {
      insights.dispose();
      store.dispose();
      clearTokenCookie();
    }
  });

  it('validates the authenticated token and asks searches for clickAnalytics with the token', async () => {
    const { search } = await renderSearch();
    const insights = search.insights!;
    expect(() => insights.setUserToken('has space')).to.throw(TypeError, /invalid userToken/);
    expect(() => insights.setUserToken('x'.repeat(129))).to.throw(TypeError);
    insights.setUserToken('user-42');
    expect(insights.userToken).to.equal('user-42');
    const store = search.store!;
    await eventually(() => {
      const last = store.requestLog.at(-1)?.body;
      return JSON.stringify(last ?? '').includes('user-42');
    });
    const body = JSON.stringify(store.requestLog.at(-1)!.body);
    expect(body).to.match(/clickAnalytics/);
    insights.convert(['p2'], 'Purchased');
    await insights.flush();
    expect((await storedEvents('user-42', 'conversion')).map((e) => e.objectIDs)).to.deep.equal([['p2']]);
  });

  it('without consent nothing is sent and the token is forgotten', async () => {
    const { search, items, userToken } = await renderSearch();
    const insights = search.insights!;
    await settleViews();
    insights.setConsent(false);
    expect(insights.userToken).to.equal(undefined);
    expect(insights.queueSize).to.equal(0);
    expect(localStorage.getItem('svc-insights-user-token')).to.equal(null);
    expect(localStorage.getItem('svc-insights-queue:SVCLOCAL')).to.equal(null);
    await click(items[0]!);
    insights.convert(['p0'], 'Purchased');
    await insights.flush();
    expect(await storedEvents(userToken)).to.have.length(0);
    insights.setConsent(true);
    expect(insights.userToken)
      .to.match(/^anonymous-/)
      .and.not.equal(userToken);
  });

  it('a page without consent sends nothing and forgets what an earlier page kept (token, cookie, window, queue)', async () => {
    const client = searchClient();
    const store = createSearchStore({ client, indexName: INDEX });
    const earlier = createInsights({ client, store, flushDelayMs: 60_000 });
    const userToken = earlier.userToken!;
    // A hit clicked on the earlier page (its conversion window entry and a queued click), and a conversion.
    const hit = document.createElement('div');
    document.body.append(hit);
    earlier.attach(document.body);
    earlier.observe(hit, { objectID: 'p9', queryID: 'b'.repeat(32), position: 10, indexName: INDEX });
    hit.click();
    earlier.convert(['p9'], 'Left behind');
    earlier.dispose();
    hit.remove();
    document.cookie = `_svc_insights_token=${userToken}; path=/`; // as an earlier page with useCookie left it
    expect(
      Object.keys(localStorage)
        .filter((k) => k.startsWith('svc-insights'))
        .sort(),
    ).to.deep.equal(['svc-insights-conversion-window', 'svc-insights-queue:SVCLOCAL', 'svc-insights-user-token']);
    const later = createInsights({ client, store, consent: false, flushDelayMs: 10 });
    try {
      expect(later.userToken).to.equal(undefined);
      expect(Object.keys(localStorage).filter((k) => k.startsWith('svc-insights'))).to.deep.equal([]);
      expect(tokenCookie()).to.equal(undefined);
      await later.flush();
      await sleep(300);
      expect(later.stats.requests).to.equal(0);
      // Consent given afterwards: a new token, and the forgotten events stay forgotten.
      later.setConsent(true);
      expect(later.userToken)
        .to.match(/^anonymous-/)
        .and.not.equal(userToken);
      expect(later.queueSize).to.equal(0);
      await later.flush();
      await sleep(300);
      expect(later.stats.requests).to.equal(0);
      expect(await storedEvents(userToken)).to.have.length(0);
    } finally {
      later.dispose();
      store.dispose();
      clearTokenCookie();
    }
  });
});
