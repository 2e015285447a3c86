/**
 * Inside another web component's shadow root, with the example users copy (examples/shadow-root/
 * shop-panel.ts): the elements find their `<svc-search>` — through the context across shadow roots, or by `search="id"` — and clicks on hits rendered two shadow
 * roots deep still reach insights (composed paths). The click events are read back from the service's
 * insights admin listing (`GET /1/_local/events`). Real local service.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import { SearchWidget, ShopPanel, SideResults } from '../../examples/shadow-root/shop-panel.js';
import { APP_ID, SEARCH_KEY, hitTexts, indexProducts, storedEvents, until, clearInsightsStorage } from './fixture.js';

describe('inside a shadow root of another web component', () => {
  let indexName: string;
  const cleanup: Element[] = [];

  before(async () => {
    indexName = await indexProducts('embed_shadow');
    // The example registers its components when imported (package.json sideEffects would drop a bare import).
    expect(customElements.get('shop-panel') === ShopPanel, 'shop-panel registered by the example').to.equal(true);
    expect(customElements.get('side-results') === SideResults, 'side-results registered by the example').to.equal(true);
    expect(customElements.get('search-widget') === SearchWidget, 'search-widget registered by the example').to.equal(
      true,
    );
  });

  after(() => clearInsightsStorage());

  afterEach(() => {
    for (const el of cleanup.splice(0)) el.remove();
  });

  function searchRoot(id: string, inner: string): SvcSearch {
    const search = document.createElement('svc-search');
    search.id = id;
    search.setAttribute('app-id', APP_ID);
    search.setAttribute('api-key', SEARCH_KEY);
    search.setAttribute('index-name', indexName);
    search.setAttribute('hosts', location.origin);
    search.innerHTML = inner;
    document.body.append(search);
    cleanup.push(search);
    return search;
  }

  it('elements in the shadow root find the <svc-search> around their host and search together', async () => {
    const search = searchRoot('outer-search', '<shop-panel></shop-panel>');
    const panel = search.querySelector('shop-panel')!.shadowRoot!;
    const hits = panel.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits in the shadow root');
    expect(hitTexts(hits)).to.have.length(20);
    panel.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'initech' });
    await until(() => hitTexts(hits).length === 4, 'the 4 Initech laptops');
    const list = panel.querySelector('svc-refinement-list')!;
    await until(() => list.shadowRoot?.querySelectorAll('input[type="checkbox"]').length === 1, 'one brand value');
    expect(search.store!.getSnapshot().state.query).to.equal('initech');
  });

  it('an element in a shadow root finds <svc-search id> in the document by search="id"', async () => {
    searchRoot('main-search', '<svc-search-box></svc-search-box>');
    const side = document.createElement('side-results');
    document.body.append(side);
    cleanup.push(side);
    const hits = side.shadowRoot!.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits of the named search');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1');
  });

  it('search="id" names a <svc-search> in the same shadow root; two widgets with the same ids stay apart', async () => {
    // The document has a root with the same id: the element's own shadow root is looked in first.
    searchRoot('search', '');
    const widgets = [0, 1].map(() => {
      const widget = document.createElement('search-widget');
      for (const [name, value] of [
        ['app-id', APP_ID],
        ['api-key', SEARCH_KEY],
        ['index-name', indexName],
        ['hosts', location.origin],
      ])
        widget.setAttribute(name, value!);
      document.body.append(widget);
      cleanup.push(widget);
      return widget.shadowRoot!;
    });
    const [first, second] = widgets.map((shadow) => shadow.querySelector('svc-hits')!);
    await until(() => hitTexts(first!).length === 20 && hitTexts(second!).length === 20, 'hits in both widgets');
    const [own] = widgets.map((shadow) => shadow.querySelector<SvcSearch>('svc-search')!);
    expect(own!.contains(first!), 'the hits are outside the root').to.equal(false);
    own!.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'initech' });
    await until(() => hitTexts(first!).length === 4, 'the 4 Initech laptops in the first widget');
    expect(hitTexts(first!)[0]).to.match(/^Initech Laptop/);
    expect(hitTexts(second!)).to.have.length(20);
    expect((document.getElementById('search') as SvcSearch).store!.getSnapshot().state.query).to.equal('');
  });

  it('search="id" in a shadow root picks up a <svc-search> added to that shadow root later', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    cleanup.push(host);
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<svc-hits search="later"></svc-hits>';
    const hits = shadow.querySelector('svc-hits')!;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hitTexts(hits)).to.deep.equal([]);
    const search = document.createElement('svc-search');
    search.id = 'later';
    for (const [name, value] of [
      ['app-id', APP_ID],
      ['api-key', SEARCH_KEY],
      ['index-name', indexName],
      ['hosts', location.origin],
    ])
      search.setAttribute(name, value!);
    search.setAttribute('insights', 'false');
    shadow.append(search);
    await until(() => hitTexts(hits).length === 20, 'hits once the root is there');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1');
  });

  it('a click on a hit two shadow roots deep is sent as a click event with its queryID and position', async () => {
    const userToken = `embed-shadow-${Date.now().toString(36)}`;
    const search = searchRoot('clicks-search', '<shop-panel></shop-panel>');
    await search.updateComplete;
    await until(() => Boolean(search.insights), 'insights on');
    search.insights!.setUserToken(userToken);
    const hits = search.querySelector('shop-panel')!.shadowRoot!.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits');
    // A search with the token: the answer's queryID is what the click refers to.
    search.store!.setQuery('globex');
    await until(
      () => hitTexts(hits).length === 6 && Boolean(search.store!.getSnapshot().results?.queryID),
      'Globex hits with a queryID',
    );
    const queryID = search.store!.getSnapshot().results!.queryID!;
    const third = hits.shadowRoot!.querySelectorAll<HTMLElement>('li[part~="item"]')[2]!;
    expect(third.dataset.svcQueryId).to.equal(queryID);
    const objectID = third.dataset.svcObjectId!;
    third.click();
    await search.insights!.flush();

    let clicks: Array<Record<string, any>> = [];
    await until(async () => {
      clicks = await storedEvents({ index: indexName, eventType: 'click', userToken });
      return clicks.length > 0;
    }, 'stored click');
    expect(clicks).to.have.length(1);
    const [click] = clicks;
    expect(click!.objectIDs).to.deep.equal([objectID]);
    expect(click!.positions).to.deep.equal([3]);
    expect(click!.queryID).to.equal(queryID);
    expect(click!.userToken).to.equal(userToken);
  });
});
