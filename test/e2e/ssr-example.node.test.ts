/**
 * The plain Node example (`examples/ssr`, started with `npm run example:ssr -- …` against the real service) in real
 * Chromium: the server's HTML holds the hits (text inside declarative shadow roots); loaded in the browser, the
 * elements hydrate without a search request, Insights sees the server's queryID and positions (views once, a click
 * at its absolute position); typing searches and shows new results. An unreachable host gives a 503 page with the
 * elements' error state.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { closedPort } from '../client/fixture.js';
import {
  decode,
  type DemoService,
  ensureLibraryBuilt,
  exampleArgs,
  hitsShadow,
  insightsEvents,
  launchChromium,
  type RunningExample,
  searchRequests,
  serverState,
  startDemoService,
  startNpmServer,
  until,
} from './ssr-fixture.js';

let service: DemoService;
let example: RunningExample;
let browser: Browser;

before(async () => {
  ensureLibraryBuilt();
  service = await startDemoService();
  example = await startNpmServer('example:ssr', exampleArgs(service, service.url));
  browser = await launchChromium();
});
after(async () => {
  // A browser that fails to close must not leave the servers below listening (the run would wait forever).
  await browser?.close().catch(() => undefined);
  await example?.close();
  await service?.close();
});

const PATH = '/search?q=chair&refinementList%5Bbrand%5D=Global&page=2';

/** The Insights events the service stored for `queryID`. */
const storedEvents = (queryID: string, eventType: string) => insightsEvents(service.admin, queryID, eventType);

describe('examples/ssr', () => {
  test('the server’s HTML holds the hits of the URL’s state, as text inside declarative shadow roots', async () => {
    const response = await fetch(example.url + PATH);
    assert.equal(response.status, 200);
    const html = await response.text();
    const expected = serverState(html).initialResults.results!;
    assert.equal(expected.hits.length, 16, 'page 2 of the 36 Global chairs');
    const shadow = hitsShadow(html);
    for (const hit of expected.hits) assert.ok(decode(shadow).includes(hit.name.split('Chair')[0]!.trim()), hit.name);
    assert.match(html, /<svc-pagination><template shadowroot="open" shadowrootmode="open">/);
    assert.match(
      html,
      /href="\?q=chair&amp;refinementList\[brand\]=Global"[^>]*>[\s\S]{0,40}1/,
      'page 1 is a real link',
    );
  });

  test('in Chromium: hydrated with 0 search requests, Insights on the server’s queryID, typing searches', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const searches = searchRequests(page);
    try {
      const response = await page.goto(example.url + PATH);
      const html = await response!.text();
      const { results } = serverState(html).initialResults;
      const queryID = results!.queryID!;
      const objectIDs = results!.hits.map((hit) => hit.objectID);

      // Every element upgraded and hydrated (its first render adopted the server's DOM), Insights loaded.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('svc-search, svc-search *')]
          .filter((element) => element.localName.startsWith('svc-'))
          .every((element) => (element as unknown as { hasUpdated?: boolean }).hasUpdated),
      );
      const views = await (async () => {
        await until(async () => (await storedEvents(queryID, 'view')).length > 0, 'the view events');
        await page.waitForTimeout(1500);
        return storedEvents(queryID, 'view');
      })();
      assert.deepEqual(searches, [], 'no search request for the server’s state');
      const viewed = views.flatMap((event) => event.objectIDs as string[]);
      assert.equal(new Set(viewed).size, viewed.length, 'each server-rendered hit viewed once');
      assert.ok(viewed.length >= 3 && viewed.every((id) => objectIDs.includes(id)), 'views of the server’s hits');

      // The DOM is the server's, not rendered twice.
      const items = await page.evaluate(() =>
        [...document.querySelector('svc-hits')!.shadowRoot!.querySelectorAll('li')].map((li) => ({
          id: li.dataset.svcObjectId,
          position: li.dataset.svcPosition,
          queryID: li.dataset.svcQueryId,
        })),
      );
      assert.deepEqual(
        items.map((item) => item.id),
        objectIDs,
      );
      assert.equal(await page.locator('svc-search-box input').count(), 1);

      // A click on the third hit of page 2: position 23, the server's queryID.
      await page.locator('svc-hits li').nth(2).click();
      await until(async () => (await storedEvents(queryID, 'click')).length > 0, 'the click event');
      const [click] = await storedEvents(queryID, 'click');
      assert.deepEqual(click!.objectIDs, [objectIDs[2]]);
      assert.deepEqual(click!.positions, [23]);
      assert.deepEqual(items[2], { id: objectIDs[2], position: '23', queryID });

      // The first interaction: typing searches, and new results are shown.
      // Waited for as an event: under load, Playwright may report the request after the page showed its answer.
      const searched = page.waitForRequest((request) => /\/1\/indexes\/[^/]+\/(queries|query)/.test(request.url()));
      await page.locator('svc-search-box input').fill('tables');
      await searched;
      await page.waitForFunction(() =>
        [...document.querySelector('svc-hits')!.shadowRoot!.querySelectorAll('li')].some((li) =>
          /table/i.test(li.textContent ?? ''),
        ),
      );
      assert.equal(searches.length, 1, 'one search for the new query');
      assert.match(decodeURIComponent(searches[0]!), /queries/);
      assert.deepEqual(problems, [], 'no error or warning in the console (no hydration fell back)');
    } finally {
      await page.close();
    }
  });

  test('an unreachable search host: 503, the page with the elements’ error state', async () => {
    const down = await startNpmServer('example:ssr', exampleArgs(service, await closedPort()));
    try {
      const response = await fetch(`${down.url}/search?q=chair`);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '30');
      const html = await response.text();
      assert.match(hitsShadow(html), /<p part="error">[\s\S]*The search is unavailable right now/);
      assert.match(html, /<svc-search-box[ >]/, 'the rest of the page is there');
    } finally {
      await down.close();
    }
  });

  test('an unparsable URL state renders the default page, not a 500', async () => {
    for (const path of ['/search?page=%&q=%E0%A4%A&refinementList[brand', '/search?sortBy=nope&hitsPerPage=-1']) {
      const response = await fetch(example.url + path);
      assert.equal(response.status, 200, path);
      assert.ok(serverState(await response.text()).initialResults.results!.hits.length > 0, path);
    }
  });
});
