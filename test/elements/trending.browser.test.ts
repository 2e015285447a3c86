/**
 * `<svc-trending>` against the real local service: trending items (global and within one facet value) and
 * trending facet values from conversions and clicks sent through `POST /1/events`; loading, empty, error and
 * heading states; one batched Recommend request per tick (with `<svc-recommendations>`) that asks for a queryID
 * for items; facet values refine the search and report `Filter Applied`; keyboard selection; hostile values;
 * Insights views and clicks carry the answer's queryID (read back through `GET /1/_local/events`).
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcTrending } from '../../src/elements/trending/svc-trending.js';
import '../../src/elements/trending/define.js';
import '../../src/elements/recommendations/define.js';
import '../../src/elements/highlight/define.js';
import '../../src/elements/hits/define.js';
import { admin, createIndex, searchFixture, settled, shadow } from './search-fixture.js';
import { eventually, resetInsightsStorage, storedEvents } from '../insights/helpers.js';
import { HOSTILE_RECORDS, HOSTILE_TEMPLATE, expectNothingInjected } from './recommend-hostile.js';

const items = (el: Element) => [...(shadow(el)?.querySelectorAll<HTMLLIElement>('li[part~="item"]') ?? [])];
const ids = (el: Element) => items(el).map((li) => li.dataset.svcObjectId);
const ready = (el: Element) =>
  waitUntil(
    () => items(el).length > 0 || shadow(el)?.querySelector<HTMLElement>('[part~="empty"]')?.hidden === false,
    'no answer',
    { timeout: 8000 },
  );

describe('<svc-trending>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_trend_el');
    // Within the last hour (decay ≈ 1): p5 converted 3 times, p7 twice, p4 clicked twice (0.5 each) and
    // converted once, p9 clicked once → p5 3, p4 2, p7 2, p9 0.5 (clicks weigh half a conversion).
    // Brands (i mod 6): p5 Dell, p4 Lenovo, p7 Samsung, p9 Sony.
    const at = Date.now() - 30 * 60_000;
    const event = (eventType: 'conversion' | 'click', userToken: string, objectID: string, i: number) => ({
      eventType,
      eventName: eventType === 'click' ? 'Product Clicked' : 'Order Completed',
      index: indexName,
      userToken,
      objectIDs: [objectID],
      timestamp: at + i * 1000,
    });
    await admin.sendEvents([
      event('conversion', 'tr-1', 'p5', 1),
      event('conversion', 'tr-2', 'p5', 2),
      event('conversion', 'tr-3', 'p5', 3),
      event('conversion', 'tr-4', 'p7', 4),
      event('conversion', 'tr-5', 'p7', 5),
      event('click', 'tr-6', 'p4', 6),
      event('click', 'tr-7', 'p4', 7),
      event('conversion', 'tr-8', 'p4', 8),
      event('click', 'tr-9', 'p9', 9),
    ]);
  });

  it('is accessible (items and facets)', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending></svc-trending><svc-trending model="trending-facets" facet-name="brand"></svc-trending>`,
    );
    const [itemsEl, facetsEl] = [...root.querySelectorAll('svc-trending')];
    await Promise.all([ready(itemsEl), ready(facetsEl)]);
    await expect(itemsEl).to.be.accessible();
    await expect(facetsEl).to.be.accessible();
  });

  it('renders trending items hottest first, with scores relative to the hottest', async () => {
    const root = await searchFixture(indexName, html`<svc-trending></svc-trending>`);
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    // p5 3 → 100; p4 2 → 66.67; p7 2 → 66.67 (tie: objectID order); p9 .5 → 16.67.
    expect(ids(el)).to.deep.equal(['p5', 'p4', 'p7', 'p9']);
    expect(el.items.map((i) => i.hit._score)).to.deep.equal([100, 66.67, 66.67, 16.67]);
    expect(shadow(el).querySelector('h2')!.textContent).to.equal('Trending now');
  });

  it('trends within one facet value, with threshold and max-recommendations', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending facet-name="brand" facet-value="Samsung"></svc-trending><svc-trending threshold="50" max-recommendations="2"></svc-trending>`,
    );
    const [samsung, capped] = [...root.querySelectorAll('svc-trending')];
    await Promise.all([ready(samsung), ready(capped)]);
    expect(ids(samsung)).to.deep.equal(['p7']);
    expect(shadow(samsung).querySelector('h2')!.textContent).to.equal('Trending in Samsung');
    expect(ids(capped)).to.deep.equal(['p5', 'p4']);
  });

  it('renders trending facet values; a click refines the search and the hits follow', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending model="trending-facets" facet-name="brand"><h2 slot="heading">Trending brands</h2></svc-trending><svc-hits attributes-to-retrieve="brand"></svc-hits>`,
    );
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    // Conversions only: Dell 3 → 100, Samsung 2 → 66.67, Lenovo 1 → 33.33 (Sony was only clicked).
    expect(el.facets.map((f) => [f.facetValue, f._score])).to.deep.equal([
      ['Dell', 100],
      ['Samsung', 66.67],
      ['Lenovo', 33.33],
    ]);
    const buttons = [...shadow(el).querySelectorAll<HTMLButtonElement>('button[part~="facet"]')];
    expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal(['Dell', 'Samsung', 'Lenovo']);
    expect(buttons[1].getAttribute('aria-pressed')).to.equal('false');
    const selected = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('svc-trending-facet-select', (e) => resolve(e), { once: true }),
    );
    buttons[1].click();
    expect((await selected).detail).to.include({ facetName: 'brand', facetValue: 'Samsung', position: 2 });
    await settled(root.store!);
    await el.updateComplete;
    expect(root.store!.isRefined('brand', 'Samsung')).to.be.true;
    expect(buttons[1].getAttribute('aria-pressed')).to.equal('true');
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(hits.hits.length).to.equal(6);
    expect(hits.hits.every((h) => h.brand === 'Samsung')).to.be.true;
  });

  it('trending facet values are buttons: Tab reaches them, Enter and Space toggle the refinement', async () => {
    const root = await searchFixture(
      indexName,
      html`<button id="before">before</button><svc-trending model="trending-facets" facet-name="brand"></svc-trending>`,
    );
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    root.querySelector<HTMLButtonElement>('#before')!.focus();
    await sendKeys({ press: 'Tab' });
    const first = shadow(el).querySelector<HTMLButtonElement>('button[part~="facet"]')!;
    expect(shadow(el).activeElement).to.equal(first);
    await sendKeys({ press: 'Enter' });
    await settled(root.store!);
    await el.updateComplete;
    expect(root.store!.isRefined('brand', 'Dell')).to.be.true;
    expect(first.getAttribute('aria-pressed')).to.equal('true');
    await sendKeys({ press: 'Space' });
    await settled(root.store!);
    await el.updateComplete;
    expect(root.store!.isRefined('brand', 'Dell')).to.be.false;
    expect(first.getAttribute('aria-pressed')).to.equal('false');
  });

  it('a cancelled facet selection does not refine', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending model="trending-facets" facet-name="brand"></svc-trending>`,
    );
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    el.addEventListener('svc-trending-facet-select', (e) => e.preventDefault());
    shadow(el).querySelector<HTMLButtonElement>('button[part~="facet"]')!.click();
    await new Promise((r) => setTimeout(r, 50));
    expect(root.store!.isRefined('brand', 'Dell')).to.be.false;
  });

  it('shows the empty state when nothing is trending', async () => {
    const quiet = await createIndex('svc_trend_quiet', [
      { objectID: 'q1', name: 'Quiet thing', brand: 'None', category: 'Phones', rank: 0 },
    ]);
    const root = await searchFixture(quiet, html`<svc-trending></svc-trending>`);
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    const empty = shadow(el).querySelector<HTMLElement>('[part~="empty"]')!;
    expect(empty.hidden).to.be.false;
    expect(empty.textContent!.trim()).to.equal('Nothing is trending yet.');
  });

  it('sends views and clicks on trending items with the answer queryID and positions 1..n', async () => {
    const root = await searchFixture(indexName, html`<svc-trending max-recommendations="3"></svc-trending>`, {
      insights: true,
    });
    const sent: Array<{
      eventType: string;
      queryID?: string;
      objectIDs?: string[];
      positions?: number[];
      userToken: string;
    }> = [];
    root.addEventListener('svc-insights', (e) => sent.push((e as CustomEvent).detail.event));
    const el = root.querySelector('svc-trending')! as SvcTrending;
    await ready(el);
    const queryID = el.queryID!;
    expect(queryID).to.match(/^[0-9a-f]{32}$/);
    await waitUntil(() => sent.some((e) => e.eventType === 'view' && e.queryID === queryID), 'no view', {
      timeout: 5000,
    });
    items(el)[2].click();
    await waitUntil(() => sent.some((e) => e.eventType === 'click'));
    const click = sent.find((e) => e.eventType === 'click')!;
    expect(click.queryID).to.equal(queryID);
    expect(click.objectIDs).to.deep.equal(['p7']);
    expect(click.positions).to.deep.equal([3]);
    await (root.insights as unknown as { flush(): Promise<void> }).flush();
    await eventually(async () => {
      const stored = (await storedEvents(click.userToken)).filter((e) => e.queryID === queryID);
      const storedClick = stored.find((e) => e.eventType === 'click');
      const view = stored.find((e) => e.eventType === 'view');
      return !!storedClick && !!view && storedClick.search?.positions?.[0] === 3 && view.objectIDs!.length === 3;
    });
  });
  it('shows the loading state before the first answer, and a slotted heading instead of the default one', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending hidden facet-name="brand" facet-value="Dell"></svc-trending>`,
    );
    const el = document.createElement('svc-trending');
    el.innerHTML = '<h3 slot="heading">Hot this week</h3>';
    root.append(el);
    await el.updateComplete;
    const loading = shadow(el).querySelector<HTMLElement>('[part~="loading"]')!;
    expect(loading.hidden).to.be.false;
    expect(loading.textContent).to.equal('Loading trends…');
    expect(shadow(el).querySelector('ol')!.hidden).to.be.true;
    await ready(el);
    expect(loading.hidden).to.be.true;
    expect(loading.textContent).to.equal('');
    expect(ids(el)).to.have.members(['p5', 'p4', 'p7', 'p9']);
    const slot = shadow(el).querySelector<HTMLSlotElement>('slot[name="heading"]')!;
    expect(slot.assignedElements().map((h) => h.textContent)).to.deep.equal(['Hot this week']);
    // The list and the section are named by the slotted heading.
    expect(shadow(el).querySelector('section')!.getAttribute('aria-labelledby')).to.equal('heading');
    expect(shadow(el).querySelector('#heading')!.contains(slot)).to.be.true;
    await expect(el).to.be.accessible();
  });

  it('shows the error state when Recommend fails (an index that does not exist), for items and facets', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending index-name="svc_trend_no_such_index"></svc-trending><svc-trending model="trending-facets" facet-name="brand" index-name="svc_trend_no_such_index"></svc-trending>`,
    );
    for (const el of root.querySelectorAll('svc-trending')) {
      const error = () => shadow(el).querySelector<HTMLElement>('[part~="error"]')!;
      await waitUntil(() => !error().hidden, 'no error state', { timeout: 8000 });
      expect(error().textContent).to.equal('Trends are unavailable right now.');
      expect(error().closest('[role="status"]')).to.exist;
      expect(items(el)).to.have.length(0);
      expect(shadow(el).querySelector<HTMLElement>('[part~="empty"]')!.hidden).to.be.true;
      expect(shadow(el).querySelector<HTMLElement>('[part~="loading"]')!.hidden).to.be.true;
    }
  });

  it('sends the Recommend requests of one tick in one call with <svc-recommendations>; items ask for a queryID, facets do not', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-trending hidden facet-name="brand" facet-value="Sony"></svc-trending>`,
    );
    const store = root.store!;
    const before = store.requestLog.length;
    root.insertAdjacentHTML(
      'beforeend',
      `<svc-trending max-recommendations="2"></svc-trending><svc-trending model="trending-facets" facet-name="brand"></svc-trending><svc-recommendations object-id="p4" max-recommendations="2"></svc-recommendations>`,
    );
    const [trending, facets] = [...root.querySelectorAll<SvcTrending>('svc-trending:not([hidden])')];
    await Promise.all([ready(trending), ready(facets), ready(root.querySelector('svc-recommendations')!)]);
    // One call, and no request of an element's defaults before its attributes were read (global trending
    // items for every <svc-trending>, answered from the cache or not).
    const sent = store.requestLog.slice(before).filter((entry) => entry.kind === 'recommend');
    expect(sent).to.have.length(1);
    const requests = (sent[0].body as { requests: Array<Record<string, unknown>> }).requests;
    expect(requests.map((r) => r.model)).to.deep.equal(['trending-items', 'trending-facets', 'related-products']);
    expect(requests[0]).to.deep.equal({
      indexName,
      model: 'trending-items',
      threshold: 0,
      maxRecommendations: 2,
      queryParameters: { clickAnalytics: true },
    });
    // trending-facets takes no queryParameters (document 2); its answer has a queryID all the same.
    expect(requests[1]).to.deep.equal({ indexName, model: 'trending-facets', threshold: 0, facetName: 'brand' });
    expect(requests[2].queryParameters).to.deep.equal({ clickAnalytics: true });
    expect(trending.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(facets.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(ids(trending)).to.have.length(2);
    expect(ids(trending)[0]).to.equal('p5');
  });

  it('sends Filter Applied (read back from the service) when a trending facet value is turned on, not off', async () => {
    resetInsightsStorage();
    const root = await searchFixture(
      indexName,
      html`<svc-trending model="trending-facets" facet-name="brand"></svc-trending>`,
      { insights: true },
    );
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    const insights = root.insights as unknown as { flush(): Promise<void>; userToken: string };
    const button = (value: string) =>
      [...shadow(el).querySelectorAll<HTMLButtonElement>('button[part~="facet"]')].find(
        (b) => b.textContent === value,
      )!;
    button('Samsung').click(); // on
    await settled(root.store!);
    button('Samsung').click(); // off: nothing sent
    await settled(root.store!);
    button('Lenovo').click(); // on
    await settled(root.store!);
    await insights.flush();
    await eventually(async () => (await storedEvents(insights.userToken, 'click')).length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    const clicks = await storedEvents(insights.userToken, 'click');
    expect(clicks.map((e) => [e.eventName, e.index, e.filters])).to.deep.equal([
      ['Filter Applied', indexName, ['brand:Samsung']],
      ['Filter Applied', indexName, ['brand:Lenovo']],
    ]);
  });

  it('keyboard: Tab reaches each trending item, Enter selects it; one Insights click with its position', async () => {
    resetInsightsStorage();
    const root = await searchFixture(
      indexName,
      html`<button id="before">before</button><svc-trending max-recommendations="3"></svc-trending>`,
      { insights: true },
    );
    const clicks: Array<{ objectIDs?: string[]; positions?: number[]; queryID?: string }> = [];
    root.addEventListener('svc-insights', (e) => {
      if ((e as CustomEvent).detail.event.eventType === 'click') clicks.push((e as CustomEvent).detail.event);
    });
    const el = root.querySelector('svc-trending')!;
    const selected: Array<{ position: number; queryID?: string; hit: { objectID: string } }> = [];
    el.addEventListener('svc-trending-select', (e) => selected.push(e.detail));
    await ready(el);
    await expect(el).to.be.accessible();
    const buttons = items(el).map((li) => li.querySelector<HTMLButtonElement>('button[part~="select"]')!);
    expect(buttons.map((b) => b.textContent)).to.deep.equal(el.items.map((item) => item.hit.name));
    root.querySelector<HTMLButtonElement>('#before')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(buttons[0]);
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(buttons[2]);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => clicks.length === 1, 'no Insights click from Enter');
    await new Promise((r) => setTimeout(r, 50));
    expect(selected).to.have.length(1);
    expect(selected[0]).to.include({ position: 3, queryID: el.queryID });
    const third = el.items[2].hit.objectID;
    expect(selected[0].hit.objectID).to.equal(third);
    expect(clicks).to.have.length(1);
    expect(clicks[0]).to.include({ queryID: el.queryID });
    expect(clicks[0].objectIDs).to.deep.equal([third]);
    expect(clicks[0].positions).to.deep.equal([3]);
  });

  it('never executes nor injects hostile values of trending records and facet values (default, template, refinement)', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const hostileIndex = await createIndex('svc_trend_hostile', HOSTILE_RECORDS);
    // Trending for real: evil1 converted 3 times, evil2 twice, evil3 once.
    const at = Date.now() - 10 * 60_000;
    await admin.sendEvents(
      ['evil1', 'evil1', 'evil1', 'evil2', 'evil2', 'evil3'].map((objectID, i) => ({
        eventType: 'conversion' as const,
        eventName: 'Order Completed',
        index: hostileIndex,
        userToken: `tr-hostile-${i}`,
        objectIDs: [objectID],
        timestamp: at + i * 1000,
      })),
    );
    const root = await searchFixture(
      hostileIndex,
      html`<svc-trending id="default"></svc-trending>
        <svc-trending id="template">${HOSTILE_TEMPLATE}</svc-trending>
        <svc-trending id="brands" model="trending-facets" facet-name="brand"></svc-trending>
        <svc-trending id="categories" model="trending-facets" facet-name="category">
          <template><a class="facet" data-href="facetValue" data-attr-title="facetValue" data-attr-onmouseover="facetValue"><span data-text="facetValue"></span></a> <i data-text="_score"></i></template>
        </svc-trending>`,
    );
    const [plain, templated, brands, categories] = [...root.querySelectorAll<SvcTrending>('svc-trending')];
    await Promise.all([ready(plain), ready(templated), ready(brands), ready(categories)]);
    const names = HOSTILE_RECORDS.map((r) => r.name);
    expect(ids(plain)).to.deep.equal(['evil1', 'evil2', 'evil3']);
    expect(items(plain).map((li) => li.querySelector('button')!.textContent)).to.deep.equal(names);
    expect(ids(templated)).to.deep.equal(['evil1', 'evil2', 'evil3']);
    const [first, second, third] = items(templated);
    expect(first.querySelector('.name')!.textContent).to.equal(names[0]);
    expect(second.querySelector('.category')!.textContent).to.equal(HOSTILE_RECORDS[1].category);
    expect(third.querySelector('.brand')!.textContent).to.equal(HOSTILE_RECORDS[2].brand);
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal(names[0]);
    // Facet values: the hostile strings are the buttons' text, hottest first.
    const brandValues = HOSTILE_RECORDS.map((r) => r.brand);
    const brandButtons = [...shadow(brands).querySelectorAll<HTMLButtonElement>('button[part~="facet"]')];
    expect(brandButtons.map((b) => b.textContent)).to.deep.equal(brandValues);
    expect(brands.facets.map((f) => f.facetValue)).to.deep.equal(brandValues);
    // In a template: text and title as given; data-href keeps the relative values, refuses the javascript: one.
    const categoryValues = HOSTILE_RECORDS.map((r) => r.category);
    const links = [...shadow(categories).querySelectorAll<HTMLAnchorElement>('a.facet')];
    expect(links.map((a) => a.textContent)).to.deep.equal(categoryValues);
    expect(links.map((a) => a.getAttribute('title'))).to.deep.equal(categoryValues);
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([categoryValues[0], categoryValues[1], null]);
    // Choosing hostile values refines the search with them, as text.
    shadow(categories).addEventListener('click', (e) => e.preventDefault()); // no navigation of the test page
    brandButtons[0].click();
    brandButtons[2].click();
    links[2].click();
    await settled(root.store!);
    expect(root.store!.isRefined('brand', brandValues[0])).to.be.true;
    expect(root.store!.isRefined('brand', brandValues[2])).to.be.true;
    expect(root.store!.isRefined('category', categoryValues[2])).to.be.true;
    items(plain)[2].querySelector('button')!.click();
    await new Promise((r) => setTimeout(r, 150)); // let any injected handler or frame run
    expectNothingInjected(root, [categoryValues[0], categoryValues[1]]);
  });
});
