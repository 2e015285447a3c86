/**
 * The Insights stand-in (`src/insights/lazy.ts`): what `<svc-search>` creates so the first results wait for no
 * Insights code but the token. Here its loader is gated by the test, so the module is "still loading" for as long
 * as the test wants; everything is read back from the real service's `/1/_local/events`.
 */
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/elements/search/define.js';
import '../../src/elements/hits/define.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { SvcHits } from '../../src/elements/hits/svc-hits.js';
import { createInsights } from '../../src/insights/index.js';
import * as insightsModule from '../../src/insights/index.js';
import { createLazyInsights, type InsightsModule } from '../../src/insights/lazy.js';
import type { Insights, InsightsOptions } from '../../src/insights/types.js';
import { QUEUE_KEY_PREFIX } from '../../src/insights/stored-queue.js';
import {
  APP_ID,
  clickAt,
  eventually,
  fillIndex,
  resetInsightsStorage,
  searchClient,
  sleep,
  storedEvents,
} from './helpers.js';

const INDEX = 'insights_lazy_test';

/** A module loader the test opens when it wants; counts the loads. */
function gatedLoader() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const loader = {
    loads: 0,
    open,
    load: async (): Promise<InsightsModule> => {
      loader.loads++;
      await gate;
      return insightsModule;
    },
  };
  return loader;
}

/** `<svc-search insights="false">` with `<svc-hits>` reporting to a stand-in over its store. */
async function render(loader: ReturnType<typeof gatedLoader>, options: Partial<InsightsOptions> = {}) {
  const client = searchClient();
  const search = await fixture<SvcSearch>(html`<svc-search .client=${client} index-name=${INDEX} insights="false"
    .initialState=${{ hitsPerPage: 10 }}><svc-hits></svc-hits></svc-search>`);
  const store = search.store!;
  const insights = createLazyInsights({ client, store, root: search, ...options }, loader.load);
  const hits = search.querySelector<SvcHits>('svc-hits')!;
  hits.insights = insights;
  let items: HTMLElement[] = [];
  await eventually(() => {
    items = [...(hits.shadowRoot?.querySelectorAll<HTMLElement>('li[data-svc-object-id]') ?? [])];
    return items.length === 10 && items.every((li) => li.dataset.svcQueryId);
  });
  return { search, store, insights, items, queryID: store.getSnapshot().results!.queryID! };
}

const disposeAll: Insights[] = [];

before(async () => {
  await fillIndex(INDEX, 30);
});

beforeEach(() => resetInsightsStorage());

afterEach(async () => {
  for (const insights of disposeAll.splice(0)) insights.dispose();
  fixtureCleanup();
  await sleep(5);
});

describe('insights stand-in (the module loads after the first results)', () => {
  it('the first search already carries clickAnalytics and the user token', async () => {
    const loader = gatedLoader();
    const { store, insights } = await render(loader);
    disposeAll.push(insights);
    const searches = store.requestLog.filter((entry) => entry.kind === 'search');
    const params = (searches.at(-1)!.body as { requests: Array<{ params: Record<string, unknown> }> }).requests[0]!
      .params;
    expect(params.clickAnalytics).to.equal(true);
    expect(params.userToken).to.equal(insights.userToken);
    expect(insights.userToken).to.match(/^anonymous-/);
  });

  it('a click before the module loaded is queued, then sent with its queryID and position', async () => {
    const loader = gatedLoader();
    const { insights, items, queryID } = await render(loader);
    disposeAll.push(insights);
    await clickAt(items[3]!);
    expect(insights.queueSize, 'held by the stand-in').to.equal(1);
    expect(insights.stats.requests).to.equal(0);
    await sleep(300);
    expect(await storedEvents(insights.userToken!, 'click'), 'nothing sent while the module loads').to.have.length(0);

    loader.open();
    await insights.flush();
    const clicks = await storedEvents(insights.userToken!, 'click');
    expect(clicks.map((e) => [e.eventName, e.objectIDs, e.positions, e.queryID])).to.deep.equal([
      ['Hit Clicked', ['p3'], [4], queryID],
    ]);
    expect(loader.loads).to.equal(1);
  });

  it('the module loads by itself after the first results, and takes over the observed hits (views)', async () => {
    const loader = gatedLoader();
    loader.open();
    const { insights, queryID } = await render(loader);
    disposeAll.push(insights);
    await eventually(() => loader.loads === 1);
    await eventually(async () => {
      await insights.flush();
      return (await storedEvents(insights.userToken!, 'view')).length > 0;
    });
    const views = await storedEvents(insights.userToken!, 'view');
    expect(views.every((e) => e.queryID === queryID && e.eventName === 'Hits Viewed')).to.equal(true);
  });

  it('a page left before the module loaded hands its clicks to the next page load', async () => {
    const loader = gatedLoader(); // never opened: the module never loads on this "page"
    const { insights, items, queryID } = await render(loader);
    const userToken = insights.userToken!;
    await clickAt(items[6]!);
    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    insights.dispose();
    const stored = JSON.parse(localStorage.getItem(QUEUE_KEY_PREFIX + APP_ID)!);
    const parts = Object.values(stored.owners) as Array<{ lease: number; entries: unknown[] }>;
    expect(parts.map((part) => [part.lease, part.entries.length])).to.deep.equal([[0, 1]], 'one released part');
    fixtureCleanup();
    await sleep(5);

    // The next page: the module adopts the released part and sends it.
    const client = searchClient();
    const { createSearchStore } = await import('../../src/store/index.js');
    const store = createSearchStore({ client, indexName: INDEX });
    const next = createInsights({ client, store, flushDelayMs: 10 });
    disposeAll.push(next);
    expect(next.userToken).to.equal(userToken);
    await eventually(async () => (await storedEvents(userToken, 'click')).length === 1);
    const [click] = await storedEvents(userToken, 'click');
    expect([click!.objectIDs, click!.positions, click!.queryID]).to.deep.equal([['p6'], [7], queryID]);
    // The click's conversion-window entry was written too: a conversion on this page carries the queryID.
    next.convert(['p6'], 'Purchased');
    await next.flush();
    const conversions = await storedEvents(userToken, 'conversion');
    expect(conversions.map((e) => [e.objectIDs, e.queryID])).to.deep.equal([[['p6'], queryID]]);
    store.dispose();
  });

  it('painted clicks (src/prepaint) as they happen: held while the module loads, then its own; a second instance takes the later ones', async () => {
    // The source as the first-paint script's recorder is to `<svc-search>`: the last instance given it takes each click.
    type PaintedClick = Parameters<Parameters<NonNullable<InsightsOptions['paintedClicks']>>[0]>[0];
    let take: (click: PaintedClick) => void = () => undefined;
    const paintedClicks = (taker: typeof take) => {
      take = taker;
    };
    const loader = gatedLoader();
    const { search, store, insights, queryID } = await render(loader, { paintedClicks });
    const painted = (objectID: string, position: number): PaintedClick => ({
      hit: { objectID, queryID, position, indexName: INDEX },
      at: Date.now(),
    });
    const clicks = async (userToken: string) =>
      (await storedEvents(userToken, 'click')).map((e) => [e.eventName, e.objectIDs, e.positions, e.queryID]);

    take(painted('p3', 4));
    expect(insights.queueSize, 'held by the stand-in').to.equal(1);
    loader.open();
    await insights.flush();
    take(painted('p5', 6)); // the module loaded: it was given the source and takes the click itself
    await insights.flush();
    const userToken = insights.userToken!;
    expect(await clicks(userToken)).to.deep.equal([
      ['Hit Clicked', ['p3'], [4], queryID],
      ['Hit Clicked', ['p5'], [6], queryID],
    ]);

    insights.dispose();
    const second = createLazyInsights({ client: store.client, store, root: search, paintedClicks }, loader.load);
    disposeAll.push(second);
    take(painted('p7', 8));
    await second.flush();
    second.setConsent(false);
    take(painted('p8', 9)); // no consent: nothing
    await second.flush();
    expect(await clicks(userToken), 'each click once, none without consent').to.deep.equal([
      ['Hit Clicked', ['p3'], [4], queryID],
      ['Hit Clicked', ['p5'], [6], queryID],
      ['Hit Clicked', ['p7'], [8], queryID],
    ]);
  });

  it('consent withdrawn before the module loaded: the queued click is dropped and nothing is sent', async () => {
    const loader = gatedLoader();
    const { insights, items } = await render(loader);
    disposeAll.push(insights);
    const userToken = insights.userToken!;
    await clickAt(items[2]!);
    insights.setConsent(false);
    expect(insights.userToken).to.equal(undefined);
    expect(insights.queueSize).to.equal(0);
    loader.open();
    await insights.flush();
    await sleep(200);
    expect(await storedEvents(userToken)).to.have.length(0);
  });
});
