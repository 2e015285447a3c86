import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import { SvcSearch } from '../../src/elements/search/svc-search.js';
import { SEARCH_CONTEXT_EVENT } from '../../src/elements/base/svc-element.js';
import type { SvcHits } from '../../src/elements/hits/svc-hits.js';
import '../../src/elements/search/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/search-box/define.js';
import { APP_ID, SEARCH_KEY, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

/** A third-party component that puts svc elements in its own shadow root. */
class ShadowWrapper extends LitElement {
  override render() {
    return html`<div><svc-hits></svc-hits></div>`;
  }
}
customElements.define('test-shadow-wrapper', ShadowWrapper);

const names = (hits: SvcHits) => [...shadow(hits).querySelectorAll('li')].map((li) => li.textContent!.trim());

describe('<svc-search>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_search_el');
  });

  it('keystrokes that arrive within one animation frame make one search request', async () => {
    const root = await searchFixture(indexName, html`<svc-search-box></svc-search-box><svc-hits></svc-hits>`);
    const store = root.store!;
    const searches = () => store.requestLog.filter((entry) => entry.kind === 'search').length;
    const before = searches();
    const input = shadow(root.querySelector('svc-search-box')!).querySelector('input')!;
    // Right after a frame, three keystrokes in three tasks (each an input event, as a typist's are).
    await new Promise((resolve) => requestAnimationFrame(resolve));
    for (const value of ['s', 'sm', 'sma']) {
      input.value = value;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await new Promise((resolve) => setTimeout(resolve));
    }
    await settled(store);
    // One request (two if a frame happened to end between them); a search per keystroke made three.
    expect(searches() - before).to.be.within(1, 2);
    expect(store.getSnapshot().results!.query).to.equal('sma');
  });

  it('is accessible', async () => {
    const root = await searchFixture(indexName, html`<svc-search-box></svc-search-box><svc-hits></svc-hits>`);
    await expect(root).to.be.accessible();
  });

  it('creates client and store from its attributes and exposes store and context', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    expect(root.store).to.exist;
    expect(root.store!.baseIndex).to.equal(indexName);
    expect(root.context!.store).to.equal(root.store);
    expect(root.store!.client.appId).to.equal(APP_ID);
    expect(root.store!.getSnapshot().results!.nbHits).to.equal(36);
  });

  it('provides the store to elements inside other shadow roots', async () => {
    const root = await searchFixture(indexName, html`<test-shadow-wrapper></test-shadow-wrapper>`);
    const wrapper = root.querySelector('test-shadow-wrapper') as LitElement;
    await wrapper.updateComplete;
    const hits = wrapper.shadowRoot!.querySelector('svc-hits')!;
    await waitUntil(() => names(hits).length === 20, 'hits in the shadow root did not render');
    expect(names(hits)[0]).to.contain('model 0');
  });

  it('is found by id with search="…" from anywhere on the page, even when it comes later', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <svc-hits search="named-root"></svc-hits>
    </div>`);
    const hits = container.querySelector('svc-hits')!;
    expect(names(hits)).to.deep.equal([]);
    const root = document.createElement('svc-search');
    Object.assign(root, { id: 'named-root' });
    root.setAttribute('app-id', APP_ID);
    root.setAttribute('api-key', SEARCH_KEY);
    root.setAttribute('index-name', indexName);
    root.setAttribute('hosts', location.origin);
    root.setAttribute('insights', 'false');
    container.append(root);
    await settled(root.store!);
    await waitUntil(() => names(hits).length === 20, 'the named search was not found');
    root.remove();
  });

  it('answers elements that were upgraded before the root was defined', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <svc-late-search app-id=${APP_ID} api-key=${SEARCH_KEY} index-name=${indexName} hosts=${location.origin} insights="false">
        <svc-hits></svc-hits>
      </svc-late-search>
    </div>`);
    const hits = container.querySelector('svc-hits')!;
    await hits.updateComplete;
    customElements.define('svc-late-search', class extends SvcSearch {});
    const root = container.querySelector('svc-late-search') as SvcSearch;
    await settled(root.store!);
    await waitUntil(() => names(hits).length === 20, 'a late provider did not reach the early consumer');
  });

  it('takes a client or a store as properties (a given store is not disposed on removal)', async () => {
    const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });
    const store = createSearchStore({ client, indexName, initialState: { query: 'notebook' } });
    const root = await fixture<SvcSearch>(
      html`<svc-search insights="false" .store=${store}><svc-hits></svc-hits></svc-search>`,
    );
    expect(root.store).to.equal(store);
    await settled(store);
    const hits = root.querySelector('svc-hits')!;
    await waitUntil(() => names(hits).length > 0);
    expect(names(hits).every((name) => name.includes('notebook'))).to.be.true;
    root.remove();
    await new Promise((r) => setTimeout(r, 10));
    // The store searches while someone listens (its elements are gone): a headless listener.
    const unsubscribe = store.subscribe(() => {});
    store.setQuery('headset'); // would throw after dispose()
    await settled(store);
    expect(store.getSnapshot().results!.query).to.equal('headset');
    unsubscribe();
    store.dispose();

    const fromClient = await fixture<SvcSearch>(
      html`<svc-search insights="false" index-name=${indexName} .client=${client}><svc-hits></svc-hits></svc-search>`,
    );
    expect(fromClient.store!.client).to.equal(client);
  });

  it('rebuilds its store when index-name changes', async () => {
    const other = await createIndex('svc_search_other', [{ objectID: 'x1', name: 'lonely record', rank: 0 }]);
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const first = root.store!;
    root.setAttribute('index-name', other);
    await root.updateComplete;
    expect(root.store).to.not.equal(first);
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await waitUntil(() => names(hits).join() === 'lonely record');
  });

  it('reports a bad configuration clearly, once, and recovers when it is fixed', async () => {
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const root = await fixture<SvcSearch>(html`<svc-search insights="false" app-id=${APP_ID} api-key=${SEARCH_KEY}
        index-name=${indexName} hosts=${location.origin} .initialState=${{ page: -3 }}><svc-hits></svc-hits></svc-search>`);
      root.requestUpdate();
      await root.updateComplete;
      expect(root.store).to.be.undefined;
      expect(errors).to.have.length(1);
      expect(String(errors[0][0])).to.match(/^<svc-search>: .*page/);
      root.initialState = { query: 'dell' };
      root.setAttribute('index-name', `${indexName}`); // unchanged: no new attempt
      await root.updateComplete;
      expect(root.store).to.be.undefined;
      root.routing = true; // a configuration change: built again, with the fixed initial state
      await root.updateComplete;
      await settled(root.store!);
      expect(root.store!.getSnapshot().results!.nbHits).to.equal(6);
      expect(errors).to.have.length(1);
      root.remove();
    } finally {
      console.error = original;
    }
  });

  it('creates insights by default, none with insights="false"', async () => {
    const withInsights = await searchFixture(indexName, html`<svc-hits></svc-hits>`, { insights: true });
    expect(withInsights.insights).to.exist;
    expect(withInsights.context!.insights).to.equal(withInsights.insights);
    // Insights asks every search for a queryID; the hits carry it.
    await waitUntil(() => !!withInsights.store!.getSnapshot().results?.queryID);
    const hits = withInsights.querySelector('svc-hits')!;
    await waitUntil(() => !!shadow(hits).querySelector('li')?.getAttribute('data-svc-query-id'));
    const withoutInsights = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    expect(withoutInsights.insights).to.be.undefined;
    expect(withoutInsights.context!.insights).to.be.undefined;
  });

  it('turning insights on or off, or insights-cookie, recreates only insights: the store and its state stay', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const store = root.store!;
    store.setQuery('notebook');
    await settled(store);
    const hits = root.querySelector('svc-hits')!;
    expect(root.insights).to.be.undefined;
    // While a consent banner has not answered: insights="false" creates nothing and forgets nothing.
    localStorage.setItem('svc-insights-user-token', 'anonymous-kept');
    root.removeAttribute('insights');
    await root.updateComplete;
    expect(root.store).to.equal(store);
    expect(root.insights).to.exist;
    expect(root.context!.insights).to.equal(root.insights);
    expect(root.insights!.userToken).to.equal('anonymous-kept');
    // The store asks again with clickAnalytics; the hits get the queryID and report to the new module.
    await waitUntil(() => !!store.getSnapshot().results?.queryID && store.getSnapshot().results!.query === 'notebook');
    await waitUntil(() => !!shadow(hits).querySelector('li')?.getAttribute('data-svc-query-id'));
    const first = root.insights;
    root.insightsCookie = true;
    await root.updateComplete;
    expect(root.insights).to.not.equal(first);
    expect(root.store).to.equal(store);
    expect(root.insights!.userToken).to.equal('anonymous-kept');
    root.insights = 'false'; // as React 19 / Vue 3 set it
    await root.updateComplete;
    expect(root.insights).to.be.undefined;
    expect(root.store).to.equal(store);
    expect(store.getSnapshot().state.query).to.equal('notebook');
    document.cookie = '_svc_insights_token=; path=/; max-age=0';
    localStorage.removeItem('svc-insights-user-token');
  });

  it('reads insights-consent failing closed: only absent, "", "true" or "granted" grant it', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    expect(root.insightsConsent).to.equal(true);
    const read = (value: string | null) => {
      if (value === null) root.removeAttribute('insights-consent');
      else root.setAttribute('insights-consent', value);
      return root.insightsConsent;
    };
    expect(['false', 'denied', 'no', '0', 'ture'].map(read)).to.deep.equal([false, false, false, false, false]);
    expect(['', 'true', 'granted', 'GRANTED', null].map(read)).to.deep.equal([true, true, true, true, true]);
  });

  it('passes its translations to every element; an element’s own translations win', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-search-box></svc-search-box><svc-search-box id="own"></svc-search-box>`,
    );
    root.translations = { placeholder: 'Rechercher…' };
    const own = root.querySelector<HTMLElement & { translations?: Record<string, string> }>('#own')!;
    own.translations = { placeholder: 'Suchen…' };
    const [first] = root.querySelectorAll('svc-search-box');
    await waitUntil(() => shadow(first).querySelector('input')!.placeholder === 'Rechercher…');
    await waitUntil(() => shadow(own).querySelector('input')!.placeholder === 'Suchen…');
  });

  it('with routing, treats a hostile URL state as text', async () => {
    const original = location.href;
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const hostile = '"><img src=x onerror="window.__svcPwned=1"><script>window.__svcPwned=2</script>';
    history.replaceState(null, '', `${location.pathname}?q=${encodeURIComponent(hostile)}&page=abc`);
    try {
      const root =
        await fixture<SvcSearch>(html`<svc-search routing insights="false" app-id=${APP_ID} api-key=${SEARCH_KEY}
        index-name=${indexName} hosts=${location.origin}><svc-search-box></svc-search-box><svc-hits></svc-hits></svc-search>`);
      await settled(root.store!);
      const [box, hits] = [root.querySelector('svc-search-box')!, root.querySelector('svc-hits')!];
      await box.updateComplete;
      await hits.updateComplete;
      await new Promise((r) => setTimeout(r, 100));
      expect(shadow(box).querySelector('input')!.value).to.equal(hostile);
      expect(shadow(hits).querySelector('[part="empty"]')!.textContent).to.contain(hostile);
      expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
      expect(deepQueryAll(root, 'img, script, [onerror]')).to.deep.equal([]);
      root.remove();
    } finally {
      history.replaceState(null, '', original);
    }
  });

  it('with routing, reads the state from the URL and writes it back', async () => {
    const original = location.href;
    history.replaceState(null, '', `${location.pathname}?q=notebook`);
    try {
      const root =
        await fixture<SvcSearch>(html`<svc-search routing insights="false" app-id=${APP_ID} api-key=${SEARCH_KEY}
        index-name=${indexName} hosts=${location.origin}><svc-hits></svc-hits></svc-search>`);
      await settled(root.store!);
      expect(root.store!.getSnapshot().state.query).to.equal('notebook');
      root.store!.setPage(1);
      await waitUntil(() => new URLSearchParams(location.search).get('page') === '2', 'page not written', {
        timeout: 3000,
      });
      expect(new URLSearchParams(location.search).get('q')).to.equal('notebook');
      // Back restores the previous state.
      history.back();
      await waitUntil(() => root.store!.getSnapshot().state.page === 0, 'popstate not restored', { timeout: 3000 });
    } finally {
      history.replaceState(null, '', original);
    }
  });

  describe('properties set before <svc-search> is defined (React 19, Vue, Angular, a script before the module)', () => {
    // Each test defines a subclass under a tag of its own after the markup: `svc-search` is defined in this page.
    // The property set on the plain element must count as if it had been set on a defined element before it was
    // connected: one store, built with it before its first search.

    /** The `/1/indexes/*\/queries` requests the page sent since `performance.clearResourceTimings()`. */
    const queries = () =>
      performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('/queries'));

    it('initialState is the state of the first search', async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div>
        <svc-search-state-late
          app-id=${APP_ID}
          api-key=${SEARCH_KEY}
          hosts=${location.origin}
          index-name=${indexName}
          insights="false"
        >
          <svc-hits></svc-hits>
        </svc-search-state-late>
      </div>`);
      const root = wrapper.firstElementChild as SvcSearch;
      expect(customElements.get('svc-search-state-late')).to.equal(undefined);
      root.initialState = { query: 'notebook', hitsPerPage: 5 };
      customElements.define('svc-search-state-late', class extends SvcSearch {});
      const store = root.store!;
      const atOnce = store.getSnapshot().state.query;
      await root.updateComplete;
      await settled(root.store!);
      const first = root.store!.requestLog.find((entry) => entry.kind === 'search');
      expect(JSON.stringify(first!.body)).to.include('"query":"notebook"').and.include('"hitsPerPage":5');
      // The service's answer: the 12 notebooks, 5 a page.
      const { results } = root.store!.getSnapshot();
      expect(results!.query).to.equal('notebook');
      expect(results!.nbHits).to.equal(12);
      expect(results!.hits).to.have.length(5);
      expect(root.store).to.equal(store, 'one store, there at once after the definition');
      expect(atOnce).to.equal('notebook');
    });

    it('client with the other configuration in attributes: one store, one first search request', async () => {
      const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });
      const wrapper = await fixture<HTMLDivElement>(html`<div>
        <svc-search-client-late
          app-id=${APP_ID}
          api-key=${SEARCH_KEY}
          hosts=${location.origin}
          index-name=${indexName}
          insights="false"
        >
          <svc-hits></svc-hits>
        </svc-search-client-late>
      </div>`);
      const root = wrapper.firstElementChild as SvcSearch;
      root.client = client;
      root.initialState = { query: 'headset' };
      const published: unknown[] = [];
      root.addEventListener(SEARCH_CONTEXT_EVENT, () => published.push(root.context?.store));
      performance.clearResourceTimings();
      customElements.define('svc-search-client-late', class extends SvcSearch {});
      const atOnce = root.store!.client;
      await root.updateComplete;
      await settled(root.store!);
      expect(root.store!.getSnapshot().results!.query).to.equal('headset');
      await waitUntil(() => queries().length > 0, 'no search request seen');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(queries()).to.have.length(1);
      // A store built from the attributes at the connection and torn down at the first update was published too.
      expect(published).to.deep.equal([root.store]);
      expect(atOnce, 'the given client at once').to.equal(client);
    });

    it('store and insights (accessors Lit does not manage) are taken at the upgrade', async () => {
      const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });
      const store = createSearchStore({ client, indexName, initialState: { query: 'dell' } });
      const wrapper = await fixture<HTMLDivElement>(html`<div>
        <svc-search-store-late app-id=${APP_ID} api-key=${SEARCH_KEY} hosts=${location.origin} index-name=${indexName}>
          <svc-hits></svc-hits>
        </svc-search-store-late>
      </div>`);
      const root = wrapper.firstElementChild as SvcSearch;
      root.store = store;
      // What React 19 and Vue do with `insights="false"` on an element that has the property once defined.
      (root as unknown as { insights: unknown }).insights = 'false';
      customElements.define('svc-search-store-late', class extends SvcSearch {});
      expect(Object.hasOwn(root, 'store')).to.equal(false);
      expect(root.context!.store, 'the given store is provided').to.equal(store);
      expect(root.insightsEnabled).to.equal(false);
      expect(root.insights).to.equal(undefined);
      await settled(store);
      const hits = root.querySelector('svc-hits')!;
      await waitUntil(() => names(hits).length === 6, 'the elements did not search the given store');
      root.remove();
      await new Promise((resolve) => setTimeout(resolve, 10));
      store.dispose();
    });
  });
});
