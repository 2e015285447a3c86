import { expect, html, waitUntil } from '@open-wc/testing';
import type { SvcHits } from '../../src/elements/hits/svc-hits.js';
import '../../src/elements/hits/define.js';
import { APP_ID, HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { fixture } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';

const items = (hits: Element) => [...shadow(hits).querySelectorAll<HTMLLIElement>('li[part~="item"]')];
const texts = (hits: Element) => items(hits).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());

describe('<svc-hits>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_hits_el');
    hostileIndex = await createIndex('svc_hits_hostile', HOSTILE);
  });

  it('is accessible', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    await expect(hits).to.be.accessible();
    const list = shadow(hits).querySelector('ol')!;
    expect(list.getAttribute('aria-label')).to.equal('Search results');
    expect(list.getAttribute('aria-busy')).to.equal('false');
  });

  it('shows one li per hit with the highlighted name, also for a typo query', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    expect(items(hits)).to.have.length(20);
    root.store!.setQuery('notebok'); // one typo
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)).to.have.length(12);
    expect(texts(hits).every((text) => /notebook model \d+/.test(text))).to.be.true;
    const marks = shadow(hits).querySelectorAll('li mark[part="highlighted"]');
    expect(marks.length).to.equal(12);
    // The typo match is highlighted (the engine marks the matched prefix of the word).
    expect(marks[0].textContent).to.match(/^noteboo/);
  });

  it('shows only refined hits after a refinement', async () => {
    const root = await searchFixture(indexName, html`<svc-hits attribute="brand"></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    root.store!.toggleRefinement('brand', 'Sony', 'or');
    await settled(root.store!);
    await hits.updateComplete;
    expect(texts(hits)).to.deep.equal(Array(6).fill('Sony'));
  });

  it('puts objectID, absolute position, queryID and index on each li, and reports them to insights', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`, { insights: true });
    const hits = root.querySelector('svc-hits')!;
    root.store!.setHitsPerPage(10);
    root.store!.setPage(1);
    await settled(root.store!);
    await hits.updateComplete;
    const queryID = root.store!.getSnapshot().results!.queryID!;
    expect(queryID).to.be.a('string');
    const lis = items(hits);
    expect(lis).to.have.length(10);
    expect(lis.map((li) => li.dataset.svcPosition)).to.deep.equal(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
    expect(lis[2].dataset.svcObjectId).to.equal('p12');
    expect(lis[2].dataset.svcQueryId).to.equal(queryID);
    expect(lis[2].dataset.svcIndex).to.equal(indexName);

    // The li was passed to insights.observe: a click inside it is a `Hit Clicked` with its position.
    const clicks: CustomEvent[] = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventType === 'click') clicks.push(e);
    });
    lis[2].click();
    await waitUntil(() => clicks.length === 1, 'no click event for the observed hit');
    expect(clicks[0].detail.event).to.include({ eventName: 'Hit Clicked', queryID, index: indexName });
    expect(clicks[0].detail.event.objectIDs).to.deep.equal(['p12']);
    expect(clicks[0].detail.event.positions).to.deep.equal([13]);

    // After a page change, the old items are unobserved and the new ones carry new positions.
    root.store!.setPage(2);
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)[0].dataset.svcPosition).to.equal('21');
    items(hits)[0].click();
    await waitUntil(() => clicks.length === 2);
    expect(clicks[1].detail.event.positions).to.deep.equal([21]);
  });

  it('renders a <template> child with fields, highlight and snippet', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-hits>
        <template>
          <style>.price { font-weight: bold; }</style>
          <a part="link" data-href="url"><img data-src="image" data-attr-alt="name" loading="lazy" hidden /><svc-highlight attribute="name"></svc-highlight></a>
          <svc-snippet attribute="description" words="5"></svc-snippet>
          <span class="price" data-text="price"></span>
        </template>
      </svc-hits>`,
    );
    const hits = root.querySelector('svc-hits')!;
    root.store!.setQuery('headset battery');
    await settled(root.store!);
    await hits.updateComplete;
    const first = items(hits)[0];
    expect(first.querySelector('a')!.getAttribute('href')).to.equal('/products/p2');
    expect(first.querySelector('img')!.getAttribute('src')).to.equal('/images/p2.png');
    expect(first.querySelector('img')!.getAttribute('alt')).to.equal('Google headset model 2');
    expect(first.querySelector('.price')!.textContent).to.equal('120');
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal('Google headset model 2');
    expect(highlight.shadowRoot!.querySelector('mark')!.textContent).to.equal('headset');
    // The snippet was asked for (attributesToSnippet) because the template uses <svc-snippet>.
    const body = JSON.stringify(root.store!.requestLog.at(-1)!.body);
    expect(body).to.contain('description:5');
    const snippet = first.querySelector('svc-snippet')!;
    await snippet.updateComplete;
    expect(snippet.shadowRoot!.textContent!.split(/\s+/).filter(Boolean).length).to.be.at.most(7);
    expect(snippet.shadowRoot!.querySelector('mark')!.textContent).to.equal('battery');
    // The template's <style> applies inside the shadow root, once.
    expect(getComputedStyle(first.querySelector('.price')!).fontWeight).to.equal('700');
    expect(shadow(hits).querySelectorAll('style').length).to.equal(1);
  });

  it('lets the keyboard reach a link in a hit; Enter on it is a Hit Clicked with its position', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-hits><template><a data-href="url"><svc-highlight attribute="name"></svc-highlight></a></template></svc-hits>`,
      { insights: true },
    );
    const hits = root.querySelector('svc-hits')!;
    await waitUntil(() => !!shadow(hits).querySelector('li a')?.getAttribute('href'));
    const clicks: Array<{ positions?: number[]; objectIDs?: string[] }> = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventType === 'click') clicks.push(e.detail.event);
    });
    // Cancel the navigation the test page would otherwise do (after insights saw the click).
    shadow(hits).addEventListener('click', (e) => e.preventDefault());
    const links = shadow(hits).querySelectorAll('a');
    links[0].focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(hits).activeElement).to.equal(links[1]);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => clicks.length === 1, 'no click from the keyboard');
    expect(clicks[0].objectIDs).to.deep.equal(['p1']);
    expect(clicks[0].positions).to.deep.equal([2]);
  });

  it('renders with a renderHit function', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    hits.renderHit = (hit, { position }) => html`<strong>${position}: ${hit.objectID}</strong>`;
    await hits.updateComplete;
    expect(texts(hits).slice(0, 2)).to.deep.equal(['1: p0', '2: p1']);
  });

  it('works without <svc-search> when given a store property', async () => {
    const { createClient } = await import('../../src/client/index.js');
    const { createSearchStore } = await import('../../src/store/index.js');
    const store = createSearchStore({
      client: createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] }),
      indexName,
      initialState: { query: 'dell' },
    });
    const hits = await fixture<SvcHits>(html`<svc-hits attribute="brand" .store=${store}></svc-hits>`);
    await settled(store);
    await hits.updateComplete;
    expect(texts(hits)).to.deep.equal(Array(6).fill('Dell'));
    hits.remove();
    store.dispose();
  });

  it('shows the empty state in a live region', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    root.store!.setQuery('qqqqxxxzzz');
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)).to.have.length(0);
    const status = shadow(hits).querySelector('[role="status"]')!;
    expect(status.textContent!.trim()).to.equal('No results for “qqqqxxxzzz”.');
    expect(shadow(hits).querySelector('ol')!.hidden).to.be.true;
    hits.translations = { noResults: 'Aucun résultat pour « {query} ».' };
    await hits.updateComplete;
    expect(status.textContent!.trim()).to.equal('Aucun résultat pour « qqqqxxxzzz ».');
    await expect(hits).to.be.accessible();
  });

  it('shows the store error politely', async () => {
    const root = await fixture<SvcSearch>(html`<svc-search app-id=${APP_ID} api-key="not-a-key" index-name=${indexName}
      hosts=${location.origin} insights="false"><svc-hits></svc-hits></svc-search>`);
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(root.store!.getSnapshot().status).to.equal('error');
    const error = shadow(hits).querySelector('[part="error"]')!;
    expect(error.textContent).to.equal('The search is unavailable right now. Please try again.');
    expect(error.closest('[role="status"]')).to.exist;
  });

  it('never executes nor injects hostile record values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const root = await searchFixture(
      hostileIndex,
      html`<svc-hits>
        <template>
          <a data-href="url" data-attr-title="name" data-attr-onclick="name" data-attr-style="name"><img data-src="image" data-attr-alt="brand" /></a>
          <svc-highlight attribute="name"></svc-highlight> <svc-highlight attribute="brand"></svc-highlight>
          <svc-snippet attribute="description"></svc-snippet> <span data-text="category"></span>
        </template>
      </svc-hits>
      <svc-hits id="default"></svc-hits>`,
    );
    root.store!.setQuery('phone');
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    await new Promise((r) => setTimeout(r, 100)); // let any injected image error handler run
    expect(items(hits)).to.have.length(2);
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(deepQueryAll(root, 'script, [onerror], [onload], [onmouseover], [onclick], svg, b, [style]')).to.deep.equal([]);
    const first = items(hits).find((li) => li.dataset.svcObjectId === 'evil1')!;
    const second = items(hits).find((li) => li.dataset.svcObjectId === 'evil2')!;
    expect(first.querySelector('a')!.hasAttribute('href')).to.be.false; // javascript: refused
    expect(second.querySelector('a')!.hasAttribute('href')).to.be.false; // obfuscated javascript: refused
    expect(first.querySelector('img')!.hasAttribute('src')).to.be.false;
    expect(second.querySelector('img')!.hasAttribute('src')).to.be.false; // data: refused
    expect(first.querySelector('a')!.getAttribute('title')).to.equal(HOSTILE[0].name); // plain attribute text
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal('Evil <script>window.__svcPwned = 1</script> phone');
    expect(highlight.shadowRoot!.querySelector('mark')!.textContent).to.equal('phone');
    const snippet = first.querySelector('svc-snippet')!;
    await snippet.updateComplete;
    expect(snippet.shadowRoot!.textContent).to.contain('<b onmouseover="window.__svcPwned = 3">bold</b> &amp; <em');
    expect(snippet.shadowRoot!.querySelectorAll('mark').length).to.equal(1); // only the real match
    expect(second.querySelector('span')!.textContent).to.equal(HOSTILE[1].category);
    const fallback = root.querySelector('#default')!;
    await waitUntil(() => texts(fallback).length === 2);
    expect(texts(fallback)).to.include('Evil <script>window.__svcPwned = 1</script> phone');
  });
});
