/**
 * `<svc-recommendations>` against the real local service: recommendations trained from conversions sent
 * through `POST /1/events`, the heading/empty/loading states, templating like `<svc-hits>`, one batched and
 * cached Recommend request per tick, and Insights views, clicks and conversions carrying the answer's queryID
 * (read back through the service's `GET /1/_local/events`).
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import type { SvcRecommendations } from '../../src/elements/recommendations/svc-recommendations.js';
import '../../src/elements/recommendations/define.js';
import { admin, createIndex, searchFixture, shadow } from './search-fixture.js';
import { storedEvents, eventually } from '../insights/helpers.js';

const items = (el: Element) => [...shadow(el).querySelectorAll<HTMLLIElement>('li[part~="item"]')];
const ids = (el: Element) => items(el).map((li) => li.dataset.svcObjectId);
const ready = (el: SvcRecommendations | Element) =>
  waitUntil(() => items(el).length > 0 || shadow(el)?.querySelector<HTMLElement>('[part~="empty"]')?.hidden === false, 'no answer', { timeout: 8000 });

describe('<svc-recommendations>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_rec_el');
    // Orders: p0 with p1 twice, with p2 once, with p3 once → bought-together(p0): p1 50, p2 25, p3 25
    // (100 × together / (orders of p0 + 1), see docs/notes/recommend.md).
    const now = Date.now();
    const order = (userToken: string, objectIDs: string[], minutesAgo: number) => ({
      eventType: 'conversion' as const, eventName: 'Order Completed', index: indexName, userToken, objectIDs, timestamp: now - minutesAgo * 60_000,
    });
    await admin.sendEvents([order('rec-u1', ['p0', 'p1', 'p2'], 30), order('rec-u2', ['p0', 'p1'], 20), order('rec-u3', ['p0', 'p3'], 10)]);
  });

  it('is accessible', async () => {
    const root = await searchFixture(indexName, html`<svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`);
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    await expect(el).to.be.accessible();
    expect(shadow(el).querySelector('h2')!.textContent).to.equal('Frequently bought together');
    expect(shadow(el).querySelector('ol')!.getAttribute('aria-labelledby')).to.equal('heading');
  });

  it('renders the real bought-together answer, best first, with positions 1..n and the queryID', async () => {
    const root = await searchFixture(indexName, html`<svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`);
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    expect(ids(el)).to.deep.equal(['p1', 'p2', 'p3']);
    expect(items(el).map((li) => li.dataset.svcPosition)).to.deep.equal(['1', '2', '3']);
    expect(el.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(items(el).every((li) => li.dataset.svcQueryId === el.queryID && li.dataset.svcIndex === indexName)).to.be.true;
    // Default rendering: the record's name.
    expect(items(el)[0].textContent!.trim()).to.equal('Samsung notebook model 1');
    expect(el.items.map((item) => item.hit._score)).to.deep.equal([50, 25, 25]);
  });

  it('renders a <template> like <svc-hits>, values as text only', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0" threshold="30">
        <h3 slot="heading">Customers also bought</h3>
        <template><a part="link" data-href="url"><span data-text="name"></span></a> <b data-text="_score"></b></template>
      </svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    // threshold 30 leaves p1 (50) only.
    expect(ids(el)).to.deep.equal(['p1']);
    const link = items(el)[0].querySelector('a')!;
    expect(link.getAttribute('href')).to.equal('/products/p1');
    expect(link.textContent).to.equal('Samsung notebook model 1');
    expect(items(el)[0].querySelector('b')!.textContent).to.equal('50');
    // The slotted heading replaces the default one (the slot stays rendered).
    expect(shadow(el).querySelector<HTMLSlotElement>('slot[name="heading"]')!.assignedElements()[0].textContent).to.equal('Customers also bought');
  });

  it('formats template numbers for its lang (data-currency, data-decimals) and keeps strings as they are', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0" lang="fr">
        <template><span class="price" data-text="price" data-currency="EUR"></span> <b data-text="_score" data-decimals="1"></b> <i data-text="brand" data-number></i></template>
      </svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    expect(ids(el)).to.deep.equal(['p1', 'p2', 'p3']);
    const eur = new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR' });
    // p1, p2, p3 cost 110, 120, 130 (search-fixture PRODUCTS).
    expect(items(el).map((li) => li.querySelector('.price')!.textContent)).to.deep.equal([eur.format(110), eur.format(120), eur.format(130)]);
    expect(items(el)[0].querySelector('.price')!.textContent).to.match(/^110,00\s€$/);
    expect(items(el).map((li) => li.querySelector('b')!.textContent)).to.deep.equal(['50,0', '25,0', '25,0']);
    expect(items(el).map((li) => li.querySelector('i')!.textContent)).to.deep.equal(['Samsung', 'Google', 'Sony']);
  });

  it('related-products recommends from content for an item nobody bought, and renderItem takes over', async () => {
    const root = await searchFixture(indexName, html`<svc-recommendations object-id="p30" max-recommendations="3"></svc-recommendations>`);
    const el = root.querySelector('svc-recommendations')!;
    el.renderItem = (hit, info) => `${info.position}:${hit.objectID}:${(hit as { brand?: string }).brand}`;
    await ready(el);
    await el.updateComplete;
    const texts = items(el).map((li) => li.textContent!.trim());
    expect(texts).to.have.length(3);
    // p30 is an Apple phone: the closest records share brand and category (Apple smartphones p6, p12, p18, p24).
    expect(texts.every((t) => /^\d:p\d+:Apple$/.test(t))).to.be.true;
    expect(texts.map((t) => t[0])).to.deep.equal(['1', '2', '3']);
    expect(shadow(el).querySelector('h2')!.textContent).to.equal('Related products');
  });

  it('shows the empty state when the model has nothing, and the loading state before the answer', async () => {
    const root = await searchFixture(indexName, html`<div></div>`);
    const el = document.createElement('svc-recommendations');
    el.model = 'bought-together';
    el.objectId = 'p35';
    root.append(el);
    await el.updateComplete;
    const loading = shadow(el).querySelector<HTMLElement>('[part~="loading"]')!;
    expect(loading.hidden).to.be.false;
    expect(loading.textContent).to.equal('Loading recommendations…');
    await ready(el);
    expect(loading.hidden).to.be.true;
    const empty = shadow(el).querySelector<HTMLElement>('[part~="empty"]')!;
    expect(empty.hidden).to.be.false;
    expect(empty.textContent!.trim()).to.equal('No recommendations yet.');
    expect(shadow(el).querySelector('ol')!.hidden).to.be.true;
    el.translations = { empty: 'Rien pour le moment.' };
    await el.updateComplete;
    expect(empty.textContent!.trim()).to.equal('Rien pour le moment.');
  });

  it('shows the error state when Recommend fails (an index that does not exist)', async () => {
    const root = await searchFixture(indexName, html`<svc-recommendations index-name="svc_rec_no_such_index" object-id="p0"></svc-recommendations>`);
    const el = root.querySelector('svc-recommendations')!;
    const error = () => shadow(el).querySelector<HTMLElement>('[part~="error"]')!;
    await waitUntil(() => !error().hidden, 'no error state', { timeout: 8000 });
    expect(error().textContent).to.equal('Recommendations are unavailable right now.');
    expect(items(el)).to.have.length(0);
    expect(shadow(el).querySelector<HTMLElement>('[part~="empty"]')!.hidden).to.be.true;
  });

  it('sends the requests of one tick in one call, and answers a repeated request from the cache', async () => {
    const root = await searchFixture(indexName, html`<div></div>`);
    const store = root.store!;
    const before = store.requestLog.length;
    root.insertAdjacentHTML(
      'beforeend',
      `<svc-recommendations model="bought-together" object-id="p1"></svc-recommendations><svc-recommendations object-id="p2"></svc-recommendations>`,
    );
    const [a, b] = [...root.querySelectorAll('svc-recommendations')];
    await Promise.all([ready(a), ready(b)]);
    const sent = store.requestLog.slice(before).filter((entry) => entry.kind === 'recommend');
    expect(sent).to.have.length(1);
    expect((sent[0].body as { requests: unknown[] }).requests).to.have.length(2);
    expect(sent[0].cached).to.be.false;
    // The same request again: no network call.
    a.remove();
    root.append(a);
    await a.updateComplete;
    await waitUntil(() => store.requestLog.slice(before).filter((entry) => entry.kind === 'recommend').length === 2);
    expect(store.requestLog.at(-1)!.cached).to.be.true;
  });

  it('sends views and clicks with the recommendation queryID and positions, and conversions from data-svc-conversion', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0">
        <template><span data-text="name"></span> <button data-svc-conversion="Added to cart">Add</button></template>
      </svc-recommendations>`,
      { insights: true },
    );
    const sent: Array<{ eventType: string; eventName: string; queryID?: string; objectIDs?: string[]; positions?: number[]; userToken: string }> = [];
    root.addEventListener('svc-insights', (e) => sent.push((e as CustomEvent).detail.event));
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    const queryID = el.queryID!;
    // Views: every recommendation is visible.
    await waitUntil(() => sent.some((e) => e.eventType === 'view' && e.queryID === queryID), 'no view event', { timeout: 5000 });
    const viewed = sent.filter((e) => e.eventType === 'view' && e.queryID === queryID).flatMap((e) => e.objectIDs);
    expect(viewed.sort()).to.deep.equal(['p1', 'p2', 'p3']);
    // A click on the second recommendation: position 2, the answer's queryID.
    const selected = new Promise<CustomEvent>((resolve) => el.addEventListener('svc-recommendations-select', (e) => resolve(e), { once: true }));
    items(el)[1].querySelector('span')!.click();
    expect((await selected).detail).to.include({ position: 2, queryID });
    // A conversion from the button of the third.
    items(el)[2].querySelector('button')!.click();
    await waitUntil(() => sent.some((e) => e.eventType === 'click') && sent.some((e) => e.eventType === 'conversion'));
    const click = sent.find((e) => e.eventType === 'click')!;
    expect(click).to.include({ queryID });
    expect(click.objectIDs).to.deep.equal(['p2']);
    expect(click.positions).to.deep.equal([2]);
    const conversion = sent.find((e) => e.eventType === 'conversion')!;
    expect(conversion).to.include({ eventName: 'Added to cart', queryID });
    expect(conversion.objectIDs).to.deep.equal(['p3']);

    // Read back from the service: stored with the recommendation answer they refer to.
    const userToken = click.userToken;
    await (root.insights as unknown as { flush(): Promise<void> }).flush();
    let stored: Awaited<ReturnType<typeof storedEvents>> = [];
    await eventually(async () => {
      stored = (await storedEvents(userToken)).filter((e) => e.queryID === queryID);
      return stored.some((e) => e.eventType === 'click') && stored.some((e) => e.eventType === 'conversion') && stored.some((e) => e.eventType === 'view');
    });
    const storedClick = stored.find((e) => e.eventType === 'click')!;
    expect(storedClick.index).to.equal(indexName);
    expect(storedClick.search!.indexName).to.equal(indexName);
    expect(storedClick.search!.positions).to.deep.equal([2]);
    expect(stored.find((e) => e.eventType === 'conversion')!.objectIDs).to.deep.equal(['p3']);
  });
});
