/**
 * The first paint without Lit (src/prepaint) and Insights, in Chromium, the page on another origin than the service,
 * every element chunk held until the test releases it (`prepaint-fixture.ts`): the clicks on the painted hits (the
 * early-click recorder) and the root's Insights attributes. What is painted is `prepaint-paint.node.test.ts`.
 *
 * - A click on a painted hit before the elements exist reaches Insights with its queryID and position; a click on a
 *   `data-svc-conversion` button in a painted hit is the conversion the element sends after the takeover.
 * - With `<svc-hits>`' chunk held and the root defined first (the window between Insights and the takeover held
 *   open): a click, a middle click and a `data-svc-conversion` click on painted hits each reach `/1/events` once with
 *   their queryID, position and name, and a painted hit put back after the takeover reaches no recorder; a second
 *   Insights made in that window (`insights-cookie` set) takes the later click, each click sent once.
 * - The root's Insights attributes: `insights-consent="false"` (no clickAnalytics nor token in the search, no
 *   cookie, no stored token, no event for a click before or after the takeover), `insights-cookie` (the token of the
 *   cookie), `insights-user-token` (the search and an early click carry it), `insights="false"` (no Insights
 *   parameter, no event): each painted, with one search; the same with `insightsConsent = false` set by a script
 *   before the loader runs. Consent granted after the paint and before the takeover:
 *   no event for a click made before it, one (without a queryID) for a click made after it, and the store searches
 *   again with a token. The same with consent granted by the `insightsConsent` property on the root not defined yet
 *   (the element takes it at its upgrade); withdrawn by the property (no attribute): no click kept, no event, the
 *   token the paint kept forgotten, the store's searches without Insights parameters.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { FIRST_PAINT_INDEX, SIX_ELEMENTS, loaderPage } from '../size/pages.js';
import {
  type OpenedPage,
  type PrepaintSite,
  firstSearchParams,
  insightsLoaded,
  painted,
  paintedThenRendered,
  rootWith,
  startPrepaintSite,
  upgraded,
  withPage,
} from './prepaint-fixture.js';

/** A hit template with a conversion button. */
const CONVERSION_TEMPLATE = `<template>
  <span data-text="name"></span> <button type="button" data-svc-conversion="Added to cart">Add</button>
</template>`;
const TOKEN_COOKIE = /(?:^|; )_svc_insights_token=([^;]*)/;
/** The root's chunk among the loader's preload links (the batch's files are requested at once). */
const SEARCH_CHUNK = `[...document.querySelectorAll('link[rel=modulepreload]')].find((link) =>
  /\\/chunks\\/search-[\\w-]{6}\\.js$/.test(link.href))`;
const STILL_PAINTED = `Boolean(document.querySelector('svc-hits').shadowRoot?.[Symbol.for('svc-search.prepaint')])`;
const FLUSH = `document.querySelector('svc-search').insights.flush()`;

/** What Insights keeps in the page: the cookie and the stored token. */
const kept = (tab: Page) =>
  tab.evaluate(`({ cookie: document.cookie, stored: localStorage.getItem('svc-insights-user-token') })`) as Promise<{
    cookie: string;
    stored: string | null;
  }>;

/** objectID and queryID of the painted (or rendered) hit at `position`. */
const hitAt = (page: OpenedPage, position: number) =>
  page.tab.evaluate(`(() => {
    const li = document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-position="${position}"]');
    return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
  })()`) as Promise<{ objectID: string; queryID: string }>;

/** The events of `objectID` but views (sent too, in an order of their own), without their time and token. */
const eventsOf = (page: OpenedPage, objectID: string) =>
  page.events
    .filter((event) => event.eventType !== 'view' && (event.objectIDs as string[] | undefined)?.includes(objectID))
    .map(({ timestamp: _t, userToken: _u, ...rest }) => rest);

/** The click event Insights sends for `hit` at `position`, without its time and token. */
const hitClicked = (hit: { objectID: string; queryID: string }, position: number) => ({
  eventType: 'click',
  eventName: 'Hit Clicked',
  index: FIRST_PAINT_INDEX,
  queryID: hit.queryID,
  objectIDs: [hit.objectID],
  positions: [position],
});

/** The conversion the conversion template's button sends for `hit`, without its time and token. */
const addedToCart = (hit: { objectID: string; queryID: string }) => ({
  eventType: 'conversion',
  eventName: 'Added to cart',
  index: FIRST_PAINT_INDEX,
  queryID: hit.queryID,
  objectIDs: [hit.objectID],
});

/**
 * Opens the window between Insights and the takeover for as long as the test needs: with `<svc-hits>`' chunk held
 * (`withPage(…, { holdHits: true })`), the other chunks are released and the page imports the root's chunk itself,
 * as a page that defines `<svc-search>` before `<svc-hits>` would (the loader's batch still waits for the hits'
 * chunk). Resolves once the root has made its Insights, with the painted list still there.
 */
async function insightsBeforeTakeover(page: OpenedPage): Promise<void> {
  await painted(page);
  await page.tab.waitForFunction(SEARCH_CHUNK);
  page.release();
  await page.tab.evaluate(`import(${SEARCH_CHUNK}.href).then(() => true)`);
  await page.tab.waitForFunction(`document.querySelector('svc-search').insights && ${STILL_PAINTED}`);
  assert.equal(await page.tab.evaluate(`customElements.get('svc-hits')`), undefined, '<svc-hits> not defined yet');
}

describe('first paint without Lit: Insights and the early clicks (loader build, cross-origin, Chromium)', () => {
  let prepaint: PrepaintSite;

  before(async () => {
    prepaint = await startPrepaintSite({
      '/six': loaderPage(SIX_ELEMENTS),
      '/consent-denied': rootWith('insights-consent="false"'),
      // A consent banner that already knows the answer sets the property before the loader (a module) runs.
      '/consent-denied-by-property': loaderPage(SIX_ELEMENTS).replace(
        '</svc-search>',
        `</svc-search><script>document.querySelector('svc-search').insightsConsent = false;</script>`,
      ),
      '/cookie': rootWith('insights-cookie'),
      '/user-token': rootWith('insights-user-token="user-42"'),
      '/insights-off': rootWith('insights="false"'),
      '/conversion': loaderPage(`<svc-hits>${CONVERSION_TEMPLATE}</svc-hits>`),
    });
  });

  after(async () => {
    await prepaint?.close();
  });

  test('a click on a painted hit before the elements exist is sent to Insights with its queryID and position', async () => {
    await withPage(prepaint, '/six', async (page) => {
      await painted(page);
      const second = (await page.tab.evaluate(`(() => {
        const li = document.querySelector('svc-hits').shadowRoot.querySelectorAll('li')[1];
        return { objectID: li.dataset.svcObjectId, queryID: li.dataset.svcQueryId };
      })()`)) as { objectID: string; queryID: string };
      await page.tab.click('svc-hits li[data-svc-position="2"]');
      page.release();
      await upgraded(page.tab);
      await page.tab.evaluate(FLUSH);
      const click = page.events.find((event) => event.eventType === 'click');
      assert.ok(click, `a click event among ${JSON.stringify(page.events)}`);
      assert.deepEqual(click.objectIDs, [second.objectID]);
      assert.deepEqual(click.positions, [2]);
      assert.equal(click.queryID, second.queryID);
    });
  });

  for (const [denied, path] of [
    ['insights-consent="false"', '/consent-denied'],
    ['insightsConsent = false set by a script before the loader runs', '/consent-denied-by-property'],
  ] as const) {
    test(`${denied}: painted, no Insights parameter, no cookie nor token, no event for a click`, async () => {
      await withPage(prepaint, path, async (page) => {
        await paintedThenRendered(page, async () => {
          const [main] = firstSearchParams(page);
          assert.equal(main!.clickAnalytics, undefined);
          assert.equal(main!.userToken, undefined);
          assert.deepEqual(await kept(page.tab), { cookie: '', stored: null }, 'nothing kept before consent');
          await page.tab.click('svc-hits li[data-svc-position="2"]');
        });
        assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insightsConsent`), false);
        await page.tab.click('svc-hits li[data-svc-position="3"]');
        await page.tab.evaluate(FLUSH);
        assert.deepEqual(page.events, [], 'no event without consent');
        assert.deepEqual(await kept(page.tab), { cookie: '', stored: null });
        assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
      });
    });
  }

  for (const [title, grant] of [
    [
      'consent granted after the paint, before the takeover: the click made before it is not sent, the one after it is; the store searches with a token',
      `document.querySelector('svc-search').setAttribute('insights-consent', 'granted')`,
    ],
    [
      'consent granted by the insightsConsent property after the paint, before the elements are defined: the click made after it is sent; the element takes the property',
      // Lit's convention: a property set before the element is defined counts (an own property of the plain element).
      `document.querySelector('svc-search').insightsConsent = true`,
    ],
  ] as const) {
    test(title, async () => {
      await withPage(prepaint, '/consent-denied', async (page) => {
        await painted(page);
        const [before, after] = await Promise.all([2, 3].map((position) => hitAt(page, position)));
        await page.tab.click('svc-hits li[data-svc-position="2"]');
        // A consent banner answers before the elements are loaded.
        await page.tab.evaluate(grant);
        assert.equal(await page.tab.evaluate(`customElements.get('svc-search')`), undefined, 'not defined yet');
        await page.tab.click('svc-hits li[data-svc-position="3"]');
        page.release();
        await upgraded(page.tab);
        assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insightsConsent`), true);
        // The script's search asked no queryID: the store, now with a token, asks its own (awaited, then settled).
        for (let i = 0; i < 500 && page.bodies.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
        await page.tab.waitForFunction(`document.querySelector('svc-search').store.getSnapshot().status === 'idle'`);
        await page.tab.evaluate(FLUSH);
        assert.deepEqual(eventsOf(page, before.objectID), [], 'the click made before consent is not sent');
        // Painted from a search that asked no queryID: sent as Insights sends a click on such a hit, without one.
        assert.equal(after.queryID, '');
        assert.deepEqual(
          eventsOf(page, after.objectID),
          [
            {
              eventType: 'click',
              eventName: 'Hit Clicked',
              index: FIRST_PAINT_INDEX,
              objectIDs: [after.objectID],
              positions: [3],
            },
          ],
          'the click made after consent is sent once',
        );
        assert.equal(page.searches(), 2);
        const [, second] = page.bodies.map((body) => Object.fromEntries(new URLSearchParams(body.requests[0]!.params)));
        assert.equal(second!.clickAnalytics, 'true');
        assert.match(second!.userToken ?? '', /^anonymous-/);
      });
    });
  }

  test('consent withdrawn by the insightsConsent property after the paint, before the elements are defined: no click kept, nothing sent, the token forgotten', async () => {
    await withPage(prepaint, '/six', async (page) => {
      await painted(page);
      assert.match(firstSearchParams(page)[0]!.userToken ?? '', /^anonymous-/, 'the paint searched with consent');
      await page.tab.evaluate(`document.querySelector('svc-search').insightsConsent = false`);
      await page.tab.click('svc-hits li[data-svc-position="2"]');
      page.release();
      await upgraded(page.tab);
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insightsConsent`), false);
      await page.tab.click('svc-hits li[data-svc-position="3"]');
      await page.tab.waitForFunction(`document.querySelector('svc-search').store.getSnapshot().status === 'idle'`);
      await page.tab.evaluate(FLUSH);
      assert.deepEqual(page.events, [], 'no event without consent');
      assert.deepEqual(await kept(page.tab), { cookie: '', stored: null }, 'the token the paint kept is forgotten');
      for (const body of page.bodies.slice(1))
        assert.doesNotMatch(body.requests[0]!.params, /clickAnalytics|userToken/, 'the store searches without them');
    });
  });

  test("insights-cookie: painted; the search carries the cookie's token, the store keeps it", async () => {
    await withPage(prepaint, '/cookie', async (page) => {
      let token = '';
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        const { cookie, stored } = await kept(page.tab);
        token = decodeURIComponent(TOKEN_COOKIE.exec(cookie)?.[1] ?? '');
        assert.match(token, /^anonymous-/, `the token in the cookie: ${cookie}`);
        assert.equal(stored, null, 'not in local storage');
        assert.equal(main!.clickAnalytics, 'true');
        assert.equal(main!.userToken, token);
      });
      await insightsLoaded(page);
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insights.userToken`), token);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    });
  });

  test('insights-user-token: the search and a click made before the takeover carry it', async () => {
    await withPage(prepaint, '/user-token', async (page) => {
      let second: { objectID?: string; queryID?: string } = {};
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        assert.equal(main!.clickAnalytics, 'true');
        assert.equal(main!.userToken, 'user-42');
        second = await hitAt(page, 2);
        await page.tab.click('svc-hits li[data-svc-position="2"]');
      });
      await page.tab.evaluate(FLUSH);
      const click = page.events.find((event) => event.eventType === 'click');
      assert.ok(click, `a click event among ${JSON.stringify(page.events)}`);
      assert.equal(click.userToken, 'user-42');
      assert.deepEqual(click.objectIDs, [second.objectID]);
      assert.equal(click.queryID, second.queryID);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    });
  });

  test('insights="false": painted, no Insights parameter, nothing kept, no event', async () => {
    await withPage(prepaint, '/insights-off', async (page) => {
      await paintedThenRendered(page, async () => {
        const [main] = firstSearchParams(page);
        assert.equal(main!.clickAnalytics, undefined);
        assert.equal(main!.userToken, undefined);
        await page.tab.click('svc-hits li[data-svc-position="2"]');
      });
      assert.equal(await page.tab.evaluate(`document.querySelector('svc-search').insights`), undefined);
      // The last element to render: every element is there, and the store has decided its first search.
      await page.tab.waitForFunction(
        `document.querySelector('svc-pagination').shadowRoot?.querySelector('[part~=list]') && document.querySelector('svc-search').store.getSnapshot().status === 'idle'`,
      );
      assert.deepEqual(await kept(page.tab), { cookie: '', stored: null });
      assert.deepEqual(page.events, []);
      assert.equal(page.searches(), 1, 'one search: the store adopted the answer');
    });
  });

  test('a click on a painted data-svc-conversion button is the conversion the element sends after the takeover', async () => {
    await withPage(prepaint, '/conversion', async (page) => {
      let before = { objectID: '', queryID: '' };
      await paintedThenRendered(page, async () => {
        before = await hitAt(page, 2);
        await page.tab.click('svc-hits li[data-svc-position="2"] button');
      });
      const after = await hitAt(page, 3);
      await page.tab.click('svc-hits li[data-svc-position="3"] button');
      await page.tab.evaluate(FLUSH);
      assert.deepEqual(eventsOf(page, before.objectID), [addedToCart(before)], JSON.stringify(page.events));
      assert.deepEqual(eventsOf(page, after.objectID), [addedToCart(after)], 'the same after the takeover');
      assert.ok(!page.events.some((event) => event.eventType === 'click'), 'no click event for a conversion');
    });
  });

  test('clicks on painted hits after Insights exists and before the takeover: each sent once; the recorder goes at the takeover', async () => {
    await withPage(
      prepaint,
      '/conversion',
      async (page) => {
        await insightsBeforeTakeover(page);
        const [clicked, middle, converted, kept] = await Promise.all(
          [2, 3, 4, 5].map((position) => hitAt(page, position)),
        );
        await page.tab.click('svc-hits li[data-svc-position="2"] span');
        await page.tab.click('svc-hits li[data-svc-position="3"] span', { button: 'middle' });
        await page.tab.click('svc-hits li[data-svc-position="4"] button');
        assert.ok(await page.tab.evaluate(STILL_PAINTED), 'the clicks landed on the painted list');
        // A painted hit kept by reference: put back after the takeover, a click on it reaches no recorder.
        await page.tab.evaluate(
          `window.__paintedHit = document.querySelector('svc-hits').shadowRoot.querySelector('li[data-svc-position="5"]')`,
        );
        page.releaseHits();
        await upgraded(page.tab);
        await page.tab.evaluate(`(() => {
          const list = document.querySelector('svc-hits').shadowRoot.querySelector('ol');
          list.append(window.__paintedHit);
          window.__paintedHit.click();
          window.__paintedHit.remove();
        })()`);
        await page.tab.evaluate(FLUSH);
        assert.match(clicked.queryID, /^[0-9a-f]{32}$/, 'the painted hits carry the search’s queryID');
        assert.deepEqual(eventsOf(page, clicked.objectID), [hitClicked(clicked, 2)], JSON.stringify(page.events));
        assert.deepEqual(eventsOf(page, middle.objectID), [hitClicked(middle, 3)], 'a middle click: auxclick');
        assert.deepEqual(eventsOf(page, converted.objectID), [addedToCart(converted)]);
        assert.deepEqual(eventsOf(page, kept.objectID), [], 'no recorder after the takeover');
      },
      { holdHits: true },
    );
  });

  test('a second Insights made before the takeover (insights-cookie set) takes the later clicks: each sent once', async () => {
    await withPage(
      prepaint,
      '/conversion',
      async (page) => {
        await insightsBeforeTakeover(page);
        const [first, second] = await Promise.all([2, 3].map((position) => hitAt(page, position)));
        await page.tab.click('svc-hits li[data-svc-position="2"] span');
        await page.tab.evaluate(`(() => {
          window.__firstInsights = document.querySelector('svc-search').insights;
          document.querySelector('svc-search').setAttribute('insights-cookie', '');
        })()`);
        await page.tab.waitForFunction(
          `document.querySelector('svc-search').insights && document.querySelector('svc-search').insights !== window.__firstInsights`,
        );
        await page.tab.click('svc-hits li[data-svc-position="3"] span');
        assert.ok(await page.tab.evaluate(STILL_PAINTED), 'the clicks landed on the painted list');
        page.releaseHits();
        await upgraded(page.tab);
        // The first Insights' click, if not sent yet, was left in the stored queue at its disposal: the second sends it.
        await page.tab.evaluate(FLUSH);
        assert.equal(eventsOf(page, first.objectID).length, 1, JSON.stringify(page.events));
        assert.deepEqual(eventsOf(page, second.objectID), [hitClicked(second, 3)]);
      },
      { holdHits: true },
    );
  });
});
