/**
 * The Next.js example (`examples/nextjs`, an App Router page calling `renderSearch`, started with
 * `npm run example:nextjs -- …`, which installs and builds it when needed) against the real service, in real
 * Chromium: the page Next serves holds the hits as text in declarative shadow roots and real pagination links;
 * the elements hydrate without a search request and keep the server's DOM; Insights sees the server's queryID and
 * positions; typing searches and shows new results. An unreachable host is a 200 page with the error state (an
 * App Router page cannot set a 503); an unparsable URL renders the default page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
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

// The first start installs the example's dependencies and builds it (a few minutes on a busy machine).
const FIRST_START_MS = 900_000;

before(async () => {
  ensureLibraryBuilt();
  service = await startDemoService();
  example = await startNpmServer('example:nextjs', exampleArgs(service, service.url), FIRST_START_MS);
  browser = await launchChromium();
});
after(async () => {
  // A browser that fails to close must not leave the servers below listening (the run would wait forever).
  await browser?.close().catch(() => undefined);
  await example?.close();
  await service?.close();
});

const PATH = '/search?q=chair&refinementList%5Bbrand%5D=Global&page=2';
const storedEvents = (queryID: string, eventType: string) => insightsEvents(service.admin, queryID, eventType);

describe('examples/nextjs', () => {
  test('the page Next.js serves holds the hits of the URL’s state as text inside declarative shadow roots, and real links', async () => {
    const response = await fetch(example.url + PATH);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('x-powered-by') ?? 'none', /none/);
    const html = await response.text();
    const expected = serverState(html).initialResults.results!;
    assert.equal(expected.hits.length, 16, 'page 2 of the 36 Global chairs');
    const shadow = decode(hitsShadow(html));
    for (const hit of expected.hits) assert.ok(shadow.includes(hit.name.split('Chair')[0]!.trim()), hit.name);
    assert.match(html, /<svc-search\s[^>]*server-state="svc-search-state-0"/);
    assert.match(html, /<svc-pagination><template shadowroot="open" shadowrootmode="open">/);
    const pagination = html.slice(html.indexOf('<svc-pagination>'), html.indexOf('</svc-pagination>'));
    assert.match(pagination, /href="\?q=chair&amp;refinementList\[brand\]=Global"/, 'page 1 is a real link');
    assert.match(pagination, /href="\?q=chair&amp;page=2&amp;refinementList\[brand\]=Global"/, 'so is page 2');
  });

  test('the search HTML travels twice, by design: once as HTML for the parser, once as a text row of React’s payload', async () => {
    const html = await (await fetch(example.url + PATH)).text();
    // React's payload (the RSC stream), inlined as `self.__next_f.push([1, "…"])` scripts.
    const scripts = [...html.matchAll(/<script>self\.__next_f\.push\((\[[\s\S]*?\])\)<\/script>/g)];
    const payload = Buffer.from(
      scripts
        .map(([, row]) => JSON.parse(row!) as [number, string?])
        .filter(([kind]) => kind === 1)
        .map(([, text]) => text)
        .join(''),
    );
    // A long string of the tree is a text row `<id>:T<byte length in hex>,<text>`: the search HTML is one.
    const texts: string[] = [];
    const latin = payload.toString('latin1');
    for (const row of latin.matchAll(/(?:^|\n)[0-9a-f]+:T([0-9a-f]+),/g)) {
      const start = row.index! + row[0].length;
      texts.push(payload.subarray(start, start + Number.parseInt(row[1]!, 16)).toString('utf8'));
    }
    const search = texts.filter((text) => text.includes('<svc-search'));
    assert.equal(search.length, 1, 'the payload holds the search HTML once');
    const document = scripts.reduce((rest, [script]) => rest.replace(script, ''), html);
    assert.ok(document.includes(`<div class="search">${search[0]}</div>`), 'the document holds it as HTML');
    assert.equal(document.match(/<svc-search\s/g)?.length, 1, 'and once only');
    const size = (text: string) => `${Buffer.byteLength(text)} B (${gzipSync(text, { level: 9 }).length} B gzip)`;
    console.log(
      `next: page ${size(html)}; React's payload ${scripts.reduce((sum, [script]) => sum + Buffer.byteLength(script), 0)} B` +
        `, of it the search HTML ${Buffer.byteLength(search[0]!)} B; the page without the payload ${size(document)}`,
    );
  });

  test('in Chromium: hydrated with 0 search requests, the server’s DOM kept, Insights on its queryID, typing searches', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // The first hit as the parser made it, before any script ran: hydration must adopt it, not render it again.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const hits = document.querySelector('svc-hits');
        (window as unknown as { parsedHit?: Element | null }).parsedHit = hits?.shadowRoot?.querySelector('li');
      });
    });
    const searches = searchRequests(page);
    try {
      const response = await page.goto(example.url + PATH);
      const html = await response!.text();
      const { results } = serverState(html).initialResults;
      const queryID = results!.queryID!;
      const objectIDs = results!.hits.map((hit) => hit.objectID);

      await page.waitForFunction(() =>
        [...document.querySelectorAll('svc-search, svc-search *')]
          .filter((element) => element.localName.startsWith('svc-'))
          .every((element) => (element as unknown as { hasUpdated?: boolean }).hasUpdated),
      );
      await until(async () => (await storedEvents(queryID, 'view')).length > 0, 'the view events');
      await page.waitForTimeout(1500);
      const views = await storedEvents(queryID, 'view');
      assert.deepEqual(searches, [], 'no search request for the server’s state');
      const viewed = views.flatMap((event) => event.objectIDs as string[]);
      assert.equal(new Set(viewed).size, viewed.length, 'each server-rendered hit viewed once');
      assert.ok(viewed.length >= 3 && viewed.every((id) => objectIDs.includes(id)), 'views of the server’s hits');

      const kept = await page.evaluate(() => {
        const parsed = (window as unknown as { parsedHit?: Element | null }).parsedHit;
        return Boolean(parsed) && parsed === document.querySelector('svc-hits')!.shadowRoot!.querySelector('li');
      });
      assert.ok(kept, 'the first hit is still the element the parser made from the server’s HTML');
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

      // A click on the third hit of page 2: position 23, the server's queryID.
      await page.locator('svc-hits li').nth(2).click();
      await until(async () => (await storedEvents(queryID, 'click')).length > 0, 'the click event');
      const [click] = await storedEvents(queryID, 'click');
      assert.deepEqual(click!.objectIDs, [objectIDs[2]]);
      assert.deepEqual(click!.positions, [23]);
      assert.deepEqual(items[2], { id: objectIDs[2], position: '23', queryID });

      // The first interaction: typing searches once, new results are shown, the URL follows.
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
      await page.waitForURL(/[?&]q=tables/);
      assert.deepEqual(problems, [], 'no error or warning in the console (no hydration fell back)');
    } finally {
      await page.close();
    }
  });

  test('an unreachable search host: a 200 page with the elements’ error state', async () => {
    const down = await startNpmServer('example:nextjs', exampleArgs(service, await closedPort()), FIRST_START_MS);
    try {
      const response = await fetch(`${down.url}/search?q=chair`);
      assert.equal(response.status, 200);
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
