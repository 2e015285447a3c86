/**
 * `<svc-trending>` against the real local service: trending items (global and within one facet value) and
 * trending facet values from conversions and clicks sent through `POST /1/events`; facet values refine the
 * search; Insights views and clicks carry the answer's queryID (read back through `GET /1/_local/events`).
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcTrending } from '../../src/elements/trending/svc-trending.js';
import '../../src/elements/trending/define.js';
import '../../src/elements/hits/define.js';
import { admin, createIndex, searchFixture, settled, shadow } from './search-fixture.js';
import { eventually, storedEvents } from '../insights/helpers.js';

const items = (el: Element) => [...(shadow(el)?.querySelectorAll<HTMLLIElement>('li[part~="item"]') ?? [])];
const ids = (el: Element) => items(el).map((li) => li.dataset.svcObjectId);
const ready = (el: Element) =>
  waitUntil(() => items(el).length > 0 || shadow(el)?.querySelector<HTMLElement>('[part~="empty"]')?.hidden === false, 'no answer', { timeout: 8000 });

describe('<svc-trending>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_trend_el');
    // Within the last hour (decay ≈ 1): p5 converted 3 times, p7 twice, p4 clicked twice (0.5 each) and
    // converted once, p9 clicked once → p5 3, p4 2, p7 2, p9 0.5 (clicks weigh half a conversion).
    // Brands (i mod 6): p5 Dell, p4 Lenovo, p7 Samsung, p9 Sony.
    const at = Date.now() - 30 * 60_000;
    const event = (eventType: 'conversion' | 'click', userToken: string, objectID: string, i: number) => ({
      eventType, eventName: eventType === 'click' ? 'Product Clicked' : 'Order Completed', index: indexName, userToken, objectIDs: [objectID], timestamp: at + i * 1000,
    });
    await admin.sendEvents([
      event('conversion', 'tr-1', 'p5', 1), event('conversion', 'tr-2', 'p5', 2), event('conversion', 'tr-3', 'p5', 3),
      event('conversion', 'tr-4', 'p7', 4), event('conversion', 'tr-5', 'p7', 5),
      event('click', 'tr-6', 'p4', 6), event('click', 'tr-7', 'p4', 7), event('conversion', 'tr-8', 'p4', 8),
      event('click', 'tr-9', 'p9', 9),
    ]);
  });

  it('is accessible (items and facets)', async () => {
    const root = await searchFixture(indexName, html`<svc-trending></svc-trending><svc-trending model="trending-facets" facet-name="brand"></svc-trending>`);
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
      html`<svc-trending model="trending-facets" facet-name="brand"><h2 slot="heading">Trending brands</h2></svc-trending><svc-hits></svc-hits>`,
    );
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    // Conversions only: Dell 3 → 100, Samsung 2 → 66.67, Lenovo 1 → 33.33 (Sony was only clicked).
    expect(el.facets.map((f) => [f.facetValue, f._score])).to.deep.equal([['Dell', 100], ['Samsung', 66.67], ['Lenovo', 33.33]]);
    const buttons = [...shadow(el).querySelectorAll<HTMLButtonElement>('button[part~="facet"]')];
    expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal(['Dell', 'Samsung', 'Lenovo']);
    expect(buttons[1].getAttribute('aria-pressed')).to.equal('false');
    const selected = new Promise<CustomEvent>((resolve) => el.addEventListener('svc-trending-facet-select', (e) => resolve(e), { once: true }));
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
    const root = await searchFixture(indexName, html`<button id="before">before</button><svc-trending model="trending-facets" facet-name="brand"></svc-trending>`);
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
    const root = await searchFixture(indexName, html`<svc-trending model="trending-facets" facet-name="brand"></svc-trending>`);
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    el.addEventListener('svc-trending-facet-select', (e) => e.preventDefault());
    shadow(el).querySelector<HTMLButtonElement>('button[part~="facet"]')!.click();
    await new Promise((r) => setTimeout(r, 50));
    expect(root.store!.isRefined('brand', 'Dell')).to.be.false;
  });

  it('shows the empty state when nothing is trending', async () => {
    const quiet = await createIndex('svc_trend_quiet', [{ objectID: 'q1', name: 'Quiet thing', brand: 'None', category: 'Phones', rank: 0 }]);
    const root = await searchFixture(quiet, html`<svc-trending></svc-trending>`);
    const el = root.querySelector('svc-trending')!;
    await ready(el);
    const empty = shadow(el).querySelector<HTMLElement>('[part~="empty"]')!;
    expect(empty.hidden).to.be.false;
    expect(empty.textContent!.trim()).to.equal('Nothing is trending yet.');
  });

  it('sends views and clicks on trending items with the answer queryID and positions 1..n', async () => {
    const root = await searchFixture(indexName, html`<svc-trending max-recommendations="3"></svc-trending>`, { insights: true });
    const sent: Array<{ eventType: string; queryID?: string; objectIDs?: string[]; positions?: number[]; userToken: string }> = [];
    root.addEventListener('svc-insights', (e) => sent.push((e as CustomEvent).detail.event));
    const el = root.querySelector('svc-trending')! as SvcTrending;
    await ready(el);
    const queryID = el.queryID!;
    expect(queryID).to.match(/^[0-9a-f]{32}$/);
    await waitUntil(() => sent.some((e) => e.eventType === 'view' && e.queryID === queryID), 'no view', { timeout: 5000 });
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
});
