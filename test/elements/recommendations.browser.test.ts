/**
 * `<svc-recommendations>` against the real local service: recommendations trained from conversions sent
 * through `POST /1/events`, the heading/empty/loading states, templating like `<svc-hits>`, one batched and
 * cached Recommend request per tick that asks for a queryID, `query-parameters` / `fallback-parameters`,
 * keyboard selection, hostile record values (default rendering and template), and Insights views, clicks and
 * conversions carrying the answer's queryID (read back through the service's `GET /1/_local/events`).
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcRecommendations } from '../../src/elements/recommendations/svc-recommendations.js';
import '../../src/elements/recommendations/define.js';
import '../../src/elements/highlight/define.js';
import { admin, createIndex, searchFixture, shadow } from './search-fixture.js';
import { storedEvents, eventually, resetInsightsStorage } from '../insights/helpers.js';
import { HOSTILE_RECORDS, HOSTILE_TEMPLATE, expectNothingInjected } from './recommend-hostile.js';

const items = (el: Element) => [...shadow(el).querySelectorAll<HTMLLIElement>('li[part~="item"]')];
const ids = (el: Element) => items(el).map((li) => li.dataset.svcObjectId);
/** An element that subscribes to the store from the start (a store searches only while something listens). */
const listener = html`<svc-recommendations hidden model="bought-together" object-id="p0"></svc-recommendations>`;
const ready = (el: SvcRecommendations | Element) =>
  waitUntil(
    () => items(el).length > 0 || shadow(el)?.querySelector<HTMLElement>('[part~="empty"]')?.hidden === false,
    'no answer',
    { timeout: 8000 },
  );

describe('<svc-recommendations>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_rec_el');
    // Orders: p0 with p1 twice, with p2 once, with p3 once → bought-together(p0): p1 50, p2 25, p3 25
    // (100 × together / (orders of p0 + 1), see docs/notes/recommend.md).
    const now = Date.now();
    const order = (userToken: string, objectIDs: string[], minutesAgo: number) => ({
      eventType: 'conversion' as const,
      eventName: 'Order Completed',
      index: indexName,
      userToken,
      objectIDs,
      timestamp: now - minutesAgo * 60_000,
    });
    await admin.sendEvents([
      order('rec-u1', ['p0', 'p1', 'p2'], 30),
      order('rec-u2', ['p0', 'p1'], 20),
      order('rec-u3', ['p0', 'p3'], 10),
    ]);
  });

  it('is accessible', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    await expect(el).to.be.accessible();
    expect(shadow(el).querySelector('h2')!.textContent).to.equal('Frequently bought together');
    expect(shadow(el).querySelector('ol')!.getAttribute('aria-labelledby')).to.equal('heading');
  });

  it('renders the real bought-together answer, best first, with positions 1..n and the queryID', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    expect(ids(el)).to.deep.equal(['p1', 'p2', 'p3']);
    expect(items(el).map((li) => li.dataset.svcPosition)).to.deep.equal(['1', '2', '3']);
    expect(el.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(items(el).every((li) => li.dataset.svcQueryId === el.queryID && li.dataset.svcIndex === indexName)).to.be
      .true;
    // Default rendering: the record's name.
    expect(items(el)[0].textContent!.trim()).to.equal('Samsung notebook model 1');
    expect(el.items.map((item) => item.hit._score)).to.deep.equal([50, 25, 25]);
  });

  it('renders a <template> like <svc-hits> (fields, data-href, the score) under a slotted heading', async () => {
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
    expect(
      shadow(el).querySelector<HTMLSlotElement>('slot[name="heading"]')!.assignedElements()[0].textContent,
    ).to.equal('Customers also bought');
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
    expect(items(el).map((li) => li.querySelector('.price')!.textContent)).to.deep.equal([
      eur.format(110),
      eur.format(120),
      eur.format(130),
    ]);
    expect(items(el)[0].querySelector('.price')!.textContent).to.match(/^110,00\s€$/);
    expect(items(el).map((li) => li.querySelector('b')!.textContent)).to.deep.equal(['50,0', '25,0', '25,0']);
    expect(items(el).map((li) => li.querySelector('i')!.textContent)).to.deep.equal(['Samsung', 'Google', 'Sony']);
  });

  it('related-products recommends from content for an item nobody bought, and renderItem takes over', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations object-id="p30" max-recommendations="3"></svc-recommendations>`,
    );
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
    const root = await searchFixture(indexName, listener);
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
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations index-name="svc_rec_no_such_index" object-id="p0"></svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    const error = () => shadow(el).querySelector<HTMLElement>('[part~="error"]')!;
    await waitUntil(() => !error().hidden, 'no error state', { timeout: 8000 });
    expect(error().textContent).to.equal('Recommendations are unavailable right now.');
    expect(items(el)).to.have.length(0);
    expect(shadow(el).querySelector<HTMLElement>('[part~="empty"]')!.hidden).to.be.true;
  });

  it('sends the requests of one tick in one call, and answers a repeated request from the cache', async () => {
    const root = await searchFixture(indexName, listener);
    const store = root.store!;
    const before = store.requestLog.length;
    root.insertAdjacentHTML(
      'beforeend',
      `<svc-recommendations model="bought-together" object-id="p1"></svc-recommendations><svc-recommendations object-id="p2"></svc-recommendations>`,
    );
    const [a, b] = [...root.querySelectorAll<SvcRecommendations>('svc-recommendations:not([hidden])')];
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
    const sent: Array<{
      eventType: string;
      eventName: string;
      queryID?: string;
      objectIDs?: string[];
      positions?: number[];
      userToken: string;
    }> = [];
    root.addEventListener('svc-insights', (e) => sent.push((e as CustomEvent).detail.event));
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    const queryID = el.queryID!;
    // Views: every recommendation is visible.
    await waitUntil(() => sent.some((e) => e.eventType === 'view' && e.queryID === queryID), 'no view event', {
      timeout: 5000,
    });
    const viewed = sent.filter((e) => e.eventType === 'view' && e.queryID === queryID).flatMap((e) => e.objectIDs);
    expect(viewed.sort()).to.deep.equal(['p1', 'p2', 'p3']);
    // A click on the second recommendation: position 2, the answer's queryID.
    const selected = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('svc-recommendations-select', (e) => resolve(e), { once: true }),
    );
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
      return (
        stored.some((e) => e.eventType === 'click') &&
        stored.some((e) => e.eventType === 'conversion') &&
        stored.some((e) => e.eventType === 'view')
      );
    });
    const storedClick = stored.find((e) => e.eventType === 'click')!;
    expect(storedClick.index).to.equal(indexName);
    expect(storedClick.search!.indexName).to.equal(indexName);
    expect(storedClick.search!.positions).to.deep.equal([2]);
    expect(stored.find((e) => e.eventType === 'conversion')!.objectIDs).to.deep.equal(['p3']);
  });
  it('never executes nor injects hostile values of recommended records (default rendering, template, highlight)', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    // Hostile records recommended for real: one order of all three with a clean record (bought-together), and
    // content similarity between them (related-products: their names share "Evil" and "phone").
    const hostileIndex = await createIndex('svc_rec_hostile', [
      ...HOSTILE_RECORDS,
      { objectID: 'anchor', name: 'Plain phone', brand: 'Acme', category: 'Phones', rank: 9 },
    ]);
    await admin.sendEvents([
      {
        eventType: 'conversion',
        eventName: 'Order Completed',
        index: hostileIndex,
        userToken: 'rec-hostile',
        objectIDs: ['anchor', 'evil1', 'evil2', 'evil3'],
        timestamp: Date.now() - 60_000,
      },
    ]);
    const root = await searchFixture(
      hostileIndex,
      html`<svc-recommendations id="default" model="bought-together" object-id="anchor"></svc-recommendations>
        <svc-recommendations id="template" model="bought-together" object-id="anchor">${HOSTILE_TEMPLATE}</svc-recommendations>
        <svc-recommendations id="related" object-id="evil1"></svc-recommendations>`,
    );
    const [plain, templated, related] = [...root.querySelectorAll('svc-recommendations')];
    await Promise.all([ready(plain), ready(templated), ready(related)]);
    expect(ids(plain)).to.deep.equal(['evil1', 'evil2', 'evil3']);
    expect(ids(templated)).to.deep.equal(['evil1', 'evil2', 'evil3']);
    expect(ids(related)).to.include.members(['evil2', 'evil3']);
    const names = HOSTILE_RECORDS.map((r) => r.name);
    // Default rendering: each name is the text of the item's button.
    expect(items(plain).map((li) => li.querySelector('button')!.textContent)).to.deep.equal(names);
    // Template: text is text, attributes are plain values, every URL refused.
    const [first, second, third] = items(templated);
    expect(first.querySelector('.name')!.textContent).to.equal(names[0]);
    expect(first.querySelector('.brand')!.textContent).to.equal(HOSTILE_RECORDS[0].brand);
    expect(second.querySelector('.category')!.textContent).to.equal(HOSTILE_RECORDS[1].category);
    expect(third.querySelector('.description')!.textContent).to.equal(HOSTILE_RECORDS[2].description);
    expect(first.querySelector('a.link')!.getAttribute('title')).to.equal(names[0]);
    expect(first.querySelector('img')!.getAttribute('alt')).to.equal(HOSTILE_RECORDS[0].brand);
    const highlight = third.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal(names[2]);
    // Selecting a hostile item (its link has no href) runs nothing either.
    first.querySelector<HTMLElement>('a.link')!.click();
    items(plain)[1].querySelector('button')!.click();
    await new Promise((r) => setTimeout(r, 150)); // let any injected handler or frame run
    expectNothingInjected(root);
  });

  it('asks for a queryID (clickAnalytics in the request body) and the items carry it', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0" query-parameters='{"filters":"price < 200"}'></svc-recommendations>`,
    );
    const store = root.store!;
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    const sent = store.requestLog.filter((entry) => entry.kind === 'recommend');
    expect(sent).to.have.length(1);
    const [request] = (sent[0].body as { requests: Array<Record<string, unknown>> }).requests;
    expect(request).to.deep.include({ indexName, model: 'bought-together', objectID: 'p0', threshold: 0 });
    // The page's parameters are kept; clickAnalytics is added so the answer has a queryID.
    expect(request.queryParameters).to.deep.equal({ filters: 'price < 200', clickAnalytics: true });
    expect(el.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(items(el).every((li) => li.dataset.svcQueryId === el.queryID)).to.be.true;
  });

  it('query-parameters filters the recommendations; fallback-parameters fills up to max-recommendations; changing them changes the list', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`,
    );
    const el = root.querySelector('svc-recommendations')!;
    await ready(el);
    expect(ids(el)).to.deep.equal(['p1', 'p2', 'p3']);
    const answered = async (expected: string[]) => {
      await waitUntil(
        () => JSON.stringify(ids(el)) === JSON.stringify(expected),
        `expected ${expected}, shown ${ids(el)}`,
        { timeout: 8000 },
      );
    };
    // p1, p2, p3 are Samsung, Google, Sony at 110, 120, 130 (search-fixture PRODUCTS).
    el.setAttribute('query-parameters', '{"filters":"price > 115"}');
    await answered(['p2', 'p3']);
    el.setAttribute('query-parameters', '{"filters":"brand:Google"}');
    await answered(['p2']);
    // Fewer than max-recommendations: a search with the fallback parameters fills up (ranked by rank; p0, the
    // source, and the recommended p2 are skipped), with score 0.
    el.setAttribute('max-recommendations', '3');
    el.setAttribute('fallback-parameters', '{"filters":"category:Phones"}');
    await answered(['p2', 'p3', 'p6']);
    expect(el.items.map((item) => item.hit._score)).to.deep.equal([25, 0, 0]);
    el.setAttribute('fallback-parameters', '{"filters":"category:Laptops"}');
    await answered(['p2', 'p1', 'p4']);
    // Invalid JSON is reported and ignored: no parameters at all.
    const warn = console.warn;
    const warned: unknown[] = [];
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      el.setAttribute('query-parameters', '{not json');
      el.removeAttribute('fallback-parameters');
      await answered(['p1', 'p2', 'p3']);
    } finally {
      console.warn = warn;
    }
    expect(warned).to.have.length(1);
  });

  it('keyboard: Tab reaches each recommendation, Enter and Space select it; one Insights click with its position', async () => {
    resetInsightsStorage();
    const root = await searchFixture(
      indexName,
      html`<button id="before">before</button><svc-recommendations model="bought-together" object-id="p0"></svc-recommendations>`,
      { insights: true },
    );
    const clicks: Array<{ objectIDs?: string[]; positions?: number[]; queryID?: string }> = [];
    root.addEventListener('svc-insights', (e) => {
      if ((e as CustomEvent).detail.event.eventType === 'click') clicks.push((e as CustomEvent).detail.event);
    });
    const el = root.querySelector('svc-recommendations')!;
    const selected: Array<{ position: number; queryID?: string; hit: { objectID: string } }> = [];
    el.addEventListener('svc-recommendations-select', (e) => selected.push(e.detail));
    await ready(el);
    await expect(el).to.be.accessible();
    const buttons = items(el).map((li) => li.querySelector<HTMLButtonElement>('button[part~="select"]')!);
    expect(buttons.map((b) => b.textContent)).to.deep.equal([
      'Samsung notebook model 1',
      'Google headset model 2',
      'Sony smartphone model 3',
    ]);
    root.querySelector<HTMLButtonElement>('#before')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(buttons[0]);
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(buttons[1]);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => clicks.length === 1, 'no Insights click from Enter');
    expect(selected).to.have.length(1);
    expect(selected[0]).to.include({ position: 2, queryID: el.queryID });
    expect(selected[0].hit.objectID).to.equal('p2');
    expect(clicks[0]).to.include({ queryID: el.queryID });
    expect(clicks[0].objectIDs).to.deep.equal(['p2']);
    expect(clicks[0].positions).to.deep.equal([2]);
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Space' });
    await waitUntil(() => clicks.length === 2, 'no Insights click from Space');
    expect(selected.map((d) => d.position)).to.deep.equal([2, 3]);
    expect(clicks[1].positions).to.deep.equal([3]);
    await new Promise((r) => setTimeout(r, 50));
    expect(clicks).to.have.length(2, 'one click event per selection');
  });

  it('keyboard: a template keeps its own link; Enter on it selects the item and sends one click', async () => {
    resetInsightsStorage();
    const root = await searchFixture(
      indexName,
      html`<svc-recommendations model="bought-together" object-id="p0"><template><a data-href="url" data-text="name"></a> <button data-svc-conversion="Added to cart">Add</button></template></svc-recommendations>`,
      { insights: true },
    );
    const events: Array<{ eventType: string; objectIDs?: string[]; positions?: number[] }> = [];
    root.addEventListener('svc-insights', (e) => events.push((e as CustomEvent).detail.event));
    const el = root.querySelector('svc-recommendations')!;
    const selected: number[] = [];
    el.addEventListener('svc-recommendations-select', (e) => selected.push(e.detail.position));
    await ready(el);
    // The test page must not navigate (the element and Insights have seen the click by then).
    shadow(el).addEventListener('click', (e) => e.preventDefault());
    const links = items(el).map((li) => li.querySelector('a')!);
    expect(links[0].getAttribute('href')).to.equal('/products/p1');
    expect(shadow(el).querySelector('button[part~="select"]')).to.equal(null);
    links[0].focus();
    await sendKeys({ press: 'Tab' }); // the first item's Add button
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(links[1]);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => events.some((e) => e.eventType === 'click'), 'no click from Enter on the link');
    expect(selected).to.deep.equal([2]);
    // "Add" is a conversion, not a selection.
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => events.some((e) => e.eventType === 'conversion'), 'no conversion');
    expect(selected).to.deep.equal([2]);
    const clicks = events.filter((e) => e.eventType === 'click');
    expect(clicks).to.have.length(1);
    expect(clicks[0].positions).to.deep.equal([2]);
    expect(events.find((e) => e.eventType === 'conversion')!.objectIDs).to.deep.equal(['p2']);
  });
});
