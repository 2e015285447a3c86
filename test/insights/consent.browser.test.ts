/**
 * Consent, cookie and authenticated token under `<svc-search>` in real Chromium, on real searches of the local
 * service mounted in the test server. What was sent is read back from the service's own store
 * (`GET /1/_local/events`): "nothing sent" is checked there, over every event stored for the index.
 */
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../../src/elements/search/define.js';
import '../../src/elements/hits/define.js';
import { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { InsightsEvent } from '../../src/client/types.js';
import { USER_TOKEN_PATTERN } from '../../src/insights/index.js';
import {
  APP_ID,
  SEARCH_KEY,
  clickAt as click,
  settleViews,
  clearTokenCookie,
  eventually,
  fillIndex,
  resetInsightsStorage,
  searchClient,
  sleep,
  storedEvents,
  storedEventsOfIndex,
  tokenCookie,
} from './helpers.js';

const INDEX = `insights_consent_${Date.now().toString(36)}`;
const TOKEN_KEY = 'svc-insights-user-token';
const WINDOW_KEY = 'svc-insights-conversion-window';

interface Rendered {
  search: SvcSearch;
  items: HTMLElement[];
  /** Every event the module queued, as mirrored by the `svc-insights` DOM event. */
  mirrored: InsightsEvent[];
}

async function render(attributes: { consent?: string; cookie?: boolean; userToken?: string } = {}): Promise<Rendered> {
  const wrapper = await fixture<HTMLDivElement>(html`<div>
    <style>
      svc-hits::part(item) { block-size: 60px; box-sizing: border-box; overflow: hidden; margin: 0; }
    </style>
    <svc-search
      .client=${searchClient()}
      index-name=${INDEX}
      .initialState=${{ hitsPerPage: 10 }}
      insights-consent=${ifDefined(attributes.consent)}
      ?insights-cookie=${attributes.cookie}
      insights-user-token=${ifDefined(attributes.userToken)}
    >
      <svc-hits></svc-hits>
    </svc-search>
  </div>`);
  const search = wrapper.querySelector('svc-search')!;
  const mirrored: InsightsEvent[] = [];
  search.addEventListener('svc-insights', (e) => mirrored.push(e.detail.event));
  return { search, items: await renderedHits(search, (li) => li.isConnected), mirrored };
}

/** The rendered hits once every one passes `check` (e.g. carries the latest queryID). */
async function renderedHits(search: SvcSearch, check: (li: HTMLElement) => boolean): Promise<HTMLElement[]> {
  const hits = search.querySelector('svc-hits')!;
  let items: HTMLElement[] = [];
  await eventually(() => {
    items = [...(hits.shadowRoot?.querySelectorAll<HTMLElement>('li[data-svc-object-id]') ?? [])];
    return items.length === 10 && search.store!.getSnapshot().status === 'idle' && items.every(check);
  });
  return items;
}

const insightsKeys = () => Object.keys(localStorage).filter((key) => key.startsWith('svc-insights'));
const bodies = (search: SvcSearch) => search.store!.requestLog.map((entry) => JSON.stringify(entry.body));

before(async () => {
  await fillIndex(INDEX, 40);
});

beforeEach(() => {
  resetInsightsStorage();
  clearTokenCookie();
  window.scrollTo(0, 0);
});

afterEach(async () => {
  fixtureCleanup();
  await sleep(5); // <svc-search> disposes its store and insights a task after removal
  clearTokenCookie();
  window.scrollTo(0, 0);
});

describe('insights consent under <svc-search>', () => {
  it('insights-consent="false": the first search asks for no queryID and carries no token; nothing is kept or sent', async () => {
    // What an earlier page with consent left behind: a token (storage and cookie) and the conversion window.
    localStorage.setItem(TOKEN_KEY, 'anonymous-earlier-page');
    document.cookie = '_svc_insights_token=anonymous-earlier-cookie; path=/';
    localStorage.setItem(
      WINDOW_KEY,
      JSON.stringify([{ objectID: 'p1', indexName: INDEX, queryID: 'a'.repeat(32), searchedAt: Date.now() }]),
    );

    const { search, items, mirrored } = await render({ consent: 'false' });
    expect(search.insightsConsent).to.equal(false);
    const insights = search.insights!;
    expect(insights, 'insights exists, without consent').to.exist;
    expect(insights.userToken).to.equal(undefined);
    // Every search so far — the first one included — went without clickAnalytics and userToken.
    expect(bodies(search)).to.not.be.empty;
    for (const body of bodies(search)) expect(body).to.not.match(/clickAnalytics|userToken/);
    expect(search.store!.getSnapshot().results!.queryID, 'the service gave no queryID').to.equal(undefined);
    expect(items.every((li) => !li.dataset.svcQueryId)).to.equal(true);
    // No token created, and what the earlier page kept is forgotten.
    expect(insightsKeys()).to.deep.equal([]);
    expect(tokenCookie()).to.equal(undefined);

    await click(items[1]!);
    await click(items[2]!, 'middle');
    insights.convert(['p3'], 'Purchased');
    insights.filterApplied(INDEX, 'brand', 'Acme');
    await settleViews();
    await insights.flush();
    await sleep(200);
    expect(await storedEventsOfIndex(INDEX), 'the service stored nothing for the index').to.deep.equal([]);
    expect(insights.stats.requests + insights.stats.beacons).to.equal(0);
    expect(mirrored).to.deep.equal([]);
    expect(insightsKeys()).to.deep.equal([]);
    expect(tokenCookie()).to.equal(undefined);
  });

  it('insightsConsent set before <svc-search> is defined wins over the attribute from the start: a returning user keeps their token', async () => {
    // The markup denies consent; a consent banner that already knows the answer grants it by the property before the
    // element is defined (an own property of the plain element). Insights must be created with it: created with the
    // attribute's denial, it would forget the earlier page's token before the property applied.
    localStorage.setItem(TOKEN_KEY, 'anonymous-earlier-page');
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-search-defined-late
        app-id=${APP_ID}
        api-key=${SEARCH_KEY}
        hosts=${location.origin}
        index-name=${INDEX}
        insights-consent="false"
      >
        <svc-hits></svc-hits>
      </svc-search-defined-late>
    </div>`);
    const search = wrapper.firstElementChild as SvcSearch;
    expect(customElements.get('svc-search-defined-late')).to.equal(undefined);
    search.insightsConsent = true;
    // A subclass under a tag of its own: `svc-search` is defined already in this page.
    customElements.define('svc-search-defined-late', class extends SvcSearch {});
    expect(search.insightsConsent, 'taken at the upgrade').to.equal(true);
    expect(search.insights!.userToken).to.equal('anonymous-earlier-page');
    expect(localStorage.getItem(TOKEN_KEY)).to.equal('anonymous-earlier-page');
    expect(search.getAttribute('insights-consent')).to.equal('false', 'the attribute is not rewritten');
    await eventually(() => search.store!.getSnapshot().status === 'idle' && bodies(search).length > 0);
    expect(bodies(search)[0])
      .to.match(/"clickAnalytics":true/)
      .and.include('"userToken":"anonymous-earlier-page"');
    // The attribute still works after the upgrade.
    search.setAttribute('insights-consent', 'denied');
    expect(search.insightsConsent).to.equal(false);
    expect(localStorage.getItem(TOKEN_KEY)).to.equal(null);
  });

  it('insightsUserToken set before <svc-search> is defined is the token from the start, over the attribute', async () => {
    // A login script that knows the user sets the property before the element is defined (an own property of the
    // plain element). Insights must be created with it at the upgrade, as the consent is: taken only at the first
    // update, a microtask later, the element and its Insights would answer with the markup's or the anonymous token
    // to a script running right after the definition.
    const user = `user-early-${Date.now().toString(36)}`;
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-search-token-late
        app-id=${APP_ID}
        api-key=${SEARCH_KEY}
        hosts=${location.origin}
        index-name=${INDEX}
        insights-user-token="user-from-markup"
      >
        <svc-hits></svc-hits>
      </svc-search-token-late>
    </div>`);
    const search = wrapper.firstElementChild as SvcSearch;
    expect(customElements.get('svc-search-token-late')).to.equal(undefined);
    search.insightsUserToken = user;
    customElements.define('svc-search-token-late', class extends SvcSearch {});
    expect(search.insightsUserToken, 'taken at the upgrade').to.equal(user);
    expect(search.insights!.userToken).to.equal(user);
    // A conversion sent at once (no microtask since the definition), and a click on the first hits.
    search.insights!.convert(['p1'], 'Bought at once');
    expect(search.getAttribute('insights-user-token')).to.equal('user-from-markup', 'the attribute is not rewritten');
    await eventually(() => search.store!.getSnapshot().status === 'idle' && bodies(search).length > 0);
    expect(bodies(search)[0]).to.include(`"userToken":"${user}"`);
    let first: HTMLElement | null | undefined;
    await eventually(() => {
      first = search.querySelector('svc-hits')!.shadowRoot?.querySelector<HTMLElement>('li[data-svc-object-id]');
      return Boolean(first?.dataset.svcQueryId);
    });
    await click(first!);
    await search.insights!.flush();
    expect((await storedEvents(user, 'conversion')).map((e) => e.eventName)).to.deep.equal(['Bought at once']);
    expect((await storedEvents(user, 'click')).map((e) => e.objectIDs)).to.deep.equal([[first!.dataset.svcObjectId]]);
    expect(await storedEvents('user-from-markup')).to.deep.equal([]);
    // The attribute still works after the upgrade.
    search.setAttribute('insights-user-token', `${user}-b`);
    expect(search.insights!.userToken).to.equal(`${user}-b`);
    search.removeAttribute('insights-user-token');
    expect(search.insights!.userToken).to.match(/^anonymous-/);
  });

  it('granting consent at run time starts with a new anonymous token; withdrawing stops sending and forgets', async () => {
    localStorage.setItem(TOKEN_KEY, 'anonymous-earlier-page');
    const { search } = await render({ consent: 'false' });
    const insights = search.insights!;

    search.setAttribute('insights-consent', 'true');
    const token = insights.userToken!;
    expect(token)
      .to.match(/^anonymous-/)
      .and.not.equal('anonymous-earlier-page');
    expect(token).to.match(USER_TOKEN_PATTERN);
    expect(localStorage.getItem(TOKEN_KEY)).to.equal(token);
    // The search is made again with clickAnalytics and the token: the hits now carry its queryID.
    let queryID = '';
    const items = await renderedHits(search, (li) => {
      queryID = search.store!.getSnapshot().results?.queryID ?? '';
      return queryID !== '' && li.dataset.svcQueryId === queryID;
    });
    expect(bodies(search).at(-1))
      .to.match(/"clickAnalytics":true/)
      .and.include(`"userToken":"${token}"`);
    await click(items[2]!);
    await settleViews();
    await insights.flush();
    const clicks = await storedEvents(token, 'click');
    expect(clicks.map((e) => [e.objectIDs, e.positions, e.queryID])).to.deep.equal([[['p2'], [3], queryID]]);
    expect(JSON.parse(localStorage.getItem(WINDOW_KEY)!)).to.have.length(1);
    const sentWithConsent = (await storedEvents(token)).length;

    // A click is queued (sent a second later) when consent is withdrawn through the property.
    await click(items[3]!);
    expect(insights.queueSize).to.be.at.least(1);
    search.insightsConsent = false;
    expect(search.hasAttribute('insights-consent')).to.equal(true, 'the attribute is not rewritten');
    expect(insights.userToken).to.equal(undefined);
    expect(insights.queueSize).to.equal(0);
    expect(insightsKeys(), 'token, conversion window and queue forgotten').to.deep.equal([]);
    // Hits still show the old queryID: clicking them now sends and remembers nothing.
    await click(items[4]!);
    insights.convert(['p2'], 'Purchased');
    search.store!.setQuery('lamp');
    await renderedHits(search, (li) => !li.dataset.svcQueryId);
    expect(bodies(search).at(-1)).to.not.match(/clickAnalytics|userToken/);
    await settleViews();
    await insights.flush();
    await sleep(1200); // past the flush delay of the withdrawn click
    expect(await storedEvents(token)).to.have.length(sentWithConsent);
    expect(insightsKeys()).to.deep.equal([]);

    // Granted again: yet another token (the withdrawn one is not resurrected).
    search.removeAttribute('insights-consent');
    expect(search.insightsConsent).to.equal(true);
    expect(insights.userToken)
      .to.match(/^anonymous-/)
      .and.not.equal(token);
  });

  it('insights-cookie keeps the anonymous token in a first-party cookie, not in local storage', async () => {
    const { search, items } = await render({ cookie: true });
    const token = search.insights!.userToken!;
    expect(token)
      .to.match(/^anonymous-/)
      .and.match(USER_TOKEN_PATTERN);
    expect(tokenCookie()).to.equal(token);
    expect(localStorage.getItem(TOKEN_KEY)).to.equal(null);
    expect(bodies(search)[0], 'the first search carries it').to.include(`"userToken":"${token}"`);
    await click(items[0]!);
    await search.insights!.flush();
    expect((await storedEvents(token, 'click')).map((e) => e.objectIDs)).to.deep.equal([['p0']]);

    // The next page load finds it in the cookie.
    fixtureCleanup();
    await sleep(5);
    const next = await render({ cookie: true });
    expect(next.search.insights!.userToken).to.equal(token);
    // Without the cookie the same token moves to local storage and the cookie goes; the store stays.
    const store = next.search.store;
    const before = next.search.insights;
    next.search.removeAttribute('insights-cookie');
    await next.search.updateComplete;
    expect(next.search.insights).to.not.equal(before);
    expect(next.search.store).to.equal(store);
    expect(next.search.insights!.userToken).to.equal(token);
    expect(tokenCookie()).to.equal(undefined);
    expect(localStorage.getItem(TOKEN_KEY)).to.equal(token);
  });

  it('insights-user-token: searches and events carry the authenticated token, kept through consent changes; an invalid one is refused', async () => {
    const user = `user-${Date.now().toString(36)}`;
    const { search, items } = await render({ userToken: user });
    const insights = search.insights!;
    expect(insights.userToken).to.equal(user);
    expect(bodies(search)[0]).to.include(`"userToken":"${user}"`);
    await click(items[0]!);
    await insights.flush();
    expect((await storedEvents(user, 'click')).map((e) => e.objectIDs)).to.deep.equal([['p0']]);

    search.setAttribute('insights-consent', 'denied');
    expect(insights.userToken).to.equal(undefined);
    search.setAttribute('insights-consent', 'granted');
    expect(insights.userToken).to.equal(user);

    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      search.setAttribute('insights-user-token', 'has space');
    } finally {
      console.error = original;
    }
    expect(errors).to.have.length(1);
    expect(String(errors[0]![0])).to.match(/insights-user-token/);
    expect(insights.userToken, 'not the previous user either').to.match(/^anonymous-/);
    search.insightsUserToken = user;
    expect(insights.userToken).to.equal(user);
    search.removeAttribute('insights-user-token');
    expect(insights.userToken).to.match(/^anonymous-/);
  });

  it('insightsConsent and insightsUserToken are not reflected: the properties leave the attributes as they are', async () => {
    const { search } = await render({ consent: 'granted' });
    search.insightsConsent = false;
    search.insightsUserToken = 'user-by-property';
    await search.updateComplete;
    expect(search.insights!.userToken, 'the properties are applied').to.equal(undefined);
    expect(search.getAttribute('insights-consent')).to.equal('granted');
    expect(search.hasAttribute('insights-user-token')).to.equal(false);
    search.insightsConsent = true;
    await search.updateComplete;
    expect(search.insights!.userToken).to.equal('user-by-property');
    expect(search.getAttribute('insights-consent')).to.equal('granted');
    expect(search.hasAttribute('insights-user-token')).to.equal(false);
  });
});
