import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcMenu } from '../../src/elements/menu/svc-menu.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import type { IndexState } from '../../src/store/types.js';
import '../../src/elements/menu/define.js';
import '../../src/elements/hits/define.js';
import {
  APP_ID,
  HOSTILE,
  SEARCH_KEY,
  createIndex,
  deepQueryAll,
  searchFixture,
  settled,
  shadow,
} from './search-fixture.js';
import { eventually, resetInsightsStorage, storedEvents } from '../insights/helpers.js';

// PRODUCTS: 36 products, six brands (6 each), three categories (12 each: Phones, Laptops, Headphones).
const buttons = (menu: Element) => [...shadow(menu).querySelectorAll<HTMLButtonElement>('button[part~="button"]')];
const button = (menu: Element, value: string) =>
  buttons(menu).find((b) => b.querySelector('[part~="label-text"]')!.textContent === value)!;
/** Each value as "label count" with "*" for the pressed one, in order. */
const shown = (menu: Element) =>
  buttons(menu).map(
    (b) =>
      `${b.getAttribute('aria-pressed') === 'true' ? '*' : ''}${b.querySelector('[part~="label-text"]')!.textContent} ${b.querySelector('[part~="count"]')!.textContent}`,
  );

async function rootWith(indexName: string, initialState: Partial<IndexState>, content: unknown, insights = false) {
  const root =
    await fixture<SvcSearch>(html`<svc-search app-id=${APP_ID} api-key=${SEARCH_KEY} index-name=${indexName} hosts=${location.origin}
    insights=${insights ? 'true' : 'false'} .initialState=${initialState}>${content}</svc-search>`);
  await settled(root.store!);
  const menu = root.querySelector('svc-menu')!;
  await menu.updateComplete;
  return { root, menu, store: root.store! };
}

async function press(menu: SvcMenu, value: string) {
  button(menu, value).click();
  const store = (menu.closest('svc-search') as SvcSearch).store!;
  await settled(store);
  await menu.updateComplete;
}

describe('<svc-menu>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_menu_el');
    hostileIndex = await createIndex('svc_menu_hostile', HOSTILE);
  });

  it('is accessible: nothing selected, a value selected, showing more', async () => {
    const { menu } = await rootWith(indexName, {}, html`<svc-menu attribute="brand" limit="3" show-more></svc-menu>`);
    await expect(menu).to.be.accessible();
    expect(shadow(menu).querySelector('ul')!.getAttribute('aria-label')).to.equal('Filter by brand');
    expect(buttons(menu).every((b) => b.type === 'button' && b.getAttribute('aria-pressed') === 'false')).to.be.true;
    await press(menu, 'Dell');
    await expect(menu).to.be.accessible();
    shadow(menu).querySelector<HTMLButtonElement>('[part~="show-more"]')!.click();
    await menu.updateComplete;
    await expect(menu).to.be.accessible();
  });

  it('lists the values by name with counts; selecting one refines, marks it pressed and keeps every count', async () => {
    const { root, menu, store } = await rootWith(
      indexName,
      {},
      html`<svc-menu attribute="category"></svc-menu><svc-hits attribute="category"></svc-hits>`,
    );
    expect(shown(menu)).to.deep.equal(['Headphones 12', 'Laptops 12', 'Phones 12']);
    await press(menu, 'Laptops');
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ category: ['Laptops'] });
    expect(shown(menu)).to.deep.equal(['*Laptops 12', 'Headphones 12', 'Phones 12']); // selected first, all counts kept
    expect(shadow(menu).querySelector('li[part~="selected-item"]')!.textContent).to.contain('Laptops');
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(store.getSnapshot().results!.nbHits).to.equal(12);
    expect([...shadow(hits).querySelectorAll('li')].every((li) => li.textContent!.trim() === 'Laptops')).to.be.true;
    expect(menu.selected).to.equal('Laptops');

    // Another value replaces the selection, in one request, back to page 0.
    store.setPage(1);
    await settled(store);
    const before = store.requestLog.length;
    await press(menu, 'Phones');
    expect(store.requestLog.length - before).to.equal(1);
    expect(store.getSnapshot().state).to.deep.include({
      page: 0,
      disjunctiveFacetRefinements: { category: ['Phones'] },
    });
    expect(shown(menu)).to.deep.equal(['*Phones 12', 'Headphones 12', 'Laptops 12']);

    // The selected one again clears it.
    await press(menu, 'Phones');
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({});
    expect(shown(menu)).to.deep.equal(['Headphones 12', 'Laptops 12', 'Phones 12']);
    expect(menu.selected).to.be.undefined;
  });

  it('counts follow the other refinements and the query, not its own selection', async () => {
    const { menu, store } = await rootWith(
      indexName,
      { query: 'sony' },
      html`<svc-menu attribute="category" sort-by="count:desc,name:asc"></svc-menu>`,
    );
    // Sony is p3, p9, p15, p21, p27, p33: all Phones (i % 3 == 0). The counts are those of the query.
    expect(store.getSnapshot().results!.facets.category).to.deep.equal({ Phones: 6 });
    const counts = store.getSnapshot().results!.facets.category!;
    expect(shown(menu)).to.deep.equal(
      Object.entries(counts)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([v, c]) => `${v} ${c}`),
    );
    const first = Object.keys(counts)[0]!;
    await press(menu, first);
    expect(
      shown(menu)
        .map((s) => s.replace('*', ''))
        .sort(),
    ).to.deep.equal(
      Object.entries(counts)
        .map(([v, c]) => `${v} ${c}`)
        .sort(),
    );
  });

  it('keyboard: Tab reaches each value, Enter and Space toggle it, the focus stays on the value pressed', async () => {
    const { menu, store } = await rootWith(indexName, {}, html`<svc-menu attribute="brand"></svc-menu>`);
    expect(shown(menu).map((s) => s.split(' ')[0])).to.deep.equal([
      'Apple',
      'Dell',
      'Google',
      'Lenovo',
      'Samsung',
      'Sony',
    ]);
    buttons(menu)[0]!.focus();
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(shadow(menu).activeElement).to.equal(button(menu, 'Google'));
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await menu.updateComplete;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Google'] });
    // Google moved to the top: the focus moved with it.
    expect(buttons(menu)[0]).to.equal(button(menu, 'Google'));
    expect(shadow(menu).activeElement).to.equal(button(menu, 'Google'));
    expect(button(menu, 'Google').getAttribute('aria-pressed')).to.equal('true');
    await sendKeys({ press: 'Space' });
    await settled(store);
    await menu.updateComplete;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({});
    expect(shadow(menu).activeElement).to.equal(button(menu, 'Google'));
    expect(button(menu, 'Google').getAttribute('aria-pressed')).to.equal('false');
  });

  it('limit, show more / less with aria-expanded, sort-by (over the values fetched: show-more-limit of them)', async () => {
    const { menu, store } = await rootWith(
      indexName,
      {},
      html`<svc-menu attribute="brand" limit="2" show-more show-more-limit="6" sort-by="name:desc"></svc-menu>`,
    );
    expect(
      (store.requestLog.at(-1)!.body as { requests: Array<{ params: { maxValuesPerFacet: number } }> }).requests[0]!
        .params.maxValuesPerFacet,
    ).to.equal(6);
    expect(shown(menu).map((s) => s.split(' ')[0])).to.deep.equal(['Sony', 'Samsung']);
    const more = shadow(menu).querySelector<HTMLButtonElement>('[part~="show-more"]')!;
    expect(more.getAttribute('aria-expanded')).to.equal('false');
    expect(more.getAttribute('aria-controls')).to.equal('list');
    expect(more.textContent).to.equal('Show more');
    more.click();
    await menu.updateComplete;
    expect(shown(menu).map((s) => s.split(' ')[0])).to.deep.equal([
      'Sony',
      'Samsung',
      'Lenovo',
      'Google',
      'Dell',
      'Apple',
    ]);
    expect(more.getAttribute('aria-expanded')).to.equal('true');
    expect(more.textContent).to.equal('Show less');
    menu.translations = { showLess: 'Moins', count: '({count})' };
    await menu.updateComplete;
    expect(more.textContent).to.equal('Moins');
    expect(shown(menu)[0]).to.equal('Sony (6)');
  });

  it('shows a value selected in the URL state, with every count', async () => {
    const { root, menu, store } = await rootWith(indexName, {}, html`<svc-menu attribute="category"></svc-menu>`);
    const url = store.createURL((state) => ({ ...state, disjunctiveFacetRefinements: { category: ['Headphones'] } }));
    root.remove();
    const again = await rootWith(
      indexName,
      store.fromQueryString(url.slice(1)),
      html`<svc-menu attribute="category"></svc-menu>`,
    );
    expect(shown(again.menu)).to.deep.equal(['*Headphones 12', 'Laptops 12', 'Phones 12']);
    expect(menu.isConnected).to.be.false;
  });

  it('an AND refinement of the attribute made elsewhere shows selected (its counts are then filtered); pressing clears it, refine() replaces it', async () => {
    const { menu, store } = await rootWith(
      indexName,
      { facetRefinements: { category: ['Phones'] } },
      html`<svc-menu attribute="category"></svc-menu>`,
    );
    expect(shown(menu)).to.deep.equal(['*Phones 12']);
    await press(menu, 'Phones');
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
    expect(shown(menu)).to.deep.equal(['Headphones 12', 'Laptops 12', 'Phones 12']);
    store.toggleRefinement('category', 'Phones', 'and');
    expect(menu.refine('Laptops')).to.be.true;
    await settled(store);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ category: ['Laptops'] });
  });

  it('fires svc-refine on a user action only', async () => {
    const { menu, store } = await rootWith(indexName, {}, html`<svc-menu attribute="category"></svc-menu>`);
    const events: SvcRefineEventDetail[] = [];
    menu.addEventListener('svc-refine', (e) => events.push(e.detail));
    const fired = oneEvent(menu, 'svc-refine');
    button(menu, 'Phones').click();
    expect((await fired).detail).to.deep.equal({ attribute: 'category', value: 'Phones', refined: true });
    await settled(store);
    await menu.updateComplete;
    await press(menu, 'Phones');
    expect(events).to.deep.equal([
      { attribute: 'category', value: 'Phones', refined: true },
      { attribute: 'category', value: 'Phones', refined: false },
    ]);
    menu.refine('Laptops'); // the method: no event
    store.clearRefinements();
    await settled(store);
    expect(events).to.have.length(2);
  });

  it('sends Filter Applied (read back from the service) when a value is turned on, not off', async () => {
    resetInsightsStorage();
    const { root, menu, store } = await rootWith(indexName, {}, html`<svc-menu attribute="category"></svc-menu>`, true);
    const insights = root.insights!;
    const queryID = store.getSnapshot().results!.queryID;
    await press(menu, 'Laptops');
    const secondQueryID = store.getSnapshot().results!.queryID;
    await press(menu, 'Phones'); // replaces: on
    await press(menu, 'Phones'); // off: nothing sent
    await insights.flush();
    await eventually(async () => (await storedEvents(insights.userToken!, 'click')).length >= 2);
    const events = await storedEvents(insights.userToken!, 'click');
    expect(events.map((e) => [e.eventName, e.index, e.filters, e.queryID])).to.deep.equal([
      ['Filter Applied', indexName, ['category:Laptops'], queryID],
      ['Filter Applied', indexName, ['category:Phones'], secondQueryID],
    ]);
  });

  it('shows hostile values as text only', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const root = await searchFixture(
      hostileIndex,
      html`<svc-menu attribute="brand"></svc-menu><svc-menu attribute="category"></svc-menu>`,
    );
    const [brands, categories] = [...root.querySelectorAll('svc-menu')] as [SvcMenu, SvcMenu];
    await brands.updateComplete;
    await categories.updateComplete;
    expect(shown(brands)).to.deep.equal([`${HOSTILE[0].brand} 1`, 'Acme 1']);
    expect(shown(categories)).to.include(`${HOSTILE[1].category} 1`);
    await press(brands, HOSTILE[0].brand);
    expect(root.store!.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: [HOSTILE[0].brand] });
    expect(root.store!.getSnapshot().results!.nbHits).to.equal(1);
    await new Promise((r) => setTimeout(r, 100));
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(deepQueryAll(root, 'script, img, [onerror], [onload]')).to.deep.equal([]);
  });
});
