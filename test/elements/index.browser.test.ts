import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { SvcIndex } from '../../src/elements/index/svc-index.js';
import type { SearchStore } from '../../src/store/types.js';
import '../../src/elements/index/define.js';
import '../../src/elements/search-box/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/pagination/define.js';
import '../../src/elements/configure/define.js';
import { APP_ID, SEARCH_KEY, createIndex, searchFixture, settled, shadow } from './search-fixture.js';
import { storedEvents } from '../insights/helpers.js';

const AUTHORS = ['Ann', 'Bob', 'Cy'];
const TOPICS = ['notebook', 'smartphone', 'headset'];
/** 30 articles about the products' kinds: `a0`…`a29`, three authors, ranked by `rank`. */
const ARTICLES = Array.from({ length: 30 }, (_, i) => ({
  objectID: `a${i}`,
  name: `${TOPICS[i % 3]} ${['review', 'guide'][Math.floor(i / 3) % 2]} ${i}`,
  author: AUTHORS[Math.floor(i / 10)],
  rank: i,
}));

const items = (hits: Element) => [...shadow(hits).querySelectorAll('li[part~="item"]')];
const texts = (hits: Element) => items(hits).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
const marks = (hits: Element) =>
  [...shadow(hits).querySelectorAll('li mark[part="highlighted"]')].map((m) => m.textContent);
/** Multi-query HTTP requests the page made since `since` (Resource Timing). */
const searchCalls = (since: number) =>
  performance
    .getEntriesByType('resource')
    .filter((e) => e.startTime >= since && e.name.includes('/1/indexes/*/queries')).length;
const indicesOf = (store: SearchStore, entry = store.requestLog.at(-1)!) =>
  (entry.body as { requests: Array<{ indexName: string }> }).requests.map((r) => r.indexName);

describe('<svc-index>', () => {
  let products: string;
  let articles: string;
  before(async () => {
    products = await createIndex('svc_index_products');
    articles = await createIndex('svc_index_articles', ARTICLES, {
      searchableAttributes: ['name', 'author'],
      attributesForFaceting: ['author'],
    });
  });

  async function render() {
    const root = await searchFixture(
      products,
      html`<svc-search-box></svc-search-box>
        <svc-hits id="product-hits"></svc-hits>
        <svc-index index-name=${articles}>
          <svc-refinement-list attribute="author"></svc-refinement-list>
          <svc-hits id="article-hits"></svc-hits>
          <svc-pagination></svc-pagination>
        </svc-index>`,
    );
    const index = root.querySelector<SvcIndex>('svc-index')!;
    const child = index.indexStore!;
    await settled(child);
    return {
      root,
      index,
      child,
      productHits: root.querySelector('#product-hits')!,
      articleHits: root.querySelector('#article-hits')!,
    };
  }

  it('is accessible, adds no box, and gives the elements inside the index’s store', async () => {
    const { root, index, child, productHits, articleHits } = await render();
    await expect(root).to.be.accessible();
    expect(getComputedStyle(index).display).to.equal('contents');
    expect(child.baseIndex).to.equal(articles);
    expect(child.parent).to.equal(root.store);
    expect(root.store!.indices.get(articles)).to.equal(child);
    expect((articleHits as unknown as { store: SearchStore }).store).to.equal(child);
    expect(items(productHits)).to.have.length(20);
    expect(items(articleHits)).to.have.length(20);
    expect(texts(articleHits).every((text) => / (review|guide) \d+$/.test(text))).to.be.true;
    const authors = [...shadow(root.querySelector('svc-refinement-list')!).querySelectorAll('input[type="checkbox"]')]
      .length;
    expect(authors).to.equal(3);
  });

  it('typing a query: one HTTP request per keystroke state for both indices; both lists show their highlighted hits', async () => {
    const { root, child, productHits, articleHits } = await render();
    const store = root.store!;
    const input = shadow(root.querySelector('svc-search-box')!).querySelector('input')!;
    input.focus();
    const since = performance.now();
    const logged = store.requestLog.length;
    for (const letter of 'head') {
      await sendKeys({ type: letter });
      await settled(store);
      await settled(child);
    }
    const sent = store.requestLog.slice(logged).filter((e) => e.kind === 'search' && !e.cached);
    expect(sent.length).to.equal(4, 'one request per letter');
    expect(searchCalls(since)).to.equal(4, 'as many HTTP requests');
    for (const entry of sent) expect(indicesOf(store, entry)).to.deep.equal([products, articles]);
    expect(child.getSnapshot().state.query).to.equal('head');
    await waitUntil(
      () => texts(articleHits).length === 10 && texts(productHits).length === 12,
      'both lists show the headsets',
    );
    expect(texts(productHits).every((text) => text.includes('headset'))).to.be.true;
    expect(texts(articleHits).every((text) => text.startsWith('headset '))).to.be.true;
    expect(marks(productHits).every((m) => m!.toLowerCase().startsWith('head'))).to.be.true;
    expect(marks(articleHits)).to.have.length(10);
    expect(marks(articleHits).every((m) => m!.startsWith('head'))).to.be.true;
    await expect(root).to.be.accessible();
  });

  it('Insights: the index’s searches ask for a queryID and a click on its third hit is sent with that queryID, index and position', async () => {
    const root = await searchFixture(
      products,
      html`<svc-hits id="product-hits"></svc-hits>
        <svc-index index-name=${articles}><svc-hits id="article-hits"></svc-hits></svc-index>`,
      { insights: true },
    );
    const child = root.querySelector<SvcIndex>('svc-index')!.indexStore!;
    await settled(child);
    const body = child.requestLog.at(-1)!.body as {
      requests: Array<{ indexName: string; params: Record<string, unknown> }>;
    };
    const asked = body.requests.find((r) => r.indexName === articles)!.params;
    expect(asked.clickAnalytics).to.equal(true);
    const userToken = asked.userToken as string;
    expect(userToken).to.be.a('string').and.not.equal('');
    const queryID = child.getSnapshot().results!.queryID!;
    expect(queryID).to.match(/^[0-9a-f]{32}$/);
    expect(queryID).to.not.equal(root.store!.getSnapshot().results!.queryID);
    const third = items(root.querySelector('#article-hits')!)[2] as HTMLElement;
    expect(third.dataset.svcQueryId ?? third.getAttribute('data-svc-query-id')).to.equal(queryID);
    third.click();
    await root.insights!.flush();
    const clicks = (await storedEvents(userToken, 'click')).filter((e) => e.queryID === queryID);
    expect(clicks).to.have.length(1);
    expect(clicks[0]).to.include({ eventName: 'Hit Clicked', index: articles });
    expect(clicks[0]!.objectIDs).to.deep.equal(['a2']);
    expect(clicks[0]!.positions).to.deep.equal([3]);
    expect(clicks[0]!.search?.indexName).to.equal(articles);
  });

  it('a refinement inside changes only that index; its pagination pages that index', async () => {
    const { root, child, productHits, articleHits } = await render();
    const store = root.store!;
    const list = root.querySelector('svc-refinement-list')!;
    const bob = () =>
      [...shadow(list).querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].find((c) =>
        c.closest('label')!.textContent!.includes('Bob'),
      )!;
    const logged = store.requestLog.length;
    bob().click();
    await settled(child);
    expect(child.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ author: ['Bob'] });
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({});
    expect(store.requestLog.length).to.equal(logged + 1);
    expect(indicesOf(store)).to.deep.equal([articles, articles], 'only the index’s queries (main and author)');
    await waitUntil(() => items(articleHits).length === 10);
    expect(texts(articleHits)).to.deep.equal(ARTICLES.filter((a) => a.author === 'Bob').map((a) => a.name));
    expect(items(productHits)).to.have.length(20);

    bob().click(); // back to 30 articles: two pages of 20
    expect(child.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({});
    await settled(child);
    const pagination = root.querySelector('svc-pagination')!;
    const next = () => shadow(pagination).querySelector<HTMLAnchorElement>('a[part~="next"][href]');
    await waitUntil(() => next(), 'a next-page link');
    // A link of the index's pagination is the whole page's URL with the index's next page.
    expect(next()!.getAttribute('href')).to.equal(`?${articles}.q=&${articles}.page=2`);
    next()!.click();
    await settled(child);
    expect(child.getSnapshot().state.page).to.equal(1);
    expect(store.getSnapshot().state.page).to.equal(0);
    await waitUntil(() => items(articleHits).length === 10);
    expect(store.toQueryString()).to.equal(`${articles}.q=&${articles}.page=2`);
  });

  it('removing <svc-index> disposes its index: no more queries for it', async () => {
    const { root, index, child } = await render();
    const store = root.store!;
    index.remove();
    await new Promise((r) => setTimeout(r, 10));
    expect(store.indices.size).to.equal(0);
    expect(() => child.setQuery('x')).to.throw(/dispose/);
    store.setQuery('notebook');
    await settled(store);
    expect(indicesOf(store)).to.deep.equal([products]);
    expect(store.toQueryString()).to.equal('q=notebook');
  });

  it('moving <svc-index> keeps its index and state', async () => {
    const { root, index, child } = await render();
    child.setPage(1);
    root.append(index); // disconnect + connect in one task
    await new Promise((r) => setTimeout(r, 10));
    expect(index.indexStore).to.equal(child);
    expect(root.store!.indices.get(articles)).to.equal(child);
    expect(child.getSnapshot().state.page).to.equal(1);
  });

  it('index-id: the same index twice under the root, each with its own refinements and URL keys', async () => {
    const root = await searchFixture(
      products,
      html`<svc-hits id="all"></svc-hits>
        <svc-index index-name=${articles} index-id="ann">
          <svc-refinement-list attribute="author"></svc-refinement-list>
          <svc-hits id="ann-hits"></svc-hits>
        </svc-index>
        <svc-index index-name=${articles} index-id="bob">
          <svc-hits id="bob-hits"></svc-hits>
        </svc-index>`,
    );
    const [ann, bob] = [...root.querySelectorAll<SvcIndex>('svc-index')].map((index) => index.indexStore!);
    expect([...root.store!.indices.keys()]).to.deep.equal(['ann', 'bob']);
    expect([ann!.baseIndex, bob!.baseIndex]).to.deep.equal([articles, articles]);
    ann!.toggleRefinement('author', 'Ann', 'or');
    bob!.toggleRefinement('author', 'Bob', 'and');
    await settled(ann!);
    await settled(bob!);
    expect(indicesOf(root.store!)).to.deep.equal(
      [articles, articles, articles],
      'one request: Ann (and her facet), Bob',
    );
    await waitUntil(
      () =>
        items(root.querySelector('#ann-hits')!).length === 10 && items(root.querySelector('#bob-hits')!).length === 10,
    );
    expect(texts(root.querySelector('#ann-hits')!)).to.deep.equal(
      ARTICLES.filter((a) => a.author === 'Ann').map((a) => a.name),
    );
    expect(texts(root.querySelector('#bob-hits')!)).to.deep.equal(
      ARTICLES.filter((a) => a.author === 'Bob').map((a) => a.name),
    );
    expect(items(root.querySelector('#all')!)).to.have.length(20);
    expect(root.store!.toQueryString()).to.equal(
      `ann.q=&ann.sortBy=${articles}&ann.refinementList[author]=Ann&bob.q=&bob.sortBy=${articles}&bob.facets[author]=Bob`,
    );
  });

  it('a missing index shows its error alone: the root and the other index show their results', async () => {
    const root = await searchFixture(
      products,
      html`<svc-hits id="all"></svc-hits>
        <svc-index index-name=${articles}><svc-hits id="article-hits"></svc-hits></svc-index>
        <svc-index index-name="svc_index_nowhere"><svc-hits id="missing-hits"></svc-hits></svc-index>`,
    );
    const [present, missing] = [...root.querySelectorAll<SvcIndex>('svc-index')].map((index) => index.indexStore!);
    await settled(present!);
    await settled(missing!);
    expect(root.store!.getSnapshot().status).to.equal('idle');
    expect(present!.getSnapshot().status).to.equal('idle');
    expect(missing!.getSnapshot().status).to.equal('error');
    await waitUntil(() => items(root.querySelector('#article-hits')!).length === 20, 'the articles');
    expect(items(root.querySelector('#all')!)).to.have.length(20);
    const error = shadow(root.querySelector('#missing-hits')!).querySelector('[role="status"]')!;
    await waitUntil(() => error.textContent!.trim() !== '', 'the missing index’s error state');
    expect(items(root.querySelector('#missing-hits')!)).to.have.length(0);
    for (const id of ['#all', '#article-hits'])
      expect(shadow(root.querySelector(id)!).querySelector('[role="status"]')!.textContent!.trim()).to.equal('');
    await expect(root).to.be.accessible();
  });

  it('a root <svc-configure> flows down to added indices under their own; `local` keeps it to the root', async () => {
    const root = await searchFixture(
      products,
      html`<svc-configure hits-per-page="5" analytics-tags="shop" filters="rank < 25"></svc-configure>
        <svc-hits id="all"></svc-hits>
        <svc-index index-name=${articles}>
          <svc-configure hits-per-page="7"></svc-configure>
          <svc-hits id="article-hits"></svc-hits>
        </svc-index>`,
    );
    const child = root.querySelector<SvcIndex>('svc-index')!.indexStore!;
    await settled(child);
    /** The parameters of the last query sent for `indexName`. */
    const params = (indexName: string) => {
      const bodies = root.store!.requestLog.map(
        (entry) => entry.body as { requests: Array<{ indexName: string; params: Record<string, unknown> }> },
      );
      return bodies.flatMap((body) => body.requests).findLast((r) => r.indexName === indexName)!.params;
    };
    await waitUntil(() => items(root.querySelector('#article-hits')!).length === 7, 'the index’s own hitsPerPage wins');
    expect(items(root.querySelector('#all')!)).to.have.length(5);
    expect(params(articles)).to.include({ hitsPerPage: 7, filters: 'rank < 25' });
    expect(params(articles).analyticsTags).to.deep.equal(['shop']);
    expect(child.getSnapshot().results!.nbHits).to.equal(25, 'the root’s filters apply to the index');

    root.querySelector('svc-configure')!.setAttribute('local', '');
    await settled(root.store!);
    await settled(child);
    await waitUntil(() => child.getSnapshot().results!.nbHits === 30, 'the root’s filters no longer apply');
    expect(params(articles).filters).to.equal(undefined);
    expect(params(articles).analyticsTags).to.equal(undefined);
    expect(params(products)).to.include({ hitsPerPage: 5, filters: 'rank < 25' });
  });

  it('initialState and indexName set before <svc-index> is defined are those of the index from the start', async () => {
    // React 19, Vue, Angular or a script set the properties on the plain element; the element is defined later (a
    // subclass under a tag of its own: `svc-index` is defined in this page). Lit restores them at the first update
    // only, after the index was added without them (initialState is read only when the index is added).
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-search app-id=${APP_ID} api-key=${SEARCH_KEY} hosts=${location.origin} index-name=${products} insights="false">
        <svc-index-late index-name=${products}><svc-hits></svc-hits></svc-index-late>
      </svc-search>
    </div>`);
    const index = wrapper.querySelector('svc-index-late') as SvcIndex;
    expect(customElements.get('svc-index-late')).to.equal(undefined);
    index.indexName = articles;
    index.initialState = { query: 'guide', hitsPerPage: 4 };
    const since = performance.now();
    customElements.define('svc-index-late', class extends SvcIndex {});
    const child = index.indexStore!;
    const atOnce = { index: child.baseIndex, query: child.getSnapshot().state.query };
    await settled(child);
    // The service's answer to the index's first search: the 15 guides, 4 a page.
    const { results } = child.getSnapshot();
    expect(results!.query).to.equal('guide');
    expect(results!.nbHits).to.equal(15);
    expect(results!.hits).to.have.length(4);
    expect(index.indexStore).to.equal(child, 'one index');
    expect(atOnce).to.deep.equal({ index: articles, query: 'guide' });
    await waitUntil(() => searchCalls(since) > 0);
    // The first request that asked the service for the articles carried the initial state.
    const first = child.requestLog.find(
      (entry) => entry.kind === 'search' && indicesOf(child, entry).includes(articles),
    );
    expect(JSON.stringify(first!.body)).to.include('"query":"guide"').and.include('"hitsPerPage":4');
  });
});
